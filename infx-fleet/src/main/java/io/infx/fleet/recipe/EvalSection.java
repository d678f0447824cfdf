package io.infx.fleet.recipe;

import io.infx.core.InfxStyle;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * How eval points served by a recipe run their accuracy eval ({@code eval:} section): the eval
 * tool's command, run by {@code bash -c} in the point's workspace after the engine is ready, with
 * the point's environment plus {@code PORT}, {@code OPENAI_BASE_URL}, {@code MODEL_NAME},
 * {@code EVAL_RESULT_DIR}, {@code EVAL_TASKS_DIR}, {@code EVAL_CONCURRENT_REQUESTS},
 * {@code EVAL_LIMIT} … (shell variables, expanded when it runs). All optional: without a command
 * the reference's lm-eval invocation runs ({@code io.infx.fleet.bench.EvalSettings}).
 */
@Value.Immutable
@InfxStyle
public abstract class EvalSection {

  /** The eval command, e.g. {@code python3 -m lm_eval --model local-chat-completions …}. */
  public abstract Optional<String> command();

  /** lm-eval tasks ({@code EVAL_TASKS_DIR}); default {@code gsm8k}. */
  public abstract Optional<String> tasks();

  /** Samples per task ({@code EVAL_LIMIT}). */
  public abstract Optional<Integer> limit();

  EvalSection overriddenBy(EvalSection o) {
    ImmutableEvalSection.Builder b = ImmutableEvalSection.builder().from(this);
    o.command().ifPresent(b::command);
    o.tasks().ifPresent(b::tasks);
    o.limit().ifPresent(b::limit);
    return b.build();
  }

  /** The settings the bench driver runs. */
  io.infx.fleet.bench.EvalSettings toSettings() {
    var b = io.infx.fleet.bench.EvalSettings.builder();
    command().ifPresent(b::command);
    tasks().ifPresent(b::tasks);
    limit().ifPresent(b::limit);
    return b.build();
  }
}
