package io.infx.cli;

import io.infx.store.ResultStore;
import io.infx.store.RunSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx db runs}: the stored runs. */
@Command(name = "runs", mixinStandardHelpOptions = true,
    description = "List the stored runs (highest attempt of each), newest first.")
public final class DbRunsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DbLocationOption store;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table (default), csv or json.")
  String format;

  @Override
  public Integer call() {
    Tabular.checkFormat(format);
    Tabular t = new Tabular(List.of("run", "attempt", "source", "date", "append_only", "benchmarks", "simulated", "evals", "url"));
    try (ResultStore s = ResultStore.open(store.location())) {
      for (RunSummary r : s.runs()) {
        List<Object> row = new ArrayList<>(List.of(r.runId(), r.runAttempt(), r.source(), r.date().toString(),
            r.appendOnly(), r.benchmarkRows(), r.simulatedRows(), r.evalRows()));
        row.add(r.url());
        t.add(row);
      }
    }
    t.print(spec.commandLine().getOut(), format);
    return 0;
  }
}
