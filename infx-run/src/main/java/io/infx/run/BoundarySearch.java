package io.infx.run;

import io.infx.results.ChangeJudgement;
import io.infx.results.Slo;
import io.infx.results.SloTerm;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * Finds the largest load on a {@link LoadGrid} that meets every term of an {@link Slo} — the
 * algorithm behind {@code infx search}, independent of how a load is measured ({@link Measurer}),
 * so it runs as well on a server as on a response model in a test.
 *
 * <h2>The SLO ratio</h2>
 * Each term turns its statistic into a ratio to its bound ({@link SloTerm#ratio}: value / bound
 * for latencies, bound / value for interactivity and goodput), below 1 inside the bound; a load's
 * ratio is the largest of its terms'. A search assumes the ratio grows with the load and says so
 * when the measurements disagree (see "Anomalies").
 *
 * <h2>Verdict of one probe, and repeats</h2>
 * A load is measured once. A term whose ratio is within the noise band of 1 ({@link
 * Settings#noiseBand()}, default ±5 %: the prior run-to-run noise) is <em>near</em> its bound and
 * the load is measured again, up to {@link Settings#maxRepeats()} times in all. From two
 * repetitions on, a term is decided when the gate's noise band of its repetitions against the bound
 * ({@link ChangeJudgement#bandAgainst}: percentile bootstrap of mean / bound − 1, 95 %) excludes 0,
 * or its mean is outside the prior band. The load <b>fails</b> when a term is decided outside its
 * bound, <b>passes</b> when every term is decided inside, and is <b>undecided</b> when a term is still
 * near after the last repetition. A point that failed to run (the client's failure gate, a timeout)
 * fails. Undecided loads count as not passing: the result never claims a load the measurements
 * cannot tell from its bound.
 *
 * <h2>Search (strategy {@link Strategy#BRACKET})</h2>
 * <ol>
 *   <li><b>Bracketing</b>, upwards from the grid's first load: after each pass the next load is the
 *       first grid load at or above the predicted crossing of ratio 1 — extrapolated through the
 *       last two passes, or proportionally ({@code load / ratio}) after the first — but at least one
 *       step and at most {@link Settings#growth()} times (default 4) the last pass; a flat or falling
 *       ratio grows by that factor. The first load that does not pass closes the bracket.
 *   <li><b>Interpolation</b> inside the bracket [last pass, first non-pass]: the next load is the
 *       largest grid load at or below the linear interpolation of the ratio's crossing between the
 *       bracket's ends (regula falsi), kept strictly inside; when the previous such step did not
 *       halve the bracket, or the ratio does not grow across it, the middle is probed instead
 *       (bisection), so the bracket shrinks at least as fast as bisection every second step.
 * </ol>
 * <b>Stopping rule</b>: the search stops when the last pass and the first non-pass are neighbours
 * on the grid (converged: the boundary is known to one step), when the first load does not pass,
 * when the last load passes (the bound holds on the whole grid), or when {@link
 * Settings#maxProbes()} loads (default 8; repetitions of one load count once) have been measured —
 * the result is then the bracket reached. No load is measured twice.
 *
 * <p>Strategy {@link Strategy#DENSE} measures every load of the grid once, in order (the brute-force
 * reference a search is checked against); its verdicts come from one measurement each.
 *
 * <h2>Result</h2>
 * The best load is the largest pass below the first load that does not pass; the bracket is
 * [best, first non-pass].
 *
 * <h2>Anomalies (reported, never hidden)</h2>
 * <ul>
 *   <li><b>non-monotone</b>: a load passes above one that failed, or a term's ratio falls by more than
 *       the noise band (in units of its bound) from a lower load to a higher one;
 *   <li><b>cliff</b>: at a converged boundary the ratio jumps by {@link Settings#cliffFactor()}
 *       (default 2×) or more across the one step;
 *   <li><b>undecided</b>: a load whose verdict the repetitions could not decide;
 *   <li><b>failed</b>: a load whose point failed to run.
 * </ul>
 */
public final class BoundarySearch {

  private BoundarySearch() {}

  /** How loads are chosen. */
  public enum Strategy {
    /** Bracketing, then safeguarded interpolation (the default). */
    BRACKET,
    /** Every load of the grid once, in order. */
    DENSE
  }

  /**
   * The search's knobs.
   *
   * @param strategy how loads are chosen
   * @param maxProbes most loads measured (≥ 2; repetitions of a load count once); ignored by DENSE
   * @param maxRepeats most measurements of one load (≥ 1)
   * @param noiseBand the prior run-to-run noise as a fraction (0.05 = ±5 %): a term this close to its
   *     bound is repeated; also the tolerance of the non-monotone check, in units of the bound
   * @param confidence level of the repetitions' noise band, in (0, 1)
   * @param growth largest factor between consecutive bracketing loads, &gt; 1
   * @param cliffFactor ratio jump across one step at the boundary that counts as a cliff, &gt; 1
   */
  public record Settings(Strategy strategy, int maxProbes, int maxRepeats, double noiseBand, double confidence,
      double growth, double cliffFactor) {

    public Settings {
      Objects.requireNonNull(strategy, "strategy");
      if (maxProbes < 2) {
        throw new IllegalArgumentException("maxProbes must be at least 2 (the first load and one more), got " + maxProbes);
      }
      if (maxRepeats < 1) {
        throw new IllegalArgumentException("maxRepeats must be at least 1, got " + maxRepeats);
      }
      if (!(noiseBand >= 0 && noiseBand < 1)) {
        throw new IllegalArgumentException("noiseBand must be in [0, 1), got " + noiseBand);
      }
      if (!(confidence > 0 && confidence < 1)) {
        throw new IllegalArgumentException("confidence must be in (0, 1), got " + confidence);
      }
      if (!(growth > 1) || !(cliffFactor > 1)) {
        throw new IllegalArgumentException("growth and cliffFactor must be > 1, got " + growth + " and " + cliffFactor);
      }
    }

    /** BRACKET, 8 probes, 3 measurements per load, ±5 % noise, 95 %, growth 4, cliff 2×. */
    public static Settings defaults() {
      return new Settings(Strategy.BRACKET, 8, 3, 0.05, ChangeJudgement.CONFIDENCE, 4, 2);
    }

    public Settings withStrategy(Strategy s) {
      return new Settings(s, maxProbes, maxRepeats, noiseBand, confidence, growth, cliffFactor);
    }

    public Settings withMaxProbes(int n) {
      return new Settings(strategy, n, maxRepeats, noiseBand, confidence, growth, cliffFactor);
    }

    public Settings withMaxRepeats(int n) {
      return new Settings(strategy, maxProbes, n, noiseBand, confidence, growth, cliffFactor);
    }

    public Settings withNoiseBand(double f) {
      return new Settings(strategy, maxProbes, maxRepeats, f, confidence, growth, cliffFactor);
    }
  }

  /** Measures one load. */
  @FunctionalInterface
  public interface Measurer {
    /**
     * Measures {@code load} (grid index {@code index}) so that at least {@code repetitions}
     * repetitions exist, and returns all of them (an implementation that keeps earlier
     * measurements, e.g. on disk, measures only the missing ones and may return more).
     *
     * @throws Exception when the load cannot be measured at all (the search stops and rethrows)
     */
    Measurement measure(int index, double load, int repetitions) throws Exception;
  }

  /**
   * What measuring a load gave.
   *
   * @param samples per {@link SloTerm#key()}, one value per repetition, aggregate units
   * @param failure why the point failed to run, when it did (then {@code samples} may be empty)
   * @param tputPerGpu throughput per GPU at this load (mean over repetitions), tok/s/GPU; NaN if unknown
   * @param interactivity median interactivity (mean over repetitions), tok/s/user; NaN if unknown
   * @param point the point that measured it (its {@code RESULT_FILENAME}), for the record
   * @param measuredBefore how many of the repetitions were measured by an earlier run ({@code --resume})
   */
  public record Measurement(Map<String, List<Double>> samples, Optional<String> failure, double tputPerGpu,
      double interactivity, String point, int measuredBefore) {

    public Measurement {
      Map<String, List<Double>> copy = new LinkedHashMap<>();
      samples.forEach((k, v) -> copy.put(k, List.copyOf(v)));
      samples = Collections.unmodifiableMap(copy);
      Objects.requireNonNull(failure, "failure");
      Objects.requireNonNull(point, "point");
    }

    /** A measurement of values only (tests, response models). */
    public static Measurement of(Map<String, List<Double>> samples) {
      return new Measurement(samples, Optional.empty(), Double.NaN, Double.NaN, "", 0);
    }

    /** A load whose point failed to run. */
    public static Measurement failed(String why, String point) {
      return new Measurement(Map.of(), Optional.of(why), Double.NaN, Double.NaN, point, 0);
    }

    /** How many repetitions the samples hold (the fewest over the keys; 1 for a failure). */
    public int repetitions() {
      return samples.values().stream().mapToInt(List::size).min().orElse(1);
    }
  }

  /** A load's verdict. */
  public enum Verdict { PASS, FAIL, UNDECIDED }

  /**
   * One term at one load.
   *
   * @param term the SLO term
   * @param samples its values, one per repetition (aggregate units)
   * @param mean their mean
   * @param ratio {@link SloTerm#ratio} of the mean
   * @param bandLow low end of the repetitions' noise band (mean / bound − 1), NaN with one repetition
   * @param bandHigh high end, NaN with one repetition
   * @param verdict this term's verdict
   */
  public record TermReading(SloTerm term, List<Double> samples, double mean, double ratio, double bandLow,
      double bandHigh, Verdict verdict) {
    public TermReading {
      samples = List.copyOf(samples);
    }
  }

  /**
   * One measured load.
   *
   * @param order 1 for the first load measured, 2 for the next, …
   * @param index its grid index
   * @param load the load
   * @param verdict pass, fail or undecided
   * @param readings per term (empty when the point failed)
   * @param repetitions how many measurements the verdict rests on
   * @param failure why the point failed to run, if it did
   * @param measurement what the measurer returned
   */
  public record Probe(int order, int index, double load, Verdict verdict, List<TermReading> readings,
      int repetitions, Optional<String> failure, Measurement measurement) {

    public Probe {
      readings = List.copyOf(readings);
    }

    /** The load's SLO ratio: the largest of its terms' (+∞ for a failed point). */
    public double ratio() {
      return failure.isPresent() ? Double.POSITIVE_INFINITY
          : readings.stream().mapToDouble(TermReading::ratio).max().orElse(Double.NaN);
    }

    /** The term with the largest ratio (the one that binds), if any. */
    public Optional<TermReading> binding() {
      return readings.stream().max(Comparator.comparingDouble(TermReading::ratio));
    }

    public boolean passed() {
      return verdict == Verdict.PASS;
    }
  }

  /** Why a search stopped. */
  public enum Stop {
    /** The last pass and the first non-pass are neighbours on the grid. */
    CONVERGED,
    /** The grid's last load passes: the SLO holds everywhere searched. */
    CAPPED,
    /** The grid's first load does not pass: nothing searched meets the SLO. */
    NONE_PASS,
    /** {@link Settings#maxProbes()} loads were measured before the bracket closed. */
    BUDGET,
    /** Every load of the grid was measured ({@link Strategy#DENSE}). */
    EXHAUSTED
  }

  /** What is worth a reader's attention in a search's measurements. */
  public enum AnomalyKind { NON_MONOTONE, CLIFF, UNDECIDED, FAILED }

  /**
   * A reported anomaly.
   *
   * @param kind what it is
   * @param loads the loads involved, ascending
   * @param message one line for people, e.g. {@code cliff between conc 16 and 17: ttft.p99 41.0 ms → 310.2 ms (×7.6 in one step)}
   */
  public record Anomaly(AnomalyKind kind, List<Double> loads, String message) {
    public Anomaly {
      Objects.requireNonNull(kind, "kind");
      loads = List.copyOf(loads);
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * A finished search.
   *
   * @param grid the loads it could probe
   * @param probes every measured load, in the order measured
   * @param stop why it stopped
   * @param best the largest load that passes below the first non-pass, if any
   * @param firstNonPass the smallest load that failed or was undecided, if any
   * @param anomalies what the measurements say against the assumptions
   */
  public record Trace(LoadGrid grid, List<Probe> probes, Stop stop, OptionalDouble best,
      OptionalDouble firstNonPass, List<Anomaly> anomalies) {

    public Trace {
      probes = List.copyOf(probes);
      anomalies = List.copyOf(anomalies);
    }

    /** The probe at the best load, if there is one. */
    public Optional<Probe> bestProbe() {
      return best.isEmpty() ? Optional.empty()
          : probes.stream().filter(p -> p.load() == best.getAsDouble()).findFirst();
    }

    /** The probe at the first non-pass, if there is one. */
    public Optional<Probe> firstNonPassProbe() {
      return firstNonPass.isEmpty() ? Optional.empty()
          : probes.stream().filter(p -> p.load() == firstNonPass.getAsDouble()).findFirst();
    }

    /** Measurements taken in all (repetitions included). */
    public int measurements() {
      return probes.stream().mapToInt(Probe::repetitions).sum();
    }

    /** Whether the measurements break the monotone assumption. */
    public boolean monotone() {
      return anomalies.stream().noneMatch(a -> a.kind() == AnomalyKind.NON_MONOTONE);
    }

    public boolean has(AnomalyKind kind) {
      return anomalies.stream().anyMatch(a -> a.kind() == kind);
    }
  }

  /**
   * Runs a search.
   *
   * @param axis names the load in messages ({@code conc 16}, {@code rate 2.5 req/s})
   * @throws Exception whatever the measurer throws (the search stops there)
   */
  public static Trace run(LoadGrid grid, Slo slo, Settings settings, SearchAxis axis, Measurer measurer)
      throws Exception {
    return run(grid, slo, settings, axis, measurer, p -> { });
  }

  /**
   * Runs a search, telling {@code onProbe} each load's verdict as soon as it is in.
   *
   * @throws Exception whatever the measurer throws (the search stops there)
   */
  public static Trace run(LoadGrid grid, Slo slo, Settings settings, SearchAxis axis, Measurer measurer,
      java.util.function.Consumer<Probe> onProbe) throws Exception {
    return new Run(grid, slo, settings, axis, measurer, onProbe).search();
  }

  /** One search's state: the measured loads by grid index. */
  private static final class Run {
    private final LoadGrid grid;
    private final Slo slo;
    private final Settings s;
    private final SearchAxis axis;
    private final Measurer measurer;
    private final java.util.function.Consumer<Probe> onProbe;
    private final TreeMap<Integer, Probe> byIndex = new TreeMap<>();
    private final List<Probe> inOrder = new ArrayList<>();

    Run(LoadGrid grid, Slo slo, Settings s, SearchAxis axis, Measurer measurer,
        java.util.function.Consumer<Probe> onProbe) {
      this.grid = grid;
      this.slo = slo;
      this.s = s;
      this.axis = axis;
      this.measurer = measurer;
      this.onProbe = onProbe;
    }

    Trace search() throws Exception {
      Stop stop = s.strategy() == Strategy.DENSE ? dense() : bracket();
      return finish(stop);
    }

    private Stop dense() throws Exception {
      for (int i = 0; i < grid.size(); i++) {
        probe(i);
      }
      return Stop.EXHAUSTED;
    }

    private Stop bracket() throws Exception {
      int last = grid.size() - 1;
      if (!probe(0).passed()) {
        return Stop.NONE_PASS;
      }
      // 1. bracketing upwards
      while (true) {
        int p = byIndex.lastKey();
        if (p == last) {
          return Stop.CAPPED;
        }
        if (budgetSpent()) {
          return Stop.BUDGET;
        }
        if (!probe(extrapolate(p)).passed()) {
          break;
        }
      }
      // 2. interpolation inside [last pass, first non-pass]
      boolean bisectNext = false;
      while (true) {
        int f = firstNonPassIndex().orElseThrow();
        OptionalInt pass = lastPassBelow(f);
        if (pass.isEmpty()) {
          return Stop.NONE_PASS; // cannot happen after a first pass; kept for safety
        }
        int p = pass.getAsInt();
        if (f - p <= 1) {
          return Stop.CONVERGED;
        }
        if (budgetSpent()) {
          return Stop.BUDGET;
        }
        int next = bisectNext ? p + (f - p) / 2 : interpolate(p, f);
        int width = f - p;
        probe(next);
        int nf = firstNonPassIndex().orElseThrow();
        int np = lastPassBelow(nf).orElse(p);
        // the safeguard: a step that did not halve the bracket is followed by a bisection
        bisectNext = !bisectNext && (nf - np) * 2 > width;
      }
    }

    private boolean budgetSpent() {
      return byIndex.size() >= s.maxProbes();
    }

    /** The first grid index at or above the predicted crossing, within [p + 1, growth × load(p)]. */
    private int extrapolate(int p) {
      Probe last = byIndex.get(p);
      double x = last.load();
      double r = last.ratio();
      double target;
      Map.Entry<Integer, Probe> before = byIndex.lowerEntry(p);
      if (!(r > 0) || !Double.isFinite(r)) {
        target = x * s.growth();
      } else if (before == null) {
        target = x / r; // the ratio taken as proportional to the load
      } else {
        double slope = (r - before.getValue().ratio()) / (x - before.getValue().load());
        target = slope > 0 ? x + (1 - r) / slope : x * s.growth();
      }
      target = Math.min(target, x * s.growth());
      int i = grid.ceilIndex(target);
      int cap = Math.max(p + 1, grid.floorIndex(x * s.growth()));
      return Math.max(p + 1, Math.min(i, Math.min(cap, grid.size() - 1)));
    }

    /** Regula falsi between the bracket's ends, strictly inside; the middle when the ratio gives no crossing. */
    private int interpolate(int p, int f) {
      Probe a = byIndex.get(p);
      Probe b = byIndex.get(f);
      double ra = a.ratio();
      double rb = b.ratio();
      int mid = p + (f - p) / 2;
      if (!Double.isFinite(ra) || !Double.isFinite(rb) || !(rb > ra)) {
        return mid;
      }
      double x = a.load() + (1 - ra) * (b.load() - a.load()) / (rb - ra);
      int i = grid.floorIndex(x);
      return Math.max(p + 1, Math.min(f - 1, i));
    }

    private OptionalInt firstNonPassIndex() {
      return byIndex.values().stream().filter(pr -> !pr.passed()).mapToInt(Probe::index).min();
    }

    private OptionalInt lastPassBelow(int f) {
      return byIndex.headMap(f).values().stream().filter(Probe::passed).mapToInt(Probe::index).max();
    }

    /** Measures a load (once; repeated while a term is near its bound), never twice. */
    private Probe probe(int i) throws Exception {
      Probe known = byIndex.get(i);
      if (known != null) {
        return known;
      }
      double load = grid.load(i);
      int maxRepeats = s.strategy() == Strategy.DENSE ? 1 : s.maxRepeats();
      int n = 1;
      Probe pr;
      while (true) {
        Measurement m = measurer.measure(i, load, n);
        // a measurer that could not add the repetition asked for has given its last word
        pr = judge(inOrder.size() + 1, i, load, m, m.repetitions() < n ? m.repetitions() : maxRepeats);
        if (pr != null) {
          break;
        }
        n = m.repetitions() + 1;
      }
      byIndex.put(i, pr);
      inOrder.add(pr);
      onProbe.accept(pr);
      return pr;
    }

    /** The probe's verdict, or null when a term is near its bound and another repetition may decide it. */
    private Probe judge(int order, int index, double load, Measurement m, int maxRepeats) {
      if (m.failure().isPresent()) {
        return new Probe(order, index, load, Verdict.FAIL, List.of(), Math.max(1, m.repetitions()), m.failure(), m);
      }
      List<TermReading> readings = new ArrayList<>();
      int n = Integer.MAX_VALUE;
      for (SloTerm t : slo.terms()) {
        List<Double> xs = m.samples().get(t.key());
        if (xs == null || xs.isEmpty()) {
          return new Probe(order, index, load, Verdict.FAIL, List.of(), 1,
              Optional.of("the point's aggregate has no " + t.key() + " for " + t.label()), m);
        }
        n = Math.min(n, xs.size());
        readings.add(reading(t, xs, maxRepeats == 1));
      }
      boolean fail = readings.stream().anyMatch(r -> r.verdict() == Verdict.FAIL);
      boolean near = readings.stream().anyMatch(r -> r.verdict() == Verdict.UNDECIDED);
      Verdict v = fail ? Verdict.FAIL : near ? Verdict.UNDECIDED : Verdict.PASS;
      if (v == Verdict.UNDECIDED && n < maxRepeats) {
        return null;
      }
      return new Probe(order, index, load, v, readings, n, Optional.empty(), m);
    }

    private TermReading reading(SloTerm t, List<Double> xs, boolean once) {
      double mean = xs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
      double ratio = t.ratio(mean);
      Verdict inside = t.passes(mean) ? Verdict.PASS : Verdict.FAIL;
      double lo = Double.NaN;
      double hi = Double.NaN;
      if (once || t.bound() == 0 || Math.abs(ratio - 1) > s.noiseBand()) {
        return new TermReading(t, xs, mean, ratio, lo, hi, inside);
      }
      if (xs.size() >= 2) {
        double[] band = ChangeJudgement.bandAgainst(xs, t.bound(), s.confidence());
        lo = band[0];
        hi = band[1];
        if (lo > 0 || hi < 0) {
          return new TermReading(t, xs, mean, ratio, lo, hi, inside);
        }
      }
      return new TermReading(t, xs, mean, ratio, lo, hi, Verdict.UNDECIDED);
    }

    private Trace finish(Stop stop) {
      OptionalInt f = firstNonPassIndex();
      OptionalInt best = f.isPresent() ? lastPassBelow(f.getAsInt())
          : byIndex.values().stream().filter(Probe::passed).mapToInt(Probe::index).max();
      List<Anomaly> anomalies = new ArrayList<>();
      // non-monotone verdicts: a pass above a load that failed
      if (f.isPresent()) {
        Probe first = byIndex.get(f.getAsInt());
        for (Probe above : byIndex.tailMap(f.getAsInt(), false).values()) {
          if (above.passed() && first.verdict() == Verdict.FAIL) {
            anomalies.add(new Anomaly(AnomalyKind.NON_MONOTONE, List.of(first.load(), above.load()),
                axis.describe(above.load()) + " passes above " + axis.describe(first.load()) + ", which failed"
                    + first.binding().map(r -> " (" + r.term().label() + " " + r.term().format(r.mean()) + ")")
                        .orElse(first.failure().map(w -> " (" + w + ")").orElse(""))));
            break;
          }
        }
      }
      // non-monotone ratios: a term that got better with more load, by more than the noise band
      for (SloTerm t : slo.terms()) {
        Probe worst = null;
        for (Probe pr : byIndex.values()) {
          Optional<TermReading> r = pr.readings().stream().filter(x -> x.term().equals(t)).findFirst();
          if (r.isEmpty() || !Double.isFinite(r.get().ratio())) {
            continue;
          }
          if (worst != null) {
            TermReading w = reading(worst, t);
            if (r.get().ratio() < w.ratio() - Math.max(s.noiseBand(), 1e-9)) {
              anomalies.add(new Anomaly(AnomalyKind.NON_MONOTONE, List.of(worst.load(), pr.load()),
                  t.label() + " fell from " + t.format(w.mean()) + " at " + axis.describe(worst.load()) + " to "
                      + t.format(r.get().mean()) + " at " + axis.describe(pr.load()) + " (bound " + t.text()
                      + "): the response is not monotone in the load"));
              break;
            }
          }
          if (worst == null || r.get().ratio() > reading(worst, t).ratio()) {
            worst = pr;
          }
        }
      }
      // a cliff at a converged boundary
      if (best.isPresent() && f.isPresent() && f.getAsInt() - best.getAsInt() == 1) {
        Probe a = byIndex.get(best.getAsInt());
        Probe b = byIndex.get(f.getAsInt());
        if (b.verdict() == Verdict.FAIL && a.ratio() > 0 && b.ratio() / a.ratio() >= s.cliffFactor()) {
          String detail = b.binding().map(rb -> {
            TermReading ra = reading(a, rb.term());
            return rb.term().label() + " " + rb.term().format(ra.mean()) + " → " + rb.term().format(rb.mean())
                + String.format(Locale.ROOT, " (×%.1f in one step)", rb.mean() == 0 ? Double.NaN : rb.mean() / ra.mean());
          }).orElse(b.failure().orElse("the point failed"));
          anomalies.add(new Anomaly(AnomalyKind.CLIFF, List.of(a.load(), b.load()),
              "cliff between " + axis.describe(a.load()) + " and " + axis.describe(b.load()) + ": " + detail));
        }
      }
      for (Probe pr : inOrder) {
        if (pr.verdict() == Verdict.UNDECIDED) {
          TermReading near = pr.readings().stream().filter(r -> r.verdict() == Verdict.UNDECIDED).findFirst().orElseThrow();
          anomalies.add(new Anomaly(AnomalyKind.UNDECIDED, List.of(pr.load()), axis.describe(pr.load())
              + " undecided after " + pr.repetitions() + " measurement" + (pr.repetitions() == 1 ? "" : "s") + ": "
              + near.term().label() + " " + near.term().format(near.mean()) + " against " + near.term().text()
              + (Double.isNaN(near.bandLow()) ? "" : String.format(Locale.ROOT, " (noise band %+.1f%% … %+.1f%%)",
                  near.bandLow() * 100, near.bandHigh() * 100))));
        }
        if (pr.failure().isPresent()) {
          anomalies.add(new Anomaly(AnomalyKind.FAILED, List.of(pr.load()),
              axis.describe(pr.load()) + " failed to run: " + pr.failure().get()));
        }
      }
      return new Trace(grid, inOrder, stop,
          best.isPresent() ? OptionalDouble.of(grid.load(best.getAsInt())) : OptionalDouble.empty(),
          f.isPresent() ? OptionalDouble.of(grid.load(f.getAsInt())) : OptionalDouble.empty(), anomalies);
    }

    private static TermReading reading(Probe p, SloTerm t) {
      return p.readings().stream().filter(x -> x.term().equals(t)).findFirst().orElseThrow();
    }
  }
}
