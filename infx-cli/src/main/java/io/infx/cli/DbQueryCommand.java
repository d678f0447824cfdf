package io.infx.cli;

import io.infx.store.LatestPoint;
import io.infx.store.ResultStore;
import io.infx.store.mapping.ConfigParams;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx db query}: the latest points of a model. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = "Print the latest view's points of a model across all hardware (real rows only), "
        + "optionally narrowed by ISL/OSL, precision, hardware, framework, conc.")
public final class DbQueryCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DbLocationOption store;

  @Mixin DbPointFilter filter;

  @Option(names = "--metrics", paramLabel = "LIST", defaultValue = "tput_per_gpu,output_tput_per_gpu,median_ttft,median_intvty",
      description = "Comma-separated metrics to print (default: ${DEFAULT-VALUE}).")
  String metrics;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "table", description = "table (default), csv or json.")
  String format;

  @Override
  public Integer call() {
    Tabular.checkFormat(format);
    List<String> names = Arrays.stream(metrics.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    List<String> headers = new ArrayList<>(List.of("hardware", "framework", "precision", "spec", "disagg", "tp", "ep",
        "gpus", "type", "isl", "osl", "conc", "date", "run"));
    headers.addAll(names);
    Tabular t = new Tabular(headers);
    try (ResultStore s = ResultStore.open(store.location())) {
      for (LatestPoint p : s.latestPoints(filter.query())) {
        ConfigParams c = p.config();
        List<Object> row = new ArrayList<>(List.of(c.hardware(), c.framework(), c.precision(), c.specMethod(), c.disagg(),
            c.decodeTp(), c.decodeEp(), c.numPrefillGpu() + (c.disagg() ? c.numDecodeGpu() : 0), p.benchmarkType()));
        row.add(p.isl());
        row.add(p.osl());
        row.add(p.conc());
        row.add(p.date().toString());
        row.add(p.runId());
        for (String m : names) {
          row.add(p.metric(m).isPresent() ? p.metric(m).getAsDouble() : null);
        }
        t.add(row);
      }
    }
    t.print(spec.commandLine().getOut(), format);
    return 0;
  }
}
