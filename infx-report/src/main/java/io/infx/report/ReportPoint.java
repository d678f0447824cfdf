package io.infx.report;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * One measured point of a report: one serving configuration at one concurrency.
 *
 * @param workload what was served and how it was loaded, e.g. {@code dsr1 · 1k/1k} or
 *     {@code dsr1 · AgentX}; points of one workload share a chart
 * @param config the serving configuration (hardware, framework, precision, topology …), one
 *     chart series; unique within its workload
 * @param conc client concurrency (the aggregate's {@code conc})
 * @param tputPerGpu total (input + output) token throughput per GPU, tokens/s/GPU
 * @param outputTputPerGpu output token throughput per GPU, tokens/s/GPU
 * @param interactivity tokens/s per user at the median TPOT ({@code median_intvty} =
 *     1000 / median TPOT in ms, reference {@code process_result.py}); empty when not published
 * @param ttft time to first token statistics, ms
 * @param tpot time per output token statistics, ms
 * @param e2el end-to-end request latency statistics, ms
 * @param source where the point came from (file or row index), for messages
 */
public record ReportPoint(
    String workload,
    String config,
    int conc,
    double tputPerGpu,
    double outputTputPerGpu,
    OptionalDouble interactivity,
    Latency ttft,
    Latency tpot,
    Latency e2el,
    String source) {

  public ReportPoint {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(interactivity, "interactivity");
    Objects.requireNonNull(ttft, "ttft");
    Objects.requireNonNull(tpot, "tpot");
    Objects.requireNonNull(e2el, "e2el");
    Objects.requireNonNull(source, "source");
    if (conc < 1) {
      throw new IllegalArgumentException("conc must be >= 1, got " + conc);
    }
    if (!Double.isFinite(tputPerGpu) || tputPerGpu < 0
        || !Double.isFinite(outputTputPerGpu) || outputTputPerGpu < 0) {
      throw new IllegalArgumentException("throughputs must be finite and >= 0, got "
          + tputPerGpu + " and " + outputTputPerGpu);
    }
    if (interactivity.isPresent()
        && (!Double.isFinite(interactivity.getAsDouble()) || interactivity.getAsDouble() < 0)) {
      throw new IllegalArgumentException("interactivity must be finite and >= 0, got "
          + interactivity.getAsDouble());
    }
  }
}
