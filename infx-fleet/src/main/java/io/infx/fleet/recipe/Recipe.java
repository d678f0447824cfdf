package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One entry of a recipe file: which rows it serves ({@link #match()}), what it starts from
 * ({@link #preset()}), and its server and client sections. New sections (e.g. {@code eval}) are
 * added as further optional attributes here; unknown keys stay errors.
 */
@Value.Immutable
@InfxStyle
public abstract class Recipe {

  /** A built-in preset to start from: {@code vllm}, {@code sglang}, {@code trtllm}, {@code llamacpp}. */
  public abstract Optional<String> preset();

  /** Rows this recipe serves; absent: every row (specificity 0). */
  public abstract Optional<RecipeMatch> match();

  public abstract Optional<ServerSection> server();

  public abstract Optional<ClientSection> client();

  /** The eval tool of eval points (run-eval / eval-only rows) this recipe serves. */
  public abstract Optional<EvalSection> eval();

  /** This recipe laid over {@code base} (a preset): fields set here win. */
  Recipe over(Recipe base) {
    ImmutableRecipe.Builder b = ImmutableRecipe.builder().from(this).preset(Optional.empty());
    if (base.server().isPresent()) {
      b.server(server().map(s -> base.server().get().overriddenBy(s)).orElse(base.server().get()));
    }
    if (base.client().isPresent()) {
      b.client(client().map(c -> base.client().get().overriddenBy(c)).orElse(base.client().get()));
    }
    if (base.eval().isPresent()) {
      b.eval(eval().map(e -> base.eval().get().overriddenBy(e)).orElse(base.eval().get()));
    }
    return b.build();
  }
}
