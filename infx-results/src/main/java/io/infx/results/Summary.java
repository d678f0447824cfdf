package io.infx.results;

import io.infx.core.python.PythonJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * A table of aggregate rows, one line per measurement point, sorted by model prefix, hardware,
 * framework, precision, ISL, OSL, topology and concurrency. The reference documents a
 * {@code utils/summarize.py} that does not exist; the columns follow its comparison script.
 *
 * <p>Columns and units: tput/GPU and output tput/GPU in tokens/s/GPU, TTFT and TPOT in ms, E2EL in
 * s, interactivity in tokens/s/user ({@code median_intvty}, else {@code mean_intvty}).
 */
public final class Summary {

  /** One column: header, CSV header, and how to read it from a row. */
  private record Column(String header, String csvHeader, Function<AggregateRow, Object> value, int decimals) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("hardware", "hw", r -> r.identity().hw(), -1),
      new Column("model", "model_prefix", r -> r.identity().modelPrefix(), -1),
      new Column("ISL/OSL", "isl_osl", r -> r.identity().isl() + "/" + r.identity().osl(), -1),
      new Column("framework", "framework", r -> r.identity().framework(), -1),
      new Column("precision", "precision", r -> r.identity().precision(), -1),
      new Column("spec", "spec_decoding", r -> r.identity().specDecoding(), -1),
      new Column("topology", "topology", r -> Topologies.label(r.identity().topology()), -1),
      new Column("GPUs", "gpus", r -> r.identity().topology().totalGpus(), -1),
      new Column("conc", "conc", AggregateRow::conc, -1),
      new Column("tput/GPU (tok/s)", "tput_per_gpu", AggregateRow::tputPerGpu, 1),
      new Column("output tput/GPU (tok/s)", "output_tput_per_gpu", AggregateRow::outputTputPerGpu, 1),
      new Column("mean TTFT (ms)", "mean_ttft_ms", r -> ms(r.metric("mean_ttft")), 1),
      new Column("p99 TTFT (ms)", "p99_ttft_ms", r -> ms(r.metric("p99_ttft")), 1),
      new Column("mean TPOT (ms)", "mean_tpot_ms", r -> ms(r.metric("mean_tpot")), 2),
      new Column("interactivity (tok/s/user)", "interactivity", Summary::interactivity, 1),
      new Column("mean E2EL (s)", "mean_e2el_s", r -> r.metric("mean_e2el"), 2));

  /**
   * Who answered: {@code SIMULATED infx-sim …} for the embedded simulator, else engine and version.
   * Shown only when some row carries provenance, so a table of reference rows is unchanged.
   */
  private static final Column SERVER = new Column("server", "server",
      r -> r.server().map(p -> p.simulated() ? "SIMULATED (" + p.engine() + " " + p.version() + ")"
          : (p.engine() + " " + p.version()).strip()).orElse(""), -1);

  /** The CSV column that says whether a row is simulated (with {@link #SERVER}). */
  private static final Column SIMULATED = new Column("simulated", "simulated",
      r -> r.server().map(p -> Boolean.toString(p.simulated())).orElse(""), -1);

  private final List<AggregateRow> rows;
  private final List<Column> columns;

  private Summary(List<AggregateRow> rows) {
    this.rows = rows;
    List<Column> cols = new ArrayList<>(COLUMNS);
    if (rows.stream().anyMatch(r -> r.server().isPresent())) {
      cols.add(1, SERVER);
    }
    this.columns = List.copyOf(cols);
  }

  /** Whether any row came from the embedded simulator. */
  public boolean anySimulated() {
    return rows.stream().anyMatch(AggregateRow::simulated);
  }

  /** Sort order of the table. */
  public static final Comparator<AggregateRow> ORDER = Comparator
      .comparing((AggregateRow r) -> r.identity().modelPrefix())
      .thenComparing(r -> r.identity().hw())
      .thenComparing(r -> r.identity().framework())
      .thenComparing(r -> r.identity().precision())
      .thenComparingInt(r -> r.identity().isl())
      .thenComparingInt(r -> r.identity().osl())
      .thenComparing(r -> Topologies.label(r.identity().topology()))
      .thenComparingInt(AggregateRow::conc);

  /** A summary of {@code rows} (copied, sorted by {@link #ORDER}). */
  public static Summary of(List<AggregateRow> rows) {
    List<AggregateRow> sorted = new ArrayList<>(rows);
    sorted.sort(ORDER);
    return new Summary(List.copyOf(sorted));
  }

  /** The rows, in table order. */
  public List<AggregateRow> rows() {
    return rows;
  }

  /** Interactivity of a row: {@code median_intvty}, else {@code mean_intvty}. */
  static OptionalDouble interactivity(AggregateRow r) {
    OptionalDouble median = r.metric("median_intvty");
    return median.isPresent() ? median : r.metric("mean_intvty");
  }

  private static OptionalDouble ms(OptionalDouble seconds) {
    return seconds.isPresent() ? OptionalDouble.of(seconds.getAsDouble() * 1000.0) : seconds;
  }

  /** A GitHub-flavoured Markdown table; missing metrics are shown as an em dash. */
  public String toMarkdown() {
    StringBuilder sb = new StringBuilder();
    sb.append('|');
    columns.forEach(c -> sb.append(' ').append(c.header()).append(" |"));
    sb.append("\n|");
    columns.forEach(c -> sb.append(c.decimals() >= 0 ? "---:|" : "---|"));
    sb.append('\n');
    for (AggregateRow r : rows) {
      sb.append('|');
      for (Column c : columns) {
        sb.append(' ').append(markdownCell(c.value().apply(r), c.decimals())).append(" |");
      }
      sb.append('\n');
    }
    if (anySimulated()) {
      sb.append("\nSIMULATED rows come from infx's embedded simulator, not from an inference engine "
          + "on the named hardware: their numbers are not measurements.\n");
    }
    return sb.toString();
  }

  /** CSV (RFC 4180) with full-precision numbers; missing metrics are empty cells. */
  public String toCsv() {
    StringBuilder sb = new StringBuilder();
    List<Column> csvColumns = new ArrayList<>(columns);
    if (columns.contains(SERVER)) {
      csvColumns.add(2, SIMULATED);
    }
    sb.append(String.join(",", csvColumns.stream().map(Column::csvHeader).toList())).append("\r\n");
    for (AggregateRow r : rows) {
      List<String> cells = new ArrayList<>();
      for (Column c : csvColumns) {
        cells.add(csvCell(c.value().apply(r)));
      }
      sb.append(String.join(",", cells)).append("\r\n");
    }
    return sb.toString();
  }

  static String markdownCell(Object v, int decimals) {
    if (v instanceof OptionalDouble o) {
      return o.isPresent() ? fixed(o.getAsDouble(), decimals) : "—";
    }
    if (v instanceof Double d) {
      return fixed(d, decimals);
    }
    return v.toString().replace("|", "\\|");
  }

  static String fixed(double d, int decimals) {
    return String.format(Locale.ROOT, "%,." + Math.max(decimals, 0) + "f", d);
  }

  static String csvCell(Object v) {
    String s;
    if (v instanceof OptionalDouble o) {
      s = o.isPresent() ? PythonJson.floatRepr(o.getAsDouble()) : "";
    } else if (v instanceof Double d) {
      s = PythonJson.floatRepr(d);
    } else {
      s = v.toString();
    }
    if (s.contains(",") || s.contains("\"") || s.contains("\n") || s.contains("\r")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
