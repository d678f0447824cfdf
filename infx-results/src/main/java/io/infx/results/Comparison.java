package io.infx.results;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Compares a candidate run with a baseline run point by point (reference
 * {@code utils/compare_results.py}, which compares a pull request's results with the newest
 * {@code main} results): rows are matched by hardware (runner suffixes {@code -multinode},
 * {@code -trt}, {@code -disagg} removed), model prefix, framework, precision, spec decoding,
 * disagg, topology, ISL, OSL and concurrency; for each matched point the deltas
 * ({@code candidate − baseline}) and ratios ({@code candidate / baseline}) of the published metrics
 * are computed.
 *
 * <p>Comparability lint: before ranking, the workload settings of both raw results (next to the
 * aggregates, {@code agg_<name>.json} → {@code <name>.json}) are compared; a pair whose settings
 * differ (backend, ignore_eos, range ratio, warmups, token-count source, …) is reported as not
 * comparable and gets no deltas. Pairs whose raw files or infx extensions are missing are compared
 * but marked unverified.
 */
public final class Comparison {

  /** Which direction of change is an improvement. */
  public enum Direction { HIGHER_IS_BETTER, LOWER_IS_BETTER }

  /**
   * A compared metric: its aggregate key, table label, unit scale and direction. Values are in the
   * aggregate's units (latencies in seconds, as {@code agg_*.json} stores them); {@code value × scale}
   * is in the unit the label names (e.g. {@code median TTFT (ms)}: scale 1000).
   */
  public record Metric(String key, String label, double scale, Direction direction) {}

  private static final Pattern HW_SUFFIX = Pattern.compile("-(multinode|trt|disagg)$");

  /** The reference's comparison metrics: throughput, TTFT (ms), interactivity, E2EL (s). */
  public static final List<Metric> METRICS = List.of(
      new Metric("tput_per_gpu", "tput/GPU", 1, Direction.HIGHER_IS_BETTER),
      new Metric("output_tput_per_gpu", "output tput/GPU", 1, Direction.HIGHER_IS_BETTER),
      new Metric("median_ttft", "median TTFT (ms)", 1000, Direction.LOWER_IS_BETTER),
      new Metric("p90_ttft", "p90 TTFT (ms)", 1000, Direction.LOWER_IS_BETTER),
      new Metric("p99_ttft", "p99 TTFT (ms)", 1000, Direction.LOWER_IS_BETTER),
      new Metric("p99.9_ttft", "p99.9 TTFT (ms)", 1000, Direction.LOWER_IS_BETTER),
      new Metric("median_tpot", "median TPOT (ms)", 1000, Direction.LOWER_IS_BETTER),
      new Metric("p99_tpot", "p99 TPOT (ms)", 1000, Direction.LOWER_IS_BETTER),
      new Metric("median_intvty", "median intvty", 1, Direction.HIGHER_IS_BETTER),
      new Metric("p90_intvty", "p90 intvty", 1, Direction.HIGHER_IS_BETTER),
      new Metric("p99_intvty", "p99 intvty", 1, Direction.HIGHER_IS_BETTER),
      new Metric("p99.9_intvty", "p99.9 intvty", 1, Direction.HIGHER_IS_BETTER),
      new Metric("median_e2el", "median E2EL (s)", 1, Direction.LOWER_IS_BETTER),
      new Metric("p90_e2el", "p90 E2EL (s)", 1, Direction.LOWER_IS_BETTER),
      new Metric("p99_e2el", "p99 E2EL (s)", 1, Direction.LOWER_IS_BETTER),
      new Metric("p99.9_e2el", "p99.9 E2EL (s)", 1, Direction.LOWER_IS_BETTER));

  /** Metrics shown in the Markdown table unless others are asked for. */
  public static final List<String> DEFAULT_TABLE_METRICS = List.of(
      "tput_per_gpu", "output_tput_per_gpu", "median_ttft", "p99_ttft", "median_tpot", "median_intvty",
      "median_e2el");

