package io.infx.fleet;

import io.infx.client.ImmutableServeJob;
import io.infx.client.ReferenceWorkload;
import io.infx.client.ServeJob;
import io.infx.matrix.MatrixRow;
import java.util.Objects;

/**
 * Typed bridge from a matrix row to the serve benchmark InferenceX runs for it: a {@link ServeJob}
 * builder preset with the reference workload rules ({@link ReferenceWorkload}: {@code --num-prompts
 * 10 × conc}, {@code --num-warmups 2 × conc}, {@code --random-range-ratio 0.8}, {@code
 * --ignore-eos}, {@code --max-concurrency conc}, request rate {@code inf}, backend {@code vllm}) and
 * the row's {@code model}, ISL and OSL. The fleet's launch path ({@code BenchDriver}, reading the
 * projected environment) applies the same {@link ReferenceWorkload}, so a preset equals what
 * {@code infx fleet launch} runs for the row (checked over the matrix conformance corpus).
 *
 * <pre>{@code
 * ServeJob.Outcome o = ServePresets.of(row).baseUrl(server.baseUri()).tokenizer("builtin")
 *     .saveResult(false).build().run();
 * }</pre>
 *
 * <p>What the preset leaves to the caller: where the server is ({@code baseUrl}), the result file
 * ({@code resultDir}, {@code resultFilename}; the fleet names it {@code <RESULT_FILENAME>.json}),
 * and the engine script's choices ({@code --use-chat-template}, {@code --backend openai},
 * {@code --tokenizer}); any value may be overridden by calling its setter again.
 */
public final class ServePresets {

  private ServePresets() {}

  /**
   * The preset of a single-node fixed-seq-len row at its one concurrency.
   *
   * @throws IllegalArgumentException for an AgentX row (it replays traces, {@code infx bench
   *     agentic}) or a multi-node row (it has several concurrencies: use {@link #of(MatrixRow, int)})
   * @throws io.infx.core.InfxException kind {@code input} when {@code 10 × conc} overflows an int
   */
  public static ImmutableServeJob.Builder of(MatrixRow row) {
    Objects.requireNonNull(row, "row");
    MatrixRow.FixedSeqLen fixed = fixedSeqLen(row);
    if (row.multiNode()) {
      throw new IllegalArgumentException("a multi-node row runs one benchmark per concurrency "
          + row.conc() + "; name the concurrency: ServePresets.of(row, conc)");
    }
    return ReferenceWorkload.fixedSeqLen(row.model(), fixed.isl(), fixed.osl(), row.conc().get(0));
  }

  /**
   * The preset of one concurrency of a fixed-seq-len row (multi-node rows list several).
   *
   * @param conc one of the row's {@code conc} values
   * @throws IllegalArgumentException for an AgentX row, or a {@code conc} the row does not list
   * @throws io.infx.core.InfxException kind {@code input} when {@code 10 × conc} overflows an int
   */
  public static ImmutableServeJob.Builder of(MatrixRow row, int conc) {
    Objects.requireNonNull(row, "row");
    MatrixRow.FixedSeqLen fixed = fixedSeqLen(row);
    if (!row.conc().contains(conc)) {
      throw new IllegalArgumentException("the row " + row.expName() + " lists conc " + row.conc()
          + ", not " + conc);
    }
    return ReferenceWorkload.fixedSeqLen(row.model(), fixed.isl(), fixed.osl(), conc);
  }

  private static MatrixRow.FixedSeqLen fixedSeqLen(MatrixRow row) {
    if (row instanceof MatrixRow.FixedSeqLen f) {
      return f;
    }
    throw new IllegalArgumentException("the row " + row.expName() + " is an AgentX (" + row.kind()
        + ") row: it replays traces (infx bench agentic, io.infx.client.agentx), it has no "
        + "fixed-sequence serve benchmark");
  }
}
