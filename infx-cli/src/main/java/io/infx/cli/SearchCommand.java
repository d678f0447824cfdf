package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.results.Slo;
import io.infx.run.BoundarySearch;
import io.infx.run.ConfigurationSearch;
import io.infx.run.PlannedPoint;
import io.infx.run.SearchAxis;
import io.infx.run.SearchListener;
import io.infx.run.SearchOptions;
import io.infx.run.SearchOutcome;
import io.infx.run.SearchPlan;
import io.infx.run.SloSearch;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code infx search CONFIG.yaml… --slo TERMS [generate filters…]}: per configuration the largest
 * concurrency meeting every SLO term, probed through the fleet with one server per configuration;
 * a table on stdout, progress on stderr, {@code DIR/search.json} and the report.
 */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    customSynopsis = "infx search CONFIG.yaml [CONFIG.yaml…] --slo TERMS [generate filters…] [--range LO:HI] [--step N] "
        + "[--max-probes N] [--max-repeats N] [--noise-band F] [--strategy bracket|dense] [--adapter local|container] "
        + "[--recipes FILE | --endpoint URL] [--max-parallel N] [--sim-option K=V…] [--out DIR] [--resume] [--dry-run] "
        + "[--runner-config FILE] [--runner NAME] [--title TEXT]",
    description = {
        "Find each configuration's best throughput under a latency SLO: for every configuration (a matrix row "
            + "without its concurrency) the largest concurrency meeting every SLO term, the bracket [last pass, "
            + "first fail] it rests on, and the throughput per GPU there; then the Pareto frontier of throughput "
            + "per GPU vs interactivity across configurations.",
        "Each probe is a point of DIR (raw result, aggregate, store row); one server per configuration, started "
            + "from the recipe (or the simulator, marked SIMULATED) and kept up across its probes; --resume takes "
            + "the probes already measured. Algorithm and stopping rule: docs/user-guide.md (infx search).",
        "SLO terms: ttft|tpot|itl|e2el.<mean|median|pN><=|<N(us|ms|s), intvty.<stat>>=N, goodput>=0.99 (share of "
            + "requests meeting the per-request latency bounds), comma-separated.",
        "",
    })
