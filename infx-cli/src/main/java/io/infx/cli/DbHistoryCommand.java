package io.infx.cli;

import io.infx.store.HistoryEntry;
import io.infx.store.ResultStore;
import io.infx.store.mapping.ConfigParams;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx db history}: a point's metric over runs and dates. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    description = "Print a metric of the matching points over every stored run, oldest first "
        + "(simulated rows included and flagged; 'latest' marks rows in the latest view).")
public final class DbHistoryCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DbLocationOption store;

  @Mixin DbPointFilter filter;

  @Option(names = "--metric", paramLabel = "NAME", defaultValue = "tput_per_gpu",
      description = "The metric (default: ${DEFAULT-VALUE}; e.g. median_intvty, p99_ttft, median_e2el).")
  String metric;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table (default), csv or json.")
  String format;

  @Override
  public Integer call() {
    Tabular.checkFormat(format);
    Tabular t = new Tabular(List.of("date", "run", "hardware", "framework", "precision", "tp", "ep", "isl", "osl",
        "conc", metric, "simulated", "latest"));
    try (ResultStore s = ResultStore.open(store.location())) {
      for (HistoryEntry e : s.history(filter.query(), metric)) {
        ConfigParams c = e.config();
        List<Object> row = new ArrayList<>(List.of(e.date().toString(), e.runId(), c.hardware(), c.framework(),
            c.precision(), c.decodeTp(), c.decodeEp()));
        row.add(e.isl());
        row.add(e.osl());
        row.add(e.conc());
        row.add(e.value());
        row.add(e.simulated());
        row.add(e.latest());
        t.add(row);
      }
    }
    t.print(spec.commandLine().getOut(), format);
    return 0;
  }
}
