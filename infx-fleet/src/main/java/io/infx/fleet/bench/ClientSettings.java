package io.infx.fleet.bench;

import io.infx.core.InfxStyle;
import java.util.Optional;
import java.util.OptionalInt;
import org.immutables.value.Value;

/**
 * How the load generator is driven for a fixed-seq-len point, on top of the reference workload
 * rules ({@link io.infx.client.ReferenceWorkload}: backend {@code vllm}, {@code num-prompts = 10 ×
 * CONC}, {@code num-warmups = 2 × CONC}, {@code --ignore-eos}, random dataset with {@code
 * RANDOM_RANGE_RATIO}); every field here is an override of one of them or an engine script's choice.
 */
@Value.Immutable
@InfxStyle
public abstract class ClientSettings {

  /** {@code --backend} of the client: {@code vllm}, {@code openai}, {@code openai-chat}, … */
  @Value.Default
  public String backend() {
    return "vllm";
  }

  /** Tokenizer; default {@code builtin} with the simulator, else the row's {@code MODEL}. */
  public abstract Optional<String> tokenizer();

  /** Request path; default the backend's ({@code /v1/completions}, {@code /v1/chat/completions}). */
  public abstract Optional<String> endpoint();

  /** Fields merged into every request body (a recipe's {@code extra-body}). */
  public abstract java.util.Map<String, Object> extraBody();

  /**
   * Apply the model's chat template to prompts (InferenceX's {@code --use-chat-template}): the
   * client wraps each random prompt in the template of the tokenizer's directory, as the reference
   * does ({@link io.infx.client.ServeJob#useChatTemplate()}).
   */
  @Value.Default
  public boolean useChatTemplate() {
    return false;
  }

  /**
   * The chat template for {@link #useChatTemplate()} (a {@code .jinja} file, a
   * {@code tokenizer_config.json} or a directory) when the tokenizer's directory has none, e.g.
   * with the built-in tokenizer.
   */
  public abstract Optional<java.nio.file.Path> chatTemplate();

  /** Override of {@code 10 × CONC} ({@link io.infx.client.ReferenceWorkload#numPrompts}). */
  public abstract OptionalInt numPrompts();

  /** Override of {@code 2 × CONC} ({@link io.infx.client.ReferenceWorkload#numWarmups}). */
  public abstract OptionalInt numWarmups();

  /**
   * Seed of the random prompts; default the reference's ({@code 0}). A server kept up across points
   * ({@link ServerSpec.Held}, {@code infx search}) gets a seed per point: the same prompts again
   * would be served from its prefix cache.
   */
  public abstract java.util.OptionalLong seed();

  /**
   * Per-request goodput thresholds in ms by metric ({@code ttft}, {@code tpot}, {@code e2el}), the
   * client's {@code --goodput}: the raw result then carries {@code request_goodput:}. Default none.
   */
  public abstract java.util.Map<String, Double> goodputMillis();

  /**
   * Percentiles reported besides the reference's 90, 99 and 99.9 ({@code --metric-percentiles}), e.g.
   * 95 for an SLO on p95; the raw result and the aggregate then carry {@code p95_*} too. Default none.
   */
  public abstract java.util.List<Double> extraPercentiles();

  /**
   * How eval points run their accuracy eval (lm-eval's OpenAI-compatible client by default); only
   * used for rows with {@code RUN_EVAL=true} or {@code EVAL_ONLY=true}.
   */
  @Value.Default
  public EvalSettings eval() {
    return EvalSettings.defaults();
  }

  /**
   * Receives the load generator's typed outcome (statistics, histograms) when the client ran in
   * this JVM — the {@code local} and container adapters; never called for a point whose bench
   * driver runs in another process (Slurm). Called once per point, after the run, before the
   * result is normalized; not part of equality.
   */
  @Value.Auxiliary
  public abstract Optional<java.util.function.Consumer<io.infx.client.ServeJob.Outcome>> onClientOutcome();

  public static ClientSettings defaults() {
    return builder().build();
  }

  public static ImmutableClientSettings.Builder builder() {
    return ImmutableClientSettings.builder();
  }
}
