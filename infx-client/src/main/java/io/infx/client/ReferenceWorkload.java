package io.infx.client;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.launch.LaunchVariable;
import java.util.Objects;

/**
 * The workload rules InferenceX applies to every single-node fixed-seq-len point, in one place:
 * {@code run_benchmark_serving} in {@code benchmarks/benchmark_lib.sh} as every fixed-seq bench
 * script calls it, with the {@code env:} block of {@code benchmark-tmpl.yml} (client spec §1.1).
 * Both ways of reaching a {@link ServeJob} use it — the typed matrix row ({@code
 * io.infx.fleet.ServePresets}) and the fleet's launch environment ({@code
 * io.infx.fleet.bench.BenchDriver}, {@code infx run}) — so the two cannot drift apart.
 *
 * <table>
 *   <caption>The rules</caption>
 *   <tr><th>client flag</th><th>value</th><th>source</th></tr>
 *   <tr><td>{@code --backend}</td><td>{@code vllm}</td><td>the fixed-seq scripts (most of them)</td></tr>
 *   <tr><td>{@code --dataset-name}</td><td>{@code random}</td><td>{@code benchmark_lib.sh}</td></tr>
 *   <tr><td>{@code --random-input-len}, {@code --random-output-len}</td><td>ISL, OSL of the row (tokens)</td>
 *       <td>{@code benchmark_lib.sh}</td></tr>
 *   <tr><td>{@code --random-range-ratio}</td><td>0.8</td>
 *       <td>{@code RANDOM_RANGE_RATIO} of {@code benchmark-tmpl.yml}'s {@code env:}
 *       ({@link LaunchVariable#RANDOM_RANGE_RATIO})</td></tr>
 *   <tr><td>{@code --num-prompts}</td><td>{@value #PROMPTS_PER_CONC} × conc</td><td>every fixed-seq script</td></tr>
 *   <tr><td>{@code --num-warmups}</td><td>{@value #WARMUPS_PER_CONC} × conc</td><td>{@code benchmark_lib.sh}</td></tr>
 *   <tr><td>{@code --max-concurrency}</td><td>conc</td><td>{@code benchmark_lib.sh}</td></tr>
 *   <tr><td>{@code --request-rate}</td><td>{@code inf}</td><td>{@code benchmark_lib.sh}</td></tr>
 *   <tr><td>{@code --ignore-eos}</td><td>always</td><td>{@code benchmark_lib.sh}</td></tr>
 *   <tr><td>{@code --percentile-metrics}</td><td>{@code ttft,tpot,itl,e2el} (percentiles 90, 99, 99.9)</td>
 *       <td>{@code benchmark_lib.sh}; the client's defaults</td></tr>
 *   <tr><td>{@code --save-result}</td><td>always</td><td>{@code benchmark_lib.sh}</td></tr>
 * </table>
 *
 * <p>Not applied (they depend on the engine's script, not on the row): {@code --use-chat-template}
 * (the MTP scripts), {@code --backend openai}/{@code openai-chat} (some TRT-LLM scripts),
 * {@code --tokenizer}; and {@code PROFILE=1}'s {@code --num-prompts $CONC}.
 */
public final class ReferenceWorkload {

  /** Measured requests per unit of concurrency: {@code --num-prompts $((CONC * 10))}. */
  public static final int PROMPTS_PER_CONC = 10;

  /** Warm-up requests per unit of concurrency: {@code --num-warmups $((2 * CONC))}. */
  public static final int WARMUPS_PER_CONC = 2;

  /**
   * {@code RANDOM_RANGE_RATIO} as the workflow template writes it ({@code "0.8"}): the constant is
   * kept once, as the launch-variable catalogue's value ({@link LaunchVariable#RANDOM_RANGE_RATIO}).
   */
  public static final String RANDOM_RANGE_RATIO_TEXT =
      LaunchVariable.RANDOM_RANGE_RATIO.launcherDefault().orElseThrow();

  /** {@code RANDOM_RANGE_RATIO} (0.8): lengths are drawn from {@code [floor(len × 0.8), len]}. */
  public static final double RANDOM_RANGE_RATIO = Double.parseDouble(RANDOM_RANGE_RATIO_TEXT);

  private ReferenceWorkload() {}

  /** {@value #PROMPTS_PER_CONC} × {@code conc}; see {@link #requests(int, int, String)} for the errors. */
  public static int numPrompts(int conc) {
    return requests(PROMPTS_PER_CONC, conc, "prompts");
  }

  /** {@value #WARMUPS_PER_CONC} × {@code conc}; see {@link #requests(int, int, String)} for the errors. */
  public static int numWarmups(int conc) {
    return requests(WARMUPS_PER_CONC, conc, "warm-ups");
  }

  /**
   * {@code perConc × conc} requests (the reference's shell arithmetic), refused rather than
   * wrapped to a negative count.
   *
   * @param what what is counted, for the message ({@code "prompts"}, {@code "warm-ups"})
   * @throws InfxException kind {@code input} when the product exceeds 2^31 − 1
   */
  public static int requests(int perConc, int conc, String what) {
    try {
      return Math.multiplyExact(perConc, conc);
    } catch (ArithmeticException e) {
      throw new InfxException(ErrorKind.INPUT, "conc " + conc + " × " + perConc + " " + what
          + " per unit of concurrency exceeds the largest request count (2147483647)");
    }
  }

  /**
   * A job preset with every rule above for one point; the caller adds where the server is
   * ({@code baseUrl} or {@code host}/{@code port}), the result location, and may override any
   * value (the builder accepts a second call of a setter).
   *
   * @param model the {@code model} of requests and the tokenizer id ({@code --model}; the row's
   *     {@code model})
   * @param isl upper bound of the prompt length, tokens ({@code --random-input-len})
   * @param osl upper bound of {@code max_tokens}, tokens ({@code --random-output-len})
   * @param conc the point's concurrency ({@code --max-concurrency}), ≥ 1
   * @throws IllegalArgumentException for {@code isl}, {@code osl} or {@code conc} below 1
   * @throws InfxException kind {@code input} when {@code 10 × conc} overflows an int
   */
  public static ImmutableServeJob.Builder fixedSeqLen(String model, int isl, int osl, int conc) {
    Objects.requireNonNull(model, "model");
    if (isl < 1 || osl < 1 || conc < 1) {
      throw new IllegalArgumentException("a fixed-seq-len point needs ISL, OSL and conc ≥ 1, got ISL "
          + isl + ", OSL " + osl + ", conc " + conc);
    }
    return ServeJob.builder()
        .backend(ServingBackend.VLLM)
        .model(model)
        .datasetName("random")
        .randomInputLen(isl)
        .randomOutputLen(osl)
        .randomRangeRatio(RANDOM_RANGE_RATIO)
        .numPrompts(numPrompts(conc))
        .numWarmups(numWarmups(conc))
        .maxConcurrency(conc)
        .requestRate(Double.POSITIVE_INFINITY)
        .body(BodyOptions.builder().ignoreEos(true).build())
        .metrics(MetricOptions.builder().build())
        .saveResult(true);
  }
}
