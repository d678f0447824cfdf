package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import io.infx.core.tree.MapNode;
import java.util.Optional;
import org.immutables.value.Value;

/** How the load generator talks to the engine a recipe starts. All optional (preset, then defaults). */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class ClientSection implements SelfChecking {

  /** {@code --backend}: {@code vllm} (default), {@code sglang}, {@code openai}, {@code openai-chat}, … */
  public abstract Optional<String> backend();

  /** Request path, e.g. {@code /v1/completions} (default: the backend's). */
  public abstract Optional<String> endpoint();

  /** Tokenizer (template): a tokenizer.json file or directory, a Hugging Face id, or {@code builtin}. */
  public abstract Optional<String> tokenizer();

  /** Apply the model's chat template to prompts ({@code --use-chat-template}). Default false. */
  public abstract Optional<Boolean> useChatTemplate();

  /** Extra fields merged into every request body, e.g. {@code {top_k: 1}}. */
  public abstract Optional<MapNode> extraBody();

  @Override
  public void check(Checks checks) {
    endpoint().filter(e -> !e.startsWith("/")).ifPresent(e ->
        checks.fail("recipe.endpoint", "endpoint", "endpoint must be a path starting with '/', got '" + e + "'"));
    tokenizer().ifPresent(t -> {
      try {
        CommandTemplate.parse(t);
      } catch (IllegalArgumentException e) {
        checks.fail("recipe.template", "tokenizer", e.getMessage());
      }
    });
  }

  ClientSection overriddenBy(ClientSection o) {
    ImmutableClientSection.Builder b = ImmutableClientSection.builder().from(this);
    o.backend().ifPresent(b::backend);
    o.endpoint().ifPresent(b::endpoint);
    o.tokenizer().ifPresent(b::tokenizer);
    o.useChatTemplate().ifPresent(b::useChatTemplate);
    o.extraBody().ifPresent(b::extraBody);
    return b.build();
  }
}