  /**
   * How one metric moved. {@code baseline}, {@code candidate} and {@link #delta()} are in the
   * aggregate's units (seconds for latencies); multiply by {@code metric().scale()} for the unit in
   * {@code metric().label()}.
   */
  public record Delta(Metric metric, OptionalDouble baseline, OptionalDouble candidate) {

    /** {@code candidate − baseline}, when both exist. */
    public OptionalDouble delta() {
      return both() ? OptionalDouble.of(candidate.getAsDouble() - baseline.getAsDouble())
          : OptionalDouble.empty();
    }

    /** {@code candidate / baseline}, when both exist and the baseline is not 0. */
    public OptionalDouble ratio() {
      return both() && baseline.getAsDouble() != 0
          ? OptionalDouble.of(candidate.getAsDouble() / baseline.getAsDouble())
          : OptionalDouble.empty();
    }

    /** +1 better, −1 worse, 0 unchanged or unknown. */
    public int verdict() {
      OptionalDouble d = delta();
      if (d.isEmpty() || d.getAsDouble() == 0) {
        return 0;
      }
      int sign = d.getAsDouble() > 0 ? 1 : -1;
      return metric.direction() == Direction.HIGHER_IS_BETTER ? sign : -sign;
    }

    private boolean both() {
      return baseline.isPresent() && candidate.isPresent();
    }
  }

  /** Whether a pair may be ranked. */
  public enum Status { COMPARABLE, UNVERIFIED, NOT_COMPARABLE }

  /**
   * The lint verdict of a pair.
   *
   * @param reasons why the pair is not comparable or unverified
   * @param notes informational differences (another seed or prompt sample) that do not block
   * @param conditions measurement conditions that differ ({@link RunConditions}: host load, client
   *     overhead): the pair is ranked, but its changes may be the host's, not the server's
   */
  public record Comparability(Status status, List<String> reasons, List<String> notes, List<String> conditions) {

    public Comparability(Status status, List<String> reasons, List<String> notes) {
      this(status, reasons, notes, List.of());
    }

    Comparability withConditions(List<String> c) {
      return new Comparability(status, reasons, notes, List.copyOf(c));
    }
  }

  /**
   * A matched point. Deltas (one per {@link #METRICS} entry, aggregate units) are empty when the
   * pair is not comparable.
   */
  public record Pair(
      String key, AggregateRows.Sourced baseline, AggregateRows.Sourced candidate,
      Comparability comparability, List<Delta> deltas) {

    /**
     * The {@link ChangeJudgement} of one metric over the repetitions of both sides; empty when the
     * pair is not comparable or a side lacks the metric.
     *
     * @param maxRegression tolerated change in the bad direction, as a fraction (0.05 = 5 %)
     */
    public Optional<ChangeJudgement> judge(Metric m, double maxRegression, double confidence) {
      if (comparability.status() == Status.NOT_COMPARABLE) {
        return Optional.empty();
      }
      List<Double> a = samples(baseline.row(), m);
      List<Double> b = samples(candidate.row(), m);
      if (a.isEmpty() || b.isEmpty() || a.stream().mapToDouble(Double::doubleValue).sum() == 0) {
        return Optional.empty();
      }
      return Optional.of(ChangeJudgement.judge(m, a, b, maxRegression, confidence));
    }
  }

  /**
   * A row's samples of a metric: the values of its repetitions ({@link AggregateRow#repetitions()}),
   * else its one value, else none.
   */
  public static List<Double> samples(AggregateRow r, Metric m) {
    Optional<RepeatStatistics> reps = r.repetitions().flatMap(x -> x.metric(m.key()));
    if (reps.isPresent()) {
      return reps.get().values();
    }
    OptionalDouble v = value(r, m);
    return v.isPresent() ? List.of(v.getAsDouble()) : List.of();
  }

  /**
   * A row that could not be paired.
   *
   * @param side {@code baseline} or {@code candidate}
   */
  public record Unpaired(String key, String side, String source, String reason) {}

