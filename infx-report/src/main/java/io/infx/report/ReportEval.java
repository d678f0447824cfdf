package io.infx.report;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One eval score in the report, placed next to the throughput it guards.
 *
 * @param workload the workload label of the guarded configuration (as {@link ReportPoint#workload()})
 * @param config the configuration label (as {@link ReportPoint#config()})
 * @param conc concurrency the eval ran at
 * @param task lm-eval task, e.g. {@code gsm8k}
 * @param score the score as a fraction in [0, 1] ({@code score} of the eval row), empty when null
 * @param scoreSe its standard error (fraction), empty when not published
 * @param scoreName which metric the score is ({@code em_strict}, {@code accuracy}), empty when none
 * @param tputPerGpu throughput per GPU (tokens/s/GPU) of the benchmark point with the same
 *     configuration and concurrency, when the run measured one
 * @param source the eval result file
 */
public record ReportEval(String workload, String config, int conc, String task, OptionalDouble score,
    OptionalDouble scoreSe, String scoreName, OptionalDouble tputPerGpu, String source) {

  public ReportEval {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(scoreSe, "scoreSe");
    Objects.requireNonNull(scoreName, "scoreName");
    Objects.requireNonNull(tputPerGpu, "tputPerGpu");
    Objects.requireNonNull(source, "source");
  }
}
