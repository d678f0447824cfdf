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
 * <p>One statistic per metric, the one InferenceX publishes and {@code results compare} and the
 * HTML report show: medians (p50) of TTFT, TPOT and E2EL over the measured requests, p99 where a
 * tail is shown, and interactivity at the median TPOT ({@code median_intvty}, else
 * {@code mean_intvty}). Units: tput/GPU and output tput/GPU in tokens/s/GPU, TTFT and TPOT in ms,
 * E2EL in s, interactivity in tokens/s/user. A point measured several times shows the means of its
 * repetitions ({@link Repetitions}).
 *
 * <p>Formats: {@link #toTable(int, boolean)} for a terminal (grouped by configuration, fits a
 * width, optional ANSI colour), {@link #toMarkdown()}, {@link #toCsv()}, {@link #toJson()}.
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
      new Column("interactivity (tok/s/user)", "interactivity", Summary::interactivity, 1),
      new Column("median TTFT (ms)", "median_ttft_ms", r -> ms(r.metric("median_ttft")), 1),
      new Column("p99 TTFT (ms)", "p99_ttft_ms", r -> ms(r.metric("p99_ttft")), 1),
      new Column("median TPOT (ms)", "median_tpot_ms", r -> ms(r.metric("median_tpot")), 2),
      new Column("p99 TPOT (ms)", "p99_tpot_ms", r -> ms(r.metric("p99_tpot")), 2),
      new Column("median E2EL (s)", "median_e2el_s", r -> r.metric("median_e2el"), 2));

  /** What the tables' latency columns are, said once in every rendering that has room for it. */
  public static final String STATISTICS_NOTE = "Latencies: median (p50) and p99 over the measured requests, "
      + "as InferenceX publishes them; interactivity in tok/s/user at the median TPOT; tput in tok/s/GPU.";

  /**
   * A terminal column: header, unit line, value, decimals, and priority (columns of the highest
   * priority number are dropped first when the table does not fit).
   */
  private record TermColumn(String header, String unit, Function<AggregateRow, OptionalDouble> value,
      int decimals, int priority) {}

  private static final List<TermColumn> TERM_COLUMNS = List.of(
      new TermColumn("tput/GPU", "tok/s", r -> OptionalDouble.of(r.tputPerGpu()), 1, 0),
      new TermColumn("out/GPU", "tok/s", r -> OptionalDouble.of(r.outputTputPerGpu()), 1, 3),
      new TermColumn("intvty", "tok/s/u", Summary::interactivity, 1, 0),
      new TermColumn("TTFT p50", "ms", r -> ms(r.metric("median_ttft")), 1, 0),
      new TermColumn("TTFT p99", "ms", r -> ms(r.metric("p99_ttft")), 1, 2),
      new TermColumn("TPOT p50", "ms", r -> ms(r.metric("median_tpot")), 2, 0),
      new TermColumn("TPOT p99", "ms", r -> ms(r.metric("p99_tpot")), 2, 1),
      new TermColumn("E2EL p50", "s", r -> r.metric("median_e2el"), 2, 4));

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

  /**
   * A terminal table at most {@code width} columns wide: one block per serving configuration
   * (hardware · model · ISL/OSL · framework · precision · spec · topology) with a line per
   * concurrency; the least important columns (E2EL, output tput, p99s) are dropped when the table
   * would not fit. Points measured several times get a {@code ±95%} column: the half-width of the
   * 95 % confidence interval of tput/GPU, relative to its mean. {@code colour} adds ANSI bold/dim.
   */
  public String toTable(int width, boolean colour) {
    boolean repeats = rows.stream().anyMatch(r -> r.repetitions().isPresent());
    List<TermColumn> cols = new ArrayList<>(TERM_COLUMNS);
    if (repeats) {
      cols.add(1, new TermColumn("±95%", "tput", Summary::tputHalfWidth, 1, 0));
    }
    while (tableWidth(cols) > width && cols.stream().anyMatch(c -> c.priority() > 0)) {
      TermColumn drop = cols.stream().max(Comparator.comparingInt(TermColumn::priority)).orElseThrow();
      cols.remove(drop);
    }
    String bold = colour ? "\u001b[1m" : "";
    String dim = colour ? "\u001b[2m" : "";
    String reset = colour ? "\u001b[0m" : "";
    StringBuilder sb = new StringBuilder();
    sb.append(dim).append(wrap(STATISTICS_NOTE + (repeats
        ? " Repeated points: means of their repetitions; ±95% = confidence half-width of tput/GPU." : ""), width))
        .append(reset);
    String group = null;
    for (AggregateRow r : rows) {
      String g = groupLabel(r);
      if (!g.equals(group)) {
        group = g;
        sb.append('\n').append(bold).append(clip(g, width)).append(reset).append('\n');
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%5s", "conc"));
        StringBuilder u = new StringBuilder("     ");
        for (TermColumn c : cols) {
          int w = columnWidth(c);
          h.append(String.format(Locale.ROOT, " %" + w + "s", c.header()));
          u.append(String.format(Locale.ROOT, " %" + w + "s", c.unit()));
        }
        sb.append(h).append('\n').append(dim).append(u).append(reset).append('\n');
      }
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%5d", r.conc()));
      for (TermColumn c : cols) {
        OptionalDouble v = c.value().apply(r);
        String cell = v.isEmpty() ? "—" : c.header().startsWith("±")
            ? String.format(Locale.ROOT, "±%.1f%%", v.getAsDouble()) : fixed(v.getAsDouble(), c.decimals());
        line.append(String.format(Locale.ROOT, " %" + columnWidth(c) + "s", cell));
      }
      sb.append(line).append('\n');
    }
    if (anySimulated()) {
      sb.append('\n').append(wrap("SIMULATED blocks come from infx's embedded simulator, not from an inference "
          + "engine on the named hardware: their numbers are not measurements.", width));
    }
    return sb.toString();
  }

  /** Half-width of the 95 % interval of tput/GPU in percent of its mean, for repeated points. */
  private static OptionalDouble tputHalfWidth(AggregateRow r) {
    return r.repetitions().flatMap(x -> x.metric("tput_per_gpu"))
        .filter(s -> s.n() > 1 && s.mean() != 0)
        .map(s -> OptionalDouble.of(s.halfWidth() / s.mean() * 100)).orElse(OptionalDouble.empty());
  }

  private static String groupLabel(AggregateRow r) {
    RunIdentity id = r.identity();
    int gpus = id.topology().totalGpus();
    String label = String.join(" · ", id.hw(), id.modelPrefix(), id.isl() + "/" + id.osl(), id.framework(),
        id.precision(), Topologies.label(id.topology()) + " (" + gpus + " GPU" + (gpus == 1 ? "" : "s") + ")");
    label = id.specDecoding().equals("none") ? label : label + " · spec " + id.specDecoding();
    // who answered goes first, so clipping a long label never hides it
    return r.server().map(p -> (p.simulated() ? "SIMULATED " + p.engine() : (p.engine() + " " + p.version()).strip())
        + " · ").orElse("") + label;
  }

  private static int columnWidth(TermColumn c) {
    return Math.max(9, Math.max(c.header().length(), c.unit().length()));
  }

  private static int tableWidth(List<TermColumn> cols) {
    return 5 + cols.stream().mapToInt(c -> 1 + columnWidth(c)).sum();
  }

  private static String clip(String s, int width) {
    return s.length() <= width ? s : s.substring(0, Math.max(1, width - 1)) + "…";
  }

  private static String wrap(String text, int width) {
    StringBuilder out = new StringBuilder();
    int col = 0;
    for (String word : text.split(" ")) {
      if (col > 0 && col + 1 + word.length() > width) {
        out.append('\n');
        col = 0;
      } else if (col > 0) {
        out.append(' ');
        col++;
      }
      out.append(word);
      col += word.length();
    }
    return out.append('\n').toString();
  }

  /**
   * The rows as a JSON array of objects keyed by the CSV headers (numbers in their units, missing
   * metrics null), plus {@code repeats} ({@code n}, tput/GPU confidence interval) for repeated points.
   */
  public com.fasterxml.jackson.databind.node.ArrayNode toJson() {
    com.fasterxml.jackson.databind.node.ArrayNode a = io.infx.core.json.Json.mapper().createArrayNode();
    for (AggregateRow r : rows) {
      com.fasterxml.jackson.databind.node.ObjectNode o = a.addObject();
      for (Column c : columns) {
        Object v = c.value().apply(r);
        if (v instanceof OptionalDouble d) {
          if (d.isPresent()) {
            o.put(c.csvHeader(), d.getAsDouble());
          } else {
            o.putNull(c.csvHeader());
          }
        } else if (v instanceof Double d) {
          o.put(c.csvHeader(), d);
        } else if (v instanceof Integer i) {
          o.put(c.csvHeader(), i);
        } else {
          o.put(c.csvHeader(), v.toString());
        }
      }
      r.repetitions().ifPresent(rep -> {
        com.fasterxml.jackson.databind.node.ObjectNode x = o.putObject("repeats");
        x.put("n", rep.n());
        rep.metric("tput_per_gpu").ifPresent(t -> {
          x.put("tput_per_gpu_ci_low", t.ciLow());
          x.put("tput_per_gpu_ci_high", t.ciHigh());
          x.put("tput_per_gpu_cv", t.cv());
        });
      });
    }
    return a;
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