  private final List<Pair> pairs;
  private final List<Unpaired> unpaired;

  private Comparison(List<Pair> pairs, List<Unpaired> unpaired) {
    this.pairs = pairs;
    this.unpaired = unpaired;
  }

  /** Matched points, in {@link Summary#ORDER} of the candidate rows. */
  public List<Pair> pairs() {
    return pairs;
  }

  /** Rows without a partner, and every row of a point that several rows of one side share. */
  public List<Unpaired> unpaired() {
    return unpaired;
  }

  /** The matching key of a row (see the class comment). */
  public static String key(AggregateRow r) {
    RunIdentity id = r.identity();
    String hw = HW_SUFFIX.matcher(id.hw()).replaceFirst("").toLowerCase(Locale.ROOT);
    return String.join(" ", hw, id.modelPrefix().toLowerCase(Locale.ROOT),
        id.framework().toLowerCase(Locale.ROOT), id.precision().toLowerCase(Locale.ROOT),
        "spec-" + id.specDecoding().toLowerCase(Locale.ROOT), id.disagg() ? "disagg" : "agg",
        Topologies.label(id.topology()), id.topology().totalGpus() + "gpu",
        id.isl() + "/" + id.osl(), "conc" + r.conc());
  }

  /**
   * Pairs the rows of two runs and lints their workload settings.
   *
   * @param settings reads the workload settings of a row's raw result (e.g.
   *     {@link #settingsBeside(AggregateRows.Sourced)}); empty when unknown
   */
  public static Comparison of(List<AggregateRows.Sourced> baseline, List<AggregateRows.Sourced> candidate,
      Function<AggregateRows.Sourced, Optional<WorkloadSettings>> settings) {
    return of(baseline, candidate, settings, false);
  }

  /**
   * As {@link #of(List, List, Function)}; a pair whose one side the embedded simulator produced
   * and whose other side it did not ({@link AggregateRow#simulated()}) is {@link
   * Status#NOT_COMPARABLE} unless {@code allowSimulatedVsReal} (then it is ranked, with a note):
   * simulated numbers must never be read as a hardware regression or win.
   */
  public static Comparison of(List<AggregateRows.Sourced> baseline, List<AggregateRows.Sourced> candidate,
      Function<AggregateRows.Sourced, Optional<WorkloadSettings>> settings, boolean allowSimulatedVsReal) {
    List<Unpaired> unpaired = new ArrayList<>();
    Map<String, AggregateRows.Sourced> a = index(baseline, "baseline", unpaired);
    Map<String, AggregateRows.Sourced> b = index(candidate, "candidate", unpaired);
    List<Pair> pairs = new ArrayList<>();
    for (Map.Entry<String, AggregateRows.Sourced> e : a.entrySet()) {
      AggregateRows.Sourced other = b.get(e.getKey());
      if (other == null) {
        unpaired.add(new Unpaired(e.getKey(), "baseline", e.getValue().source(), "no candidate row"));
        continue;
      }
      Comparability c = lint(settings.apply(e.getValue()), settings.apply(other));
      c = provenance(c, e.getValue().row(), other.row(), allowSimulatedVsReal);
      Optional<RunConditions> ca = conditionsBeside(e.getValue());
      Optional<RunConditions> cb = conditionsBeside(other);
      if (ca.isPresent() && cb.isPresent()) {
        c = c.withConditions(ca.get().differences(cb.get()));
      }
      List<Delta> deltas = new ArrayList<>();
      if (c.status() != Status.NOT_COMPARABLE) {
        for (Metric m : METRICS) {
          deltas.add(new Delta(m, value(e.getValue().row(), m), value(other.row(), m)));
        }
      }
      pairs.add(new Pair(e.getKey(), e.getValue(), other, c, deltas));
    }
    for (Map.Entry<String, AggregateRows.Sourced> e : b.entrySet()) {
      if (!a.containsKey(e.getKey())) {
        unpaired.add(new Unpaired(e.getKey(), "candidate", e.getValue().source(), "no baseline row"));
      }
    }
    pairs.sort((x, y) -> Summary.ORDER.compare(x.candidate().row(), y.candidate().row()));
    return new Comparison(List.copyOf(pairs), List.copyOf(unpaired));
  }

