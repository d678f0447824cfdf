package io.infx.run;

import static io.infx.core.Wording.setting;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.core.io.AtomicFiles;
import io.infx.core.io.DirectoryLock;
import io.infx.core.io.OutputPreflight;
import io.infx.core.json.Json;
import io.infx.fleet.EnvProjector;
import io.infx.fleet.LaunchEnv;
import io.infx.fleet.RunnerName;
import io.infx.fleet.launch.HeldServer;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.RowKind;
import io.infx.report.ReportPoint;
import io.infx.report.ReportPoints;
import io.infx.results.ParetoFrontier;
import io.infx.results.Repetitions;
import io.infx.results.Slo;
import io.infx.results.SloTerm;
import io.infx.run.internal.FleetPointLauncher;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code infx search}: for every serving configuration of a run (a matrix row without its
 * concurrency) the largest load that meets every term of an {@link Slo}, with the bracket
 * [last pass, first fail] it rests on, the throughput per GPU there, and the Pareto frontier of
 * throughput per GPU against interactivity across configurations.
 *
 * <p>How ({@link BoundarySearch} has the algorithm and its stopping rule):
 * <ul>
 *   <li>The configurations come from the run's plan ({@link BenchmarkRun#plan()}: the same configs,
 *       filters, runners and adapters as {@code infx run}); rows of one configuration are the points
 *       {@code infx run} would run at each concurrency. The load grid is the configuration's
 *       smallest to largest concurrency in the matrix, or {@link SearchOptions#lo()} ..
 *       {@link SearchOptions#hi()}.
 *   <li>Each probe is a normal point of the run directory: the configuration's row at the probe's
 *       concurrency, launched through the fleet adapter, its raw result, aggregate, artifact and
 *       store row like any point ({@code points/<RF>/}, {@code bmk/bmk_<RF>/}); its repetitions are
 *       {@code infx run --repeat}'s ({@code rep-<k>/}, the aggregate holding the means and
 *       {@code repeats}).
 *   <li>One server per configuration: the recipe's engine (or the simulator) is started once, with
 *       the environment of the grid's largest load, when the configuration's first probe needs
 *       measuring, and stopped when its search ends ({@link HeldServer}); probes draw prompts with
 *       a seed of their own so the server's prefix cache never sees a prompt twice.
 *   <li>With {@link RunOptions#resume()} a probe whose point already has the repetitions asked for
 *       is taken from the run directory: nothing is measured twice, and the search, deterministic in
 *       its measurements, takes the same path to the same result. A stored probe that lacks a value
 *       the SLO reads (a percentile, goodput thresholds) is measured again, and said so.
 *   <li>Configurations are searched {@link RunOptions#maxParallel()} at a time (each with its own
 *       server); the probes of one configuration one after the other.
 * </ul>
 * Files: {@code search.json} (rewritten after every probe), the collected probes
 * ({@code results_bmk/agg_bmk.json}), {@code report.html} with the search's table and frontier,
 * {@code servers/<configuration>/} (the server's {@code server.log}, {@code server_event.json}).
 *
 * <pre>{@code
 * SearchOutcome out = SloSearch.of(SearchOptions.builder()
 *         .run(RunOptions.builder().addConfigFiles(Path.of("examples/configs/quickstart.yaml"))
 *             .out(Path.of("infx-out/search")).build())
 *         .slo(Slo.parse("ttft.p99<=200ms,tpot.p50<=5ms"))
 *         .build())
 *     .run(SearchListener.NONE);
 * }</pre>
 */
public final class SloSearch {

  /** File name of the search's record in the run directory. */
  public static final String SEARCH_FILE = "search.json";

  /** Sidecar in a probe's workspace: what the SLO needed of the client when the probe was measured. */
  static final String PROBE_FILE = "search_probe.json";

  private final SearchOptions options;
  private final Optional<PointLauncher> launcher;

  private SloSearch(SearchOptions options, Optional<PointLauncher> launcher) {
    this.options = options;
    this.launcher = launcher;
  }

  /**
   * A search whose probes run through the fleet ({@link RunOptions#adapter()}: local or container;
   * the server a recipe starts, the {@link RunOptions#endpoint()}, or the simulator), one server
   * kept up per configuration.
   *
   * @throws UsageException for a request-rate search (not available yet), or an adapter that cannot
   *     keep a server up
   */
  public static SloSearch of(SearchOptions options) {
    if (options.axis() != SearchAxis.CONCURRENCY) {
      throw new UsageException("a request-rate search is not available yet: search the concurrency");
    }
    options.run().adapter().filter(a -> !List.of("local", "container", BenchmarkRun.ROUTED).contains(a))
        .ifPresent(a -> {
          throw new UsageException(Wording.of("infx search keeps one server up for the probes of a configuration:"
              + " adapter '" + a + "' cannot (its jobs start and stop their own server); use ", setting("adapter"),
              " local or container"));
        });
    return new SloSearch(options, Optional.empty());
  }

  /**
   * A search whose probes are launched by {@code launcher}, each as it launches a point (no server
   * is kept up by the search): your own fleet, or a test double.
   */
  public static SloSearch of(SearchOptions options, PointLauncher launcher) {
    if (options.axis() != SearchAxis.CONCURRENCY) {
      throw new UsageException("a request-rate search is not available yet: search the concurrency");
    }
    return new SloSearch(options, Optional.of(launcher));
  }

  public SearchOptions options() {
    return options;
  }

  public RunLayout layout() {
    return new RunLayout(options.run().out());
  }

  private BenchmarkRun benchmarkRun(PointLauncher l) {
    return BenchmarkRun.of(options.run(), l);
  }

  /**
   * The configurations and the loads each may probe, without measuring or writing anything
   * ({@code infx search --dry-run}).
   *
   * @throws InfxException as {@link BenchmarkRun#plan()} does
   */
  public SearchPlan plan() {
    BenchmarkRun run = launcher.map(this::benchmarkRun).orElseGet(() -> BenchmarkRun.of(options.run()));
    RunPlan rp = run.plan();
    Map<String, List<PlannedPoint>> families = new LinkedHashMap<>();
    List<PlannedPoint> skipped = new ArrayList<>();
    for (PlannedPoint p : rp.points()) {
      if (p.action() == PlannedPoint.Action.SKIP) {
        skipped.add(p);
      } else if (p.row().kind() != RowKind.SINGLE_NODE) {
        skipped.add(p.withAction(PlannedPoint.Action.SKIP, "infx search probes single-node fixed-seq-len rows"));
      } else if (p.row().evalOnly() || p.row().runEval()) {
        skipped.add(p.withAction(PlannedPoint.Action.SKIP, "eval row: its concurrency is the eval's, not a load to search"));
      } else {
        families.computeIfAbsent(BenchmarkRun.family(p), k -> new ArrayList<>()).add(p);
      }
    }
    List<SearchPlan.Configuration> configurations = new ArrayList<>();
    for (List<PlannedPoint> rows : families.values()) {
      List<PlannedPoint> sorted = rows.stream().sorted(Comparator.comparingInt(p -> p.conc().get(0))).toList();
      int lo = (int) options.lo().orElse(sorted.get(0).conc().get(0));
      int hi = (int) options.hi().orElse(Math.max(lo, sorted.get(sorted.size() - 1).conc().get(0)));
      if (hi < lo) {
        throw new UsageException(Wording.of("the search range ", setting("lo"), " " + lo + " is above the largest"
            + " concurrency of " + sorted.get(0).resultFilename() + " (" + hi + "): give the range's top too"));
      }
      LoadGrid grid = LoadGrid.concurrency(lo, hi, (int) options.step());
      PlannedPoint t = sorted.get(0);
      String id = t.resultFilename().replace("_conc" + t.conc().get(0) + "_", "_");
      configurations.add(new SearchPlan.Configuration(id, sorted, grid));
    }
    return new SearchPlan(rp.matrix(), configurations, skipped, rp.adapter());
  }

  /**
   * Searches every configuration, collects the probes, writes {@code search.json}, the report and
   * the store.
   *
   * @throws InfxException for invalid configs (before anything is measured), unwritable files, a run
   *     directory another run holds, or kind {@code interrupted} when the search was interrupted (the
   *     probes measured so far stay; {@code --resume} continues)
   */
  public SearchOutcome run(SearchListener listener) {
    SearchPlan plan = plan();
    if (plan.configurations().isEmpty()) {
      throw new InfxException(ErrorKind.SELECTION, "the configs and filters select no single-node fixed-seq-len"
          + " row: nothing to search (see the plan with --dry-run; widen the filters)");
    }
    try (DirectoryLock lock = DirectoryLock.acquire(options.run().out(), "infx search")) {
      OutputPreflight.check(options.run().out(), Wording.of(setting("out")));
      return new Execution(plan, new Serialised(listener)).run();
    }
  }

  /** Serialises a listener's calls (configurations may be searched in parallel). */
  private record Serialised(SearchListener l) implements SearchListener {
    @Override
    public synchronized void planned(SearchPlan plan) {
      l.planned(plan);
    }

    @Override
    public synchronized void started(SearchPlan.Configuration c) {
      l.started(c);
    }

    @Override
    public synchronized void measuring(SearchPlan.Configuration c, PlannedPoint probe, int repetition) {
      l.measuring(c, probe, repetition);
    }

    @Override
    public synchronized void probed(SearchPlan.Configuration c, BoundarySearch.Probe probe) {
      l.probed(c, probe);
    }

    @Override
    public synchronized void finished(ConfigurationSearch result) {
      l.finished(result);
    }

    @Override
    public synchronized void note(String message) {
      l.note(message);
    }
  }

  /** A configuration whose server did not start, or died under a probe. */
  private static final class ServerFailure extends Exception {
    private static final long serialVersionUID = 1L;

    ServerFailure(String message) {
      super(message);
    }
  }

  /** One run of the search: its state, for the progress file and the outcome. */
  private final class Execution {
    private final SearchPlan plan;
    private final SearchListener listener;
    private final RunLayout layout = layout();
    private final Map<String, List<BoundarySearch.Probe>> probesSoFar = new LinkedHashMap<>();
    private final Map<String, ConfigurationSearch> done = new LinkedHashMap<>();
    private final List<HeldServer> heldNow = new ArrayList<>();
    private final RunListener notes;

    Execution(SearchPlan plan, SearchListener listener) {
      this.plan = plan;
      this.listener = listener;
      this.notes = new RunListener() {
        @Override
        public void note(String message) {
          listener.note(message);
        }
      };
    }

    SearchOutcome run() {
      listener.planned(plan);
      AtomicFiles.writeString(layout.matrixFile(), plan.matrix().toJson() + "\n");
      Thread stopServers = new Thread(this::closeServers, "infx-search-stop-servers");
      Runtime.getRuntime().addShutdownHook(stopServers);
      ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, options.run().maxParallel()), r -> {
        Thread t = new Thread(r, "infx-search");
        t.setDaemon(true);
        return t;
      });
      List<ConfigurationSearch> results = new ArrayList<>();
      try {
        List<Future<ConfigurationSearch>> futures = new ArrayList<>();
        for (SearchPlan.Configuration c : plan.configurations()) {
          futures.add(pool.submit(() -> search(c)));
        }
        for (Future<ConfigurationSearch> f : futures) {
          try {
            results.add(f.get());
          } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfxException(ErrorKind.INTERRUPTED, "search interrupted", e);
          }
        }
      } finally {
        pool.shutdownNow();
        // an interrupted search still records what it measured: its files are written uninterrupted
        boolean interrupted = Thread.interrupted();
        try {
          awaitWorkers(pool);
          closeServers();
          writeSearchFile(List.of());
        } catch (InfxException e) {
          listener.note("search.json not updated: " + e.getMessage());
        } finally {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
        }
        try {
          Runtime.getRuntime().removeShutdownHook(stopServers);
        } catch (IllegalStateException e) {
          // the JVM is shutting down: the hook runs
        }
      }
      ReportPoints collected = BenchmarkRun.collect(layout);
      List<ConfigurationSearch> labelled = label(results);
      List<SearchOutcome.FrontierPoint> frontier = frontier(labelled);
      Path file = writeSearchFile(frontier, labelled);
      String server = serverDescription(labelled);
      Optional<io.infx.report.ReportFiles> report = Optional.of(SearchReport.write(options, plan, labelled, frontier,
          collected, server, layout));
      listener.note("search: " + file);
      listener.note("report: " + report.get().html());
      RunStore.ingest(layout, notes);
      return new SearchOutcome(options, plan, labelled, frontier, layout, file, report, server);
    }

    /** Gives configurations that were stopped a moment to end their probe (so their servers are closed once). */
    private void awaitWorkers(ExecutorService pool) {
      try {
        pool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private synchronized void closeServers() {
      for (HeldServer h : heldNow) {
        h.close();
      }
      heldNow.clear();
    }

    private ConfigurationSearch search(SearchPlan.Configuration c) throws Exception {
      listener.started(c);
      synchronized (this) {
        probesSoFar.put(c.id(), new ArrayList<>());
      }
      try (ProbeServing serving = new ProbeServing(c)) {
        BenchmarkRun run = benchmarkRun(serving);
        BoundarySearch.Trace trace;
        try {
          trace = BoundarySearch.run(c.grid(), options.slo(), options.settings(), options.axis(),
              (i, load, n) -> measure(run, serving, c, load, n), probe -> probed(c, probe));
        } catch (ServerFailure e) {
          ConfigurationSearch r = new ConfigurationSearch(c, c.pattern(), "", Optional.empty(),
              Optional.of(e.getMessage()), serving.starts, serving.description());
          finished(r);
          return r;
        }
        ConfigurationSearch r = new ConfigurationSearch(c, c.pattern(), "", Optional.of(trace), Optional.empty(),
            serving.starts, serving.description());
        finished(r);
        return r;
      }
    }

    private void finished(ConfigurationSearch r) {
      synchronized (this) {
        done.put(r.configuration().id(), r);
      }
      writeSearchFile(List.of());
      listener.finished(r);
    }

    /** Measures one probe through the run's point machinery and reads its repetitions. */
    private BoundarySearch.Measurement measure(BenchmarkRun run, ProbeServing serving, SearchPlan.Configuration c,
        double load, int n) throws ServerFailure, InterruptedException {
      if (Thread.interrupted()) {
        throw new InterruptedException("search interrupted");
      }
      PlannedPoint p = probePoint(c, (int) load);
      Path artifact = layout.artifactAggregate(p.resultFilename(), false);
      int before = 0;
      if (BenchmarkRun.hasAggregate(artifact, p, 1)) {
        Optional<String> missing = missing(p);
        if (missing.isPresent()) {
          listener.note(p.resultFilename() + ": measured again: the earlier measurement " + missing.get());
          forget(p);
        } else {
          before = Repetitions.count(readJson(artifact));
        }
      }
      listener.measuring(c, p, n);
      PointOutcome o = run.measure(p, n, notes);
      if (serving.failure.isPresent()) {
        throw new ServerFailure(serving.failure.get());
      }
      if (o.status() == PointOutcome.Status.FAILED) {
        if (serving.died()) {
          throw new ServerFailure("the server died under " + p.resultFilename() + ": " + o.message().orElse(""));
        }
        BoundarySearch.Measurement m = BoundarySearch.Measurement.failed(o.message().orElse("failed"), p.resultFilename());
        return m;
      }
      if (!o.hasResult()) {
        return BoundarySearch.Measurement.failed("the adapter ended it without a result (" + o.status() + ")",
            p.resultFilename());
      }
      if (o.status() == PointOutcome.Status.SUCCEEDED) {
        writeProbeSidecar(p);
      }
      return read(p, before);
    }

    private void probed(SearchPlan.Configuration c, BoundarySearch.Probe probe) {
      synchronized (this) {
        probesSoFar.get(c.id()).add(probe);
      }
      writeSearchFile(List.of());
      listener.probed(c, probe);
    }

    /** The point of a probe: the configuration's row at this concurrency, projected as the plan projects rows. */
    private PlannedPoint probePoint(SearchPlan.Configuration c, int load) {
      for (PlannedPoint r : c.rows()) {
        if (r.conc().get(0) == load) {
          return r.withAction(PlannedPoint.Action.RUN, "");
        }
      }
      PlannedPoint t = c.template();
      Map<String, Object> fields = new LinkedHashMap<>(t.row().fields());
      fields.put("conc", load);
      MatrixRow row = MatrixRow.of(fields);
      LaunchEnv env = EnvProjector.standard().project(row, RunnerName.of(t.runner()), BenchmarkRun.context(options.run()));
      return new PlannedPoint(t.index(), row, t.runner(), env, PlannedPoint.Action.RUN, "", t.adapter());
    }

    /** What a stored probe lacks that the SLO reads, if anything. */
    private Optional<String> missing(PlannedPoint p) {
      JsonNode agg = readJson(layout.artifactAggregate(p.resultFilename(), false));
      for (SloTerm t : options.slo().terms()) {
        if (t.metric() != SloTerm.Metric.GOODPUT && !agg.path(t.key()).isNumber()) {
          return Optional.of("has no " + t.key() + " (for " + t.label() + ")");
        }
      }
      if (options.slo().hasGoodput()) {
        Path side = layout.pointDir(p.resultFilename()).resolve(PROBE_FILE);
        JsonNode want = Json.mapper().valueToTree(options.slo().goodputThresholdsMillis());
        JsonNode had = Files.isRegularFile(side) ? readJson(side).path("goodput_ms") : null;
        if (had == null || !had.equals(want)) {
          return Optional.of("counted good requests with other thresholds than " + want);
        }
      }
      return Optional.empty();
    }

    /** Sets a stored probe aside so it is measured again (its workspace and artifact go). */
    private void forget(PlannedPoint p) {
      try {
        Files.deleteIfExists(layout.artifactAggregate(p.resultFilename(), false));
        Path work = layout.pointDir(p.resultFilename());
        if (Files.isDirectory(work)) {
          try (var walk = Files.walk(work)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
              Files.delete(f);
            }
          }
        }
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, "cannot set aside " + p.resultFilename() + ": " + e.getMessage(), e);
      }
    }

    private void writeProbeSidecar(PlannedPoint p) {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("slo", options.slo().toString());
      o.set("goodput_ms", Json.mapper().valueToTree(options.slo().goodputThresholdsMillis()));
      o.set("extra_percentiles", Json.mapper().valueToTree(options.slo().extraPercentiles()));
      AtomicFiles.writeString(layout.pointDir(p.resultFilename()).resolve(PROBE_FILE), o.toPrettyString() + "\n");
    }

    /** Every repetition's values of the SLO's keys, from the point's aggregates and raw results. */
    private BoundarySearch.Measurement read(PlannedPoint p, int before) {
      String rf = p.resultFilename();
      JsonNode art = readJson(layout.artifactAggregate(rf, false));
      int n = Repetitions.count(art);
      Path work = layout.pointDir(rf);
      List<JsonNode> aggs = new ArrayList<>();
      List<Path> raws = new ArrayList<>();
      if (n == 1) {
        aggs.add(art);
        raws.add(work.resolve(rf + ".json"));
      } else {
        for (int k = 1; k <= n; k++) {
          Path rep = BenchmarkRun.repetitionDir(work, k);
          aggs.add(readJson(rep.resolve("agg_" + rf + ".json")));
          raws.add(rep.resolve(rf + ".json"));
        }
      }
      Map<String, List<Double>> samples = new LinkedHashMap<>();
      for (SloTerm t : options.slo().terms()) {
        List<Double> xs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
          OptionalDouble v = t.metric() == SloTerm.Metric.GOODPUT
              ? (Files.isRegularFile(raws.get(k)) ? Slo.goodFraction(readJson(raws.get(k))) : OptionalDouble.empty())
              : aggs.get(k).path(t.key()).isNumber() ? OptionalDouble.of(aggs.get(k).get(t.key()).doubleValue())
                  : OptionalDouble.empty();
          if (v.isEmpty()) {
            xs = null;
            break;
          }
          xs.add(v.getAsDouble());
        }
        if (xs != null) {
          samples.put(t.key(), xs);
        }
      }
      double tput = aggs.stream().mapToDouble(a -> a.path("tput_per_gpu").asDouble(Double.NaN)).average().orElse(Double.NaN);
      double intvty = aggs.stream().mapToDouble(a -> a.path("median_intvty").asDouble(Double.NaN)).average()
          .orElse(Double.NaN);
      return new BoundarySearch.Measurement(samples, Optional.empty(), tput, intvty, rf, Math.min(before, n));
    }

    /** Labels and workloads as the report names them, from the probes' aggregates. */
    private List<ConfigurationSearch> label(List<ConfigurationSearch> results) {
      ArrayNode rows = Json.mapper().createArrayNode();
      List<Integer> owner = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        for (BoundarySearch.Probe p : results.get(i).trace().map(BoundarySearch.Trace::probes).orElse(List.of())) {
          Path agg = layout.artifactAggregate(p.measurement().point(), false);
          if (!p.measurement().point().isEmpty() && Files.isRegularFile(agg)) {
            rows.add(readJson(agg));
            owner.add(i);
          }
        }
      }
      List<ReportPoint> points = ReportPoints.fromAggregates(rows).points();
      List<ConfigurationSearch> out = new ArrayList<>();
      for (int i = 0; i < results.size(); i++) {
        ConfigurationSearch r = results.get(i);
        int idx = owner.indexOf(i);
        if (idx >= 0 && idx < points.size() && points.size() == owner.size()) {
          ReportPoint pt = points.get(idx);
          out.add(new ConfigurationSearch(r.configuration(), pt.config(), pt.workload(), r.trace(), r.error(),
              r.serverStarts(), r.server()));
        } else {
          out.add(r);
        }
      }
      return out;
    }

    /** The Pareto frontier over every load that met the SLO, across configurations. */
    private List<SearchOutcome.FrontierPoint> frontier(List<ConfigurationSearch> results) {
      List<SearchOutcome.FrontierPoint> passing = new ArrayList<>();
      for (ConfigurationSearch r : results) {
        for (BoundarySearch.Probe p : r.trace().map(BoundarySearch.Trace::probes).orElse(List.of())) {
          if (p.passed() && Double.isFinite(p.measurement().tputPerGpu())
              && Double.isFinite(p.measurement().interactivity())) {
            passing.add(new SearchOutcome.FrontierPoint(r.configuration().id(), r.label(), p.load(),
                p.measurement().tputPerGpu(), p.measurement().interactivity(), p.measurement().point()));
          }
        }
      }
      return ParetoFrontier.of(passing, SearchOutcome.FrontierPoint::interactivity, SearchOutcome.FrontierPoint::tputPerGpu);
    }

    private String serverDescription(List<ConfigurationSearch> results) {
      if (launcher.isPresent()) {
        return "points launched by " + launcher.get().getClass().getName();
      }
      if (options.run().endpoint().isPresent()) {
        return "running server at " + options.run().endpoint().get();
      }
      return options.run().recipeFile().map(f -> "real engines launched from recipes in " + f + ", one per configuration")
          .orElse("SIMULATED: infx's embedded simulator (infx-sim), not an inference engine; one per configuration");
    }

    private Path writeSearchFile(List<SearchOutcome.FrontierPoint> frontier) {
      List<ConfigurationSearch> snapshot;
      synchronized (this) {
        snapshot = new ArrayList<>(done.values());
      }
      return writeSearchFile(frontier, snapshot);
    }

    private synchronized Path writeSearchFile(List<SearchOutcome.FrontierPoint> frontier, List<ConfigurationSearch> results) {
      Path f = layout.dir().resolve(SEARCH_FILE);
      AtomicFiles.writeString(f, SearchRecord.toJson(options, plan, results, probesSoFar, frontier,
          serverDescription(results)).toPrettyString() + "\n");
      return f;
    }

    /**
     * The configuration's server, started when its first probe needs measuring and kept up for the
     * others; a launcher of its probes against it.
     */
    private final class ProbeServing implements PointLauncher, AutoCloseable {
      private final SearchPlan.Configuration configuration;
      private HeldServer held;
      private PointLauncher probes;
      private PrintWriter serverLog;
      int starts;
      Optional<String> failure = Optional.empty();

      ProbeServing(SearchPlan.Configuration configuration) {
        this.configuration = configuration;
      }

      @Override
      public PointResult launch(PlannedPoint point, Path workDir, PrintWriter log) throws Exception {
        if (launcher.isPresent()) {
          return launcher.get().launch(point, workDir, log);
        }
        PointLauncher l = ensureServer();
        if (l == null) {
          return PointResult.failed("no server: " + failure.orElse(""));
        }
        return l.launch(point, workDir, log);
      }

      private synchronized PointLauncher ensureServer() throws IOException {
        if (probes != null || failure.isPresent()) {
          return probes;
        }
        FleetPointLauncher fleet = (FleetPointLauncher) BenchmarkRun.defaultLauncher(options.run());
        PlannedPoint top = probePoint(configuration, (int) configuration.grid().hi());
        Path dir = layout.dir().resolve("servers").resolve(configuration.id());
        Files.createDirectories(dir);
        serverLog = new PrintWriter(new OutputStreamWriter(Files.newOutputStream(dir.resolve("infx-search.log")),
            StandardCharsets.UTF_8), true);
        starts++;
        listener.note(configuration.pattern() + ": starting its server (with the environment of "
            + options.axis().describe(configuration.grid().hi()) + ")");
        try {
          held = fleet.hold(top, dir, serverLog);
        } catch (InfxException e) {
          failure = Optional.of("its server did not start: " + e.getMessage());
          return null;
        }
        synchronized (Execution.this) {
          heldNow.add(held);
        }
        listener.note(configuration.pattern() + ": server ready in "
            + String.format(Locale.ROOT, "%.1f s", held.startup().toMillis() / 1000.0) + ": " + held.description());
        probes = fleet.probesOn(held, options.slo().goodputThresholdsMillis(), options.slo().extraPercentiles());
        return probes;
      }

      boolean died() {
        return held != null && held.exitCode().isPresent();
      }

      Optional<String> description() {
        return held == null ? Optional.empty() : Optional.of(held.description());
      }

      @Override
      public synchronized void close() {
        if (held != null) {
          held.close();
          synchronized (Execution.this) {
            heldNow.remove(held);
          }
        }
        if (serverLog != null) {
          serverLog.close();
        }
      }
    }
  }

  private static JsonNode readJson(Path file) {
    try {
      return Json.mapper().readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
