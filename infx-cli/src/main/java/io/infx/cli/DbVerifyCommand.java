package io.infx.cli;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.store.ResultStore;
import io.infx.store.VerifyReport;
import io.infx.store.VerifyThresholds;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx db verify}: a deterministic report, and thresholds that can fail. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
        "Print row counts, distinct dimension values, success/error totals, date range, ISL/OSL combinations, "
            + "coverage of the charted metrics, run-stats coverage and a content checksum. The output has no "
            + "timestamps, timings or ids: two stores with the same content print the same lines.",
        "Exit status 1 when a threshold fails."
    })
public final class DbVerifyCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DbLocationOption store;

  @Option(names = "--min-rows", paramLabel = "N", defaultValue = "0",
      description = "Fewest successful benchmark rows (default ${DEFAULT-VALUE}).")
  long minRows;

  @Option(names = "--min-coverage", paramLabel = "FRACTION", defaultValue = "0",
      description = "Smallest fraction of successful rows carrying each charted metric (0..1, default ${DEFAULT-VALUE}).")
  double minCoverage;

  @Option(names = "--max-error-rate", paramLabel = "FRACTION", defaultValue = "1",
      description = "Largest fraction of rows with an error (0..1, default ${DEFAULT-VALUE}).")
  double maxErrorRate;

  @Override
  public Integer call() {
    VerifyThresholds limits;
    try {
      limits = new VerifyThresholds(minRows, minCoverage, maxErrorRate);
    } catch (IllegalArgumentException e) {
      throw new io.infx.core.UsageException("--min-rows must be >= 0; --min-coverage and --max-error-rate within 0..1");
    }
    try (ResultStore s = ResultStore.open(store.location())) {
      VerifyReport r = s.verify(limits);
      r.lines().forEach(spec.commandLine().getOut()::println);
      if (!r.passed()) {
        throw new InfxException(ErrorKind.VERIFY, "store failed verification: " + String.join("; ", r.failures()));
      }
    }
    return 0;
  }
}