  /** Settings of the raw result beside an {@code agg_<name>.json}, if both exist. */
  public static Optional<WorkloadSettings> settingsBeside(AggregateRows.Sourced row) {
    if (row.source().contains("#")) {
      return Optional.empty();
    }
    return AggregateRows.rawBeside(row.file()).flatMap(WorkloadSettings::read);
  }

  /** Measurement conditions recorded in the raw result beside an {@code agg_<name>.json}, if any. */
  public static Optional<RunConditions> conditionsBeside(AggregateRows.Sourced row) {
    if (row.source().contains("#")) {
      return Optional.empty();
    }
    return AggregateRows.rawBeside(row.file()).flatMap(RunConditions::read);
  }

  /** Simulated vs real: not comparable unless allowed (then a note). */
  static Comparability provenance(Comparability c, AggregateRow baseline, AggregateRow candidate, boolean allow) {
    if (baseline.simulated() == candidate.simulated()) {
      return c;
    }
    String why = "baseline is " + describe(baseline) + ", candidate is " + describe(candidate);
    if (!allow) {
      List<String> reasons = new ArrayList<>(c.reasons());
      reasons.add(0, "simulated vs real: " + why + " (pass --allow-simulated to compare anyway)");
      return new Comparability(Status.NOT_COMPARABLE, List.copyOf(reasons), c.notes());
    }
    List<String> notes = new ArrayList<>(c.notes());
    notes.add("SIMULATED vs real (allowed): " + why);
    return new Comparability(c.status(), c.reasons(), List.copyOf(notes));
  }

  private static String describe(AggregateRow r) {
    return r.server().map(p -> (p.simulated() ? "SIMULATED " : "") + p.engine()
        + (p.version().isEmpty() ? "" : " " + p.version())).orElse("a result without server provenance");
  }

