package io.infx.fleet.bench;

import io.infx.core.InfxStyle;
import java.util.Optional;
import java.util.OptionalInt;
import org.immutables.value.Value;

/**
 * How the accuracy eval of an eval point ({@code RUN_EVAL=true} or {@code EVAL_ONLY=true}) is run
 * against the launched server. The eval tool is the user's to install; infx only runs it, as the
 * reference's {@code run_lm_eval} does (benchmark_lib.sh).
 *
 * <p>Default: lm-eval's OpenAI-compatible chat client, {@code python3 -m lm_eval --model
 * local-chat-completions --apply_chat_template --tasks $EVAL_TASKS_DIR --output_path
 * $EVAL_RESULT_DIR --log_samples --model_args model=$MODEL_NAME,base_url=http://127.0.0.1:$PORT/v1/chat/completions,…
 * --gen_kwargs max_tokens=…,temperature=0,top_p=1}. A {@link #command()} replaces it: a shell
 * command run by {@code bash -c} in the point's workspace with the point's environment plus
 * {@code PORT}, {@code MODEL_NAME}, {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL}
 * ({@code http://127.0.0.1:$PORT/v1}), {@code EVAL_RESULT_DIR} (where it must write lm-eval-shaped
 * output: {@code results*.json}, {@code samples_*.jsonl}, any depth), {@code EVAL_TASKS_DIR},
 * {@code EVAL_CONCURRENT_REQUESTS}, {@code EVAL_MAX_MODEL_LEN}, {@code EVAL_MAX_OUTPUT_TOKENS} and
 * {@code EVAL_LIMIT} when set.
 */
@Value.Immutable
@InfxStyle
public abstract class EvalSettings {

  /** The eval command (a {@code bash -c} string); empty for the default lm-eval invocation. */
  public abstract Optional<String> command();

  /** lm-eval {@code --tasks}: a task name or a task YAML ({@code EVAL_TASKS_DIR}); default {@code gsm8k}. */
  @Value.Default
  public String tasks() {
    return "gsm8k";
  }

  /** {@code --limit}: samples per task ({@code EVAL_LIMIT}); default: the row's {@code EVAL_LIMIT}, else all. */
  public abstract OptionalInt limit();

  /** The default invocation, lm-eval on {@code gsm8k}. */
  public static EvalSettings defaults() {
    return builder().build();
  }

  public static ImmutableEvalSettings.Builder builder() {
    return ImmutableEvalSettings.builder();
  }
}