public final class SearchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** The options shared with {@code infx run}. */
  @Mixin RunSettings settings = new RunSettings();

  /** Config files first, then generate filters (parsed by generate's own parser). */
  @Unmatched List<String> rest = new ArrayList<>();

  @Option(names = "--slo", paramLabel = "TERMS", required = true,
      description = "The SLO: comma-separated terms, every one must hold, e.g. "
          + "'ttft.p99<=2000ms,tpot.p50<=50ms' or 'e2el.p90<=8s,goodput>=0.99'.")
  String slo;

  @Option(names = "--by", paramLabel = "AXIS", defaultValue = "conc",
      description = "What is searched: conc (concurrency, default). rate (request rate) is not available yet.")
  String by;

  @Option(names = "--range", paramLabel = "LO:HI",
      description = "Loads searched (default: each configuration's smallest to largest concurrency in the matrix), "
          + "e.g. 1:64.")
  String range;

  @Option(names = "--step", paramLabel = "N", defaultValue = "1",
      description = "Resolution of the search: it stops when its last pass and first fail are N apart (default ${DEFAULT-VALUE}).")
  int step;

  @Option(names = "--max-probes", paramLabel = "N", defaultValue = "8",
      description = "Most loads measured per configuration (repetitions of a load count once; default ${DEFAULT-VALUE}).")
  int maxProbes;

  @Option(names = "--max-repeats", paramLabel = "N", defaultValue = "3",
      description = "Most measurements of a load whose value is near its bound (default ${DEFAULT-VALUE}); still "
          + "inside the repetitions' noise band after them, it is marked undecided.")
  int maxRepeats;

  @Option(names = "--noise-band", paramLabel = "F", defaultValue = "0.05",
      description = "Prior run-to-run noise as a fraction (default ${DEFAULT-VALUE}: a value within ±5%% of its bound "
          + "is measured again).")
  double noiseBand;

  @Option(names = "--strategy", paramLabel = "NAME", defaultValue = "bracket",
      description = "bracket (bracketing then interpolation, default) or dense (every load of the range once: the "
          + "brute-force reference).")
  String strategy;

  @Override
  public Integer call() {
    ReportCommand.headless();
    var run = settings.options(rest, "search", stem -> stem + "-search").build();
    SearchAxis axis = SearchAxis.parse(by);
    BoundarySearch.Strategy st = switch (strategy.toLowerCase(Locale.ROOT)) {
      case "bracket" -> BoundarySearch.Strategy.BRACKET;
      case "dense" -> BoundarySearch.Strategy.DENSE;
      default -> throw new UsageException("--strategy must be bracket or dense, got " + strategy);
    };
    if (maxProbes < 2) {
      throw new UsageException("--max-probes must be at least 2, got " + maxProbes);
    }
    if (maxRepeats < 1) {
      throw new UsageException("--max-repeats must be at least 1, got " + maxRepeats);
    }
    if (!(noiseBand >= 0 && noiseBand < 1)) {
      throw new UsageException("--noise-band must be in [0, 1), got " + noiseBand);
    }
    if (step < 1) {
      throw new UsageException("--step must be at least 1, got " + step);
    }
    var b = SearchOptions.builder().run(run).slo(Slo.parse(slo)).axis(axis).step(step)
        .settings(BoundarySearch.Settings.defaults().withStrategy(st).withMaxProbes(maxProbes)
            .withMaxRepeats(maxRepeats).withNoiseBand(noiseBand));
    if (range != null) {
      String[] parts = range.split(":", -1);
      try {
        if (parts.length != 2) {
          throw new NumberFormatException();
        }
        int lo = Integer.parseInt(parts[0].strip());
        int hi = Integer.parseInt(parts[1].strip());
        if (lo < 1 || hi < lo) {
          throw new UsageException("--range LO:HI needs 1 <= LO <= HI, got " + range);
        }
        b.lo(lo).hi(hi);
      } catch (NumberFormatException e) {
        throw new UsageException("--range must be LO:HI with whole numbers, e.g. 1:64; got " + range);
      }
    }
    SloSearch search = SloSearch.of(b.build());
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (settings.dryRun) {
      SearchPlan plan = search.plan();
      stdout.print(plan.toTable(axis));
      stdout.println();
      stdout.println("matrix (as infx generate prints it):");
      stdout.println(plan.matrix().toJson());
      return 0;
    }
    SearchOutcome outcome = search.run(new Progress(err, axis));
    err.println("infx: server: " + outcome.server());
    printTable(stdout, outcome);
    return outcome.exitCode();
  }

  /** Progress on stderr: one line per probe. */
  static final class Progress implements SearchListener {
    private final PrintWriter err;
    private final SearchAxis axis;

    Progress(PrintWriter err, SearchAxis axis) {
      this.err = err;
      this.axis = axis;
    }

    @Override
    public void planned(SearchPlan plan) {
      err.printf(Locale.ROOT, "infx: %d matrix rows → %d configuration%s to search (adapter %s)%n",
          plan.matrix().size(), plan.configurations().size(), plan.configurations().size() == 1 ? "" : "s",
          plan.adapter());
      for (PlannedPoint p : plan.skipped()) {
        err.println("infx: skip " + p.resultFilename() + ": " + p.note());
      }
      err.flush();
    }

    @Override
    public void started(SearchPlan.Configuration c) {
      err.println("infx: search " + c.pattern() + " over " + axis.label() + " " + SearchAxis.format(c.grid().lo())
          + ".." + SearchAxis.format(c.grid().hi()));
      err.flush();
    }

    @Override
    public void measuring(SearchPlan.Configuration c, PlannedPoint probe, int repetition) {
      err.println("infx:   " + axis.describe(probe.conc().get(0)) + (repetition > 1 ? " (measurement " + repetition + ")" : "")
          + " …");
      err.flush();
    }

    @Override
    public void probed(SearchPlan.Configuration c, BoundarySearch.Probe p) {
      String what = p.failure().map(f -> "FAILED: " + f).orElseGet(() -> p.binding()
          .map(r -> r.term().label() + " " + r.term().format(r.mean()) + " vs " + r.term().text())
          .orElse(""));
      err.printf(Locale.ROOT, "infx:   %s %s%s: %s%s%n", axis.describe(p.load()), p.verdict().name().toLowerCase(Locale.ROOT),
          p.repetitions() > 1 ? " after " + p.repetitions() + " measurements" : "", what,
          p.measurement().measuredBefore() >= p.repetitions() ? " (from an earlier run)" : "");
      err.flush();
    }

    @Override
    public void finished(ConfigurationSearch r) {
      err.println("infx: " + r.configuration().pattern() + ": best " + axis.label() + " "
          + (r.best().isPresent() ? SearchAxis.format(r.best().getAsDouble()) : "none") + " " + r.bracket()
          + " in " + r.probesUsed() + " probes — " + r.verdict());
      r.trace().ifPresent(t -> t.anomalies().forEach(a -> err.println("infx:   " + a.kind().name().toLowerCase(Locale.ROOT)
          .replace('_', '-') + ": " + a.message())));
      err.flush();
    }

    @Override
    public void note(String message) {
      err.println("infx: " + message);
      err.flush();
    }
  }

  /** One line per configuration, then the frontier and where the files are. */
  static void printTable(PrintWriter out, SearchOutcome o) {
    String axis = o.options().axis().label();
    out.println("SLO: " + o.options().slo());
    out.println();
    out.println("| workload | configuration | best " + axis + " | tput/GPU (tok/s) | interactivity (tok/s/user) "
        + "| bracket | probes | measurements | verdict |");
    out.println("|---|---|---:|---:|---:|---|---:|---:|---|");
    for (ConfigurationSearch c : o.configurations()) {
      out.printf(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %d | %d | %s |%n", c.workload().isEmpty() ? "—" : c.workload(),
          c.label(),
          c.best().isPresent() ? SearchAxis.format(c.best().getAsDouble()) : "none", num(c.tputPerGpu()),
          num(c.interactivity()), c.bracket(), c.probesUsed(),
          c.trace().map(BoundarySearch.Trace::measurements).orElse(0), c.verdict());
    }
    out.println();
    if (o.server().startsWith("SIMULATED")) {
      out.println("SIMULATED: every probe was served by infx's embedded simulator; these numbers are not measurements.");
    }
    if (o.frontier().isEmpty()) {
      out.println("frontier: no load met the SLO");
    } else {
      out.println("frontier (throughput per GPU vs interactivity, loads meeting the SLO):");
      for (SearchOutcome.FrontierPoint f : o.frontier()) {
        out.printf(Locale.ROOT, "  %s at %s %s: %,.1f tok/s/GPU, %,.1f tok/s/user%n", f.label(), axis,
            SearchAxis.format(f.load()), f.tputPerGpu(), f.interactivity());
      }
    }
    out.println("search:  " + o.searchFile());
    out.println("results: " + o.layout().collectedFile());
    o.report().ifPresent(r -> out.println("report:  " + r.html()));
    out.flush();
  }

  private static String num(OptionalDouble v) {
    return v.isPresent() ? String.format(Locale.ROOT, "%,.1f", v.getAsDouble()) : "—";
  }
}
