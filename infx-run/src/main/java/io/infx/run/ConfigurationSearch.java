package io.infx.run;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The search of one configuration: what was measured and what it means.
 *
 * @param configuration the configuration searched
 * @param label how the report names it (hardware, framework, precision, topology)
 * @param workload the report's workload (model · ISL/OSL)
 * @param trace the search, when it ran to a stop (absent when it ended in {@link #error()})
 * @param error why the configuration could not be searched (its server did not start or died)
 * @param serverStarts how many times a server was started for it: 1, or 0 when every probe came
 *     from an earlier run
 * @param server what served its probes, e.g. {@code SIMULATED: infx's embedded simulator at …}
 */
public record ConfigurationSearch(SearchPlan.Configuration configuration, String label, String workload,
    Optional<BoundarySearch.Trace> trace, Optional<String> error, int serverStarts, Optional<String> server) {

  public ConfigurationSearch {
    Objects.requireNonNull(configuration, "configuration");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(server, "server");
  }

  /** The largest load that meets the SLO (below the first that does not), if any. */
  public OptionalDouble best() {
    return trace.map(BoundarySearch.Trace::best).orElse(OptionalDouble.empty());
  }

  /** The probe at {@link #best()}. */
  public Optional<BoundarySearch.Probe> bestProbe() {
    return trace.flatMap(BoundarySearch.Trace::bestProbe);
  }

  /** Throughput per GPU at the best load, tok/s/GPU. */
  public OptionalDouble tputPerGpu() {
    return bestProbe().map(p -> p.measurement().tputPerGpu()).filter(Double::isFinite)
        .map(OptionalDouble::of).orElse(OptionalDouble.empty());
  }

  /** Interactivity at the best load (at its median TPOT), tok/s/user. */
  public OptionalDouble interactivity() {
    return bestProbe().map(p -> p.measurement().interactivity()).filter(Double::isFinite)
        .map(OptionalDouble::of).orElse(OptionalDouble.empty());
  }

  /** Loads measured (repetitions of one load count once). */
  public int probesUsed() {
    return trace.map(t -> t.probes().size()).orElse(0);
  }

  /**
   * The bracket as text: {@code [16, 17]}, {@code [16, 17?]} when the first non-pass is undecided,
   * {@code [32, —]} when the whole grid passed, {@code [—, 1]} when nothing did.
   */
  public String bracket() {
    if (trace.isEmpty()) {
      return "—";
    }
    BoundarySearch.Trace t = trace.get();
    String lo = t.best().isPresent() ? SearchAxis.format(t.best().getAsDouble()) : "—";
    String hi = t.firstNonPass().isPresent() ? SearchAxis.format(t.firstNonPass().getAsDouble())
        + (t.firstNonPassProbe().map(p -> p.verdict() == BoundarySearch.Verdict.UNDECIDED).orElse(false) ? "?" : "")
        : "—";
    return "[" + lo + ", " + hi + "]";
  }

  /** One phrase: how the search ended and what it saw, e.g. {@code converged; cliff}. */
  public String verdict() {
    if (error.isPresent()) {
      return "error: " + error.get();
    }
    BoundarySearch.Trace t = trace.orElseThrow();
    String stop = switch (t.stop()) {
      case CONVERGED -> "converged";
      case CAPPED -> "SLO met at the largest load searched";
      case NONE_PASS -> "SLO missed at the smallest load searched";
      case BUDGET -> "probe budget spent";
      case EXHAUSTED -> "every load measured";
    };
    List<String> seen = t.anomalies().stream().map(a -> a.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'))
        .distinct().toList();
    return seen.isEmpty() ? stop : stop + "; " + String.join(", ", seen);
  }
}