  static Comparability lint(Optional<WorkloadSettings> a, Optional<WorkloadSettings> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return new Comparability(Status.UNVERIFIED, List.of(
          "raw result not found beside the " + (a.isEmpty() ? "baseline" : "candidate")
              + " aggregate; workload settings unknown"), List.of());
    }
    List<String> diffs = a.get().differences(b.get());
    List<String> notes = a.get().notes(b.get());
    if (!diffs.isEmpty()) {
      return new Comparability(Status.NOT_COMPARABLE, diffs, notes);
    }
    if (!a.get().hasExtension() || !b.get().hasExtension()) {
      return new Comparability(Status.UNVERIFIED, List.of(
          "no infx extension in the " + (a.get().hasExtension() ? "candidate" : "baseline")
              + " raw result; only the backend was checked"), notes);
    }
    return new Comparability(Status.COMPARABLE, List.of(), notes);
  }

  private static Map<String, AggregateRows.Sourced> index(
      List<AggregateRows.Sourced> rows, String side, List<Unpaired> unpaired) {
    Map<String, AggregateRows.Sourced> out = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (AggregateRows.Sourced r : rows) {
      counts.merge(key(r.row()), 1, Integer::sum);
    }
    for (AggregateRows.Sourced r : rows) {
      String k = key(r.row());
      if (counts.get(k) > 1) {
        unpaired.add(new Unpaired(k, side, r.source(),
            counts.get(k) + " " + side + " rows share this point; refusing to guess which to compare"));
      } else {
        out.put(k, r);
      }
    }
    return out;
  }

  private static OptionalDouble value(AggregateRow r, Metric m) {
    return switch (m.key()) {
      case "tput_per_gpu" -> OptionalDouble.of(r.tputPerGpu());
      case "output_tput_per_gpu" -> OptionalDouble.of(r.outputTputPerGpu());
      case "input_tput_per_gpu" -> OptionalDouble.of(r.inputTputPerGpu());
      default -> r.metric(m.key());
    };
  }

  /** The metric definitions for the given keys, in the order given. */
  public static List<Metric> metrics(List<String> keys) {
    List<Metric> out = new ArrayList<>();
    for (String k : keys) {
      out.add(METRICS.stream().filter(m -> m.key().equals(k)).findFirst().orElseThrow(() ->
          new IllegalArgumentException("unknown metric '" + k + "'; known: "
              + METRICS.stream().map(Metric::key).toList())));
    }
    return out;
  }

  /** Markdown: comparable/unverified points with deltas, then points that may not be ranked. */
  public String toMarkdown(List<Metric> shown) {
    StringBuilder sb = new StringBuilder();
    sb.append("## Comparison: candidate vs baseline\n\n");
    sb.append("| model | hardware | framework | precision | ISL/OSL | topology | conc | lint |");
    shown.forEach(m -> sb.append(' ').append(m.label()).append(" |"));
    sb.append("\n|---|---|---|---|---|---|---:|---|");
    shown.forEach(m -> sb.append("---:|"));
    sb.append('\n');
    List<Pair> blocked = new ArrayList<>();
    for (Pair p : pairs) {
      if (p.comparability().status() == Status.NOT_COMPARABLE) {
        blocked.add(p);
        continue;
      }
      sb.append(keyCells(p.candidate().row()))
          .append(p.comparability().status() == Status.COMPARABLE ? "ok" : "unverified");
      if (!p.comparability().conditions().isEmpty()) {
        sb.append(" ⚠ ").append(String.join("; ", p.comparability().conditions()));
      }
      sb.append(" |");
      for (Metric m : shown) {
        Delta d = p.deltas().stream().filter(x -> x.metric().equals(m)).findFirst().orElseThrow();
        sb.append(' ').append(cell(d, p.judge(m, ChangeJudgement.NO_THRESHOLD, ChangeJudgement.CONFIDENCE)))
            .append(" |");
      }
      sb.append('\n');
    }
    sb.append("\nLint: ok = same workload settings; ⚠ = measured under different host load or client ")
        .append("overhead (see the raw results' infx.client), changes may be the host's.\n");
    sb.append("\nCells: candidate value (change vs baseline; ▲ better, ▼ worse, ~ inside the noise band: ")
        .append("the 95% bootstrap interval of the ratio over the runs' repetitions includes no change; ")
        .append("points measured once have no noise band, so their sign is shown unjudged — run with --repeat N). ")
        .append("Throughput in tok/s/GPU, interactivity in tok/s/user.\n");
    if (pairs.stream().anyMatch(p -> p.baseline().row().simulated() || p.candidate().row().simulated())) {
      sb.append("\nSIMULATED rows come from infx's embedded simulator: not measurements of the named "
          + "hardware.\n");
    }
    if (!blocked.isEmpty()) {
      sb.append("\n## Not comparable (workload settings or provenance differ; not ranked)\n\n")
          .append("| model | hardware | framework | precision | ISL/OSL | topology | conc | differences |\n")
          .append("|---|---|---|---|---|---|---:|---|\n");
      for (Pair p : blocked) {
        sb.append(keyCells(p.candidate().row()))
            .append(String.join("; ", p.comparability().reasons()).replace("|", "\\|")).append(" |\n");
      }
    }
    if (!unpaired.isEmpty()) {
      sb.append("\n## Unmatched\n\n| side | source | reason |\n|---|---|---|\n");
      for (Unpaired u : unpaired) {
        sb.append("| ").append(u.side()).append(" | ").append(u.source()).append(" | ")
            .append(u.reason()).append(" |\n");
      }
    }
    return sb.toString();
  }

  private static String keyCells(AggregateRow r) {
    RunIdentity id = r.identity();
    return "| " + id.modelPrefix() + " | " + id.hw() + (r.simulated() ? " (SIMULATED)" : "") + " | "
        + id.framework() + " | "
        + id.precision() + " | " + id.isl() + "/" + id.osl() + " | "
        + Topologies.label(id.topology()) + " | " + r.conc() + " | ";
  }

  private static String cell(Delta d, Optional<ChangeJudgement> j) {
    if (d.candidate().isEmpty()) {
      return "—";
    }
    double scale = d.metric().scale();
    String value = Summary.fixed(d.candidate().getAsDouble() * scale, 2);
    OptionalDouble ratio = d.ratio();
    if (d.baseline().isEmpty()) {
      return value + " (no baseline)";
    }
    if (ratio.isEmpty()) {
      return value + " (baseline 0)";
    }
    double pct = (ratio.getAsDouble() - 1) * 100;
    String mark = d.verdict() > 0 ? " ▲" : d.verdict() < 0 ? " ▼" : "";
    if (j.isPresent() && j.get().measured()) {
      mark = j.get().verdict() == ChangeJudgement.Verdict.NO_CHANGE ? " ~"
          : j.get().verdict() == ChangeJudgement.Verdict.BETTER ? " ▲" : " ▼";
    }
    return value + " (" + String.format(Locale.ROOT, "%+.1f%%", pct) + mark + ")";
  }

  /** Every pair with every metric: baseline, candidate, delta, ratio, verdict. */
  public ObjectNode toJson() {
    ObjectNode root = Json.mapper().createObjectNode();
    ArrayNode ps = root.putArray("pairs");
    for (Pair p : pairs) {
      ObjectNode o = ps.addObject();
      o.put("key", p.key());
      o.put("baseline", p.baseline().source());
      o.put("candidate", p.candidate().source());
      o.put("comparability", p.comparability().status().name().toLowerCase(Locale.ROOT));
      o.put("baseline_simulated", p.baseline().row().simulated());
      o.put("candidate_simulated", p.candidate().row().simulated());
      ArrayNode reasons = o.putArray("reasons");
      p.comparability().reasons().forEach(reasons::add);
      ArrayNode notes = o.putArray("notes");
      p.comparability().notes().forEach(notes::add);
      if (!p.comparability().conditions().isEmpty()) {
        ArrayNode cond = o.putArray("conditions");
        p.comparability().conditions().forEach(cond::add);
      }
      ObjectNode metrics = o.putObject("metrics");
      for (Delta d : p.deltas()) {
        ObjectNode m = metrics.putObject(d.metric().key());
        put(m, "baseline", d.baseline());
        put(m, "candidate", d.candidate());
        put(m, "delta", d.delta());
        put(m, "ratio", d.ratio());
        m.put("verdict", d.verdict() > 0 ? "better" : d.verdict() < 0 ? "worse" : "same");
        p.judge(d.metric(), ChangeJudgement.NO_THRESHOLD, ChangeJudgement.CONFIDENCE).filter(ChangeJudgement::measured)
            .ifPresent(j -> {
              m.put("significance", j.verdict() == ChangeJudgement.Verdict.NO_CHANGE ? "noise"
                  : "significant");
              m.put("noise_band_low", j.bandLow());
              m.put("noise_band_high", j.bandHigh());
            });
      }
    }
    ArrayNode un = root.putArray("unmatched");
    for (Unpaired u : unpaired) {
      ObjectNode o = un.addObject();
      o.put("side", u.side());
      o.put("source", u.source());
      o.put("key", u.key());
      o.put("reason", u.reason());
    }
    return root;
  }

  /** JSON text as Python would write it (indent 2). */
  public String toJsonText() {
    return PythonJson.dumps(toJson(), 2);
  }

  private static void put(ObjectNode o, String k, OptionalDouble v) {
    if (v.isPresent()) {
      o.put(k, v.getAsDouble());
    } else {
      o.putNull(k);
    }
  }
}
