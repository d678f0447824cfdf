package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.store.PointQuery;
import picocli.CommandLine.Option;

/** The point filter {@code infx db query} and {@code infx db history} share. */
final class DbPointFilter {

  @Option(names = "--model", required = true, paramLabel = "KEY", description = "DB model key, e.g. dsr1, gptoss120b.")
  String model;

  @Option(names = "--isl", paramLabel = "TOKENS", description = "Input sequence length (with --osl).")
  Integer isl;

  @Option(names = "--osl", paramLabel = "TOKENS", description = "Output sequence length (with --isl).")
  Integer osl;

  @Option(names = "--precision", paramLabel = "P", description = "e.g. fp8, fp4.")
  String precision;

  @Option(names = "--hardware", paramLabel = "GPU", description = "GPU key, e.g. h200, mi355x.")
  String hardware;

  @Option(names = "--framework", paramLabel = "F", description = "e.g. sglang, vllm, dynamo-trt.")
  String framework;

  @Option(names = "--conc", paramLabel = "N", description = "Concurrency.")
  Integer conc;

  PointQuery query() {
    if ((isl == null) != (osl == null)) {
      throw new UsageException("--isl and --osl go together");
    }
    PointQuery q = PointQuery.model(model);
    if (isl != null) {
      q = q.islOsl(isl, osl);
    }
    if (precision != null) {
      q = q.precision(precision);
    }
    if (hardware != null) {
      q = q.hardware(hardware);
    }
    if (framework != null) {
      q = q.framework(framework);
    }
    if (conc != null) {
      q = q.conc(conc);
    }
    return q;
  }
}
