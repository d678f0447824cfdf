package io.infx.run;

import static io.infx.core.Wording.setting;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.sim.SimConfig;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.core.io.AtomicFiles;
import io.infx.core.io.DirectoryLock;
import io.infx.core.io.OutputPreflight;
import io.infx.core.json.Json;
import io.infx.core.tree.Source;
import io.infx.fleet.EnvProjector;
import io.infx.fleet.LaunchEnv;
import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import io.infx.fleet.slurm.SlurmJobSettings;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.matrix.Catalog;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.RowKind;
import io.infx.matrix.runners.RunnerInventory;
import io.infx.report.BenchmarkReport;
import io.infx.report.ReportFiles;
import io.infx.report.ReportPoints;
import io.infx.report.ReportProblem;
import io.infx.results.Collector;
import io.infx.results.Repetitions;
import io.infx.core.python.PythonJson;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.run.internal.FleetPointLauncher;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The end-to-end pipeline behind {@code infx run}: validate and expand master configs (matrix) →
 * launch every point through a fleet adapter (default {@code local}: the embedded simulator as
 * server, the fixed-sequence client in-process) → normalize each raw result (results) → collect
 * into {@code results_bmk/agg_bmk.json} → write the report. Up to {@link RunOptions#maxParallel()}
 * points run at once (default 1), the canary first with {@link RunOptions#canary()}; every
 * file is written atomically and {@code run.json} is rewritten after each point, so an
 * interrupted run loses no finished point and {@link RunOptions#resume()} picks up where it
 * stopped.
 *
 * <pre>{@code
 * RunOutcome out = BenchmarkRun.of(RunOptions.builder()
 *         .addConfigFiles(Path.of("examples/configs/quickstart.yaml"))
 *         .out(Path.of("out"))
 *         .build())
 *     .run(RunListener.NONE);
 * out.collected().points();          // what the report plots
 * }</pre>
 */
public final class BenchmarkRun {

  /**
   * The {@link RunOptions#adapter()} that routes every point by its runner name instead of naming
   * one adapter: a {@code runners.yaml} cluster record, then the runner-name prefixes registered
   * adapters claim, then {@code local_*} → local, then the reference's prefix table.
   */
  public static final String ROUTED = "auto";

  private final RunOptions options;
  private final PointLauncher launcher;

  private BenchmarkRun(RunOptions options, PointLauncher launcher) {
    this.options = options;
    this.launcher = launcher;
  }

  /**
   * A run on the adapter its options name.
   *
   * @throws UsageException for an unknown or unavailable adapter
   */
  public static BenchmarkRun of(RunOptions options) {
    return new BenchmarkRun(options, launcherFor(options));
  }

  /** A run whose points are launched by {@code launcher} (e.g. your own fleet, or a test double). */
  public static BenchmarkRun of(RunOptions options, PointLauncher launcher) {
    return new BenchmarkRun(options, launcher);
  }

  /**
   * The launcher {@link #of(RunOptions)} uses: fixed-sequence points through {@code infx-fleet} on
   * {@link RunOptions#adapter()}, AgentX points replayed on the embedded simulator. For wrapping
   * (e.g. a launcher that logs, retries or routes some points elsewhere and delegates the rest).
   *
   * @throws UsageException for an unknown adapter or adapter options it does not take
   */
  public static PointLauncher defaultLauncher(RunOptions options) {
    return launcherFor(options);
  }

  private static PointLauncher launcherFor(RunOptions options) {
    // any adapter registered through ServiceLoader (META-INF/services/io.infx.fleet.spi.FleetAdapter)
    io.infx.fleet.spi.FleetAdapters registered = io.infx.fleet.spi.FleetAdapters.load();
    AdapterOptions adapterOptions = AdapterOptions.of(options.adapterOptions());
    String explicit = options.adapter().orElse("");
    if (options.adapter().isPresent() && !explicit.equals(ROUTED)) {
      if (!registered.ids().contains(explicit)) {
        throw new UsageException("unknown adapter '" + explicit + "' (registered: "
            + String.join(", ", registered.ids()) + "; or " + ROUTED + ": routed by runner name)");
      }
      adapterOptions.requireFor(explicit);
    } else if (options.adapter().isEmpty() && !adapterOptions.values().isEmpty()) {
      // the default: local, or the adapter a cluster record names; an option none of them takes
      // stops the run here (the fleet checks each point's own adapter again when it launches)
      java.util.Set<String> candidates = new java.util.TreeSet<>(Set.of("local"));
      recordAdapters(options).ifPresent(candidates::addAll);
      if (candidates.size() == 1) {
        adapterOptions.requireFor("local");
      }
      for (String key : adapterOptions.values().keySet()) {
        if (candidates.stream().noneMatch(id -> key.startsWith(id + "."))) {
          throw new UsageException(Wording.of("adapter option '" + key + "' is for none of the adapters this run"
              + " uses (" + String.join(", ", candidates) + "; pass ", setting("adapter"), " ID)"));
        }
      }
    }
    if (explicit.equals("slurm") && !options.simulator().equals(SimConfig.defaults())) {
      throw new UsageException(Wording.of("the slurm adapter runs the simulator with its defaults;"
          + " simulator options (", setting("simulator"), ") work on the local adapter only"));
    }
    if (explicit.equals("slurm")) {
      SlurmJobSettings.fromOptions(adapterOptions); // rejects unknown keys and bad values before any point runs
      if (options.endpoint().isPresent()) {
        throw new UsageException(Wording.of(setting("endpoint"), " benchmarks a server this machine"
            + " reaches: use the local adapter (a Slurm job would start its own server)"));
      }
    }
    // the fleet routes by the runners.yaml cluster records (Slurm settings, env), as
    // infx fleet launch --runner-config does; loaded when the first point launches
    return new FleetPointLauncher(options, context(options), () -> {
      Path f = runnerFile(options);
      return RunnerInventory.load(Source.file(f, f.toString()));
    });
  }

  /**
   * The adapters the run's {@code runners.yaml} cluster records name, when the configs and the file
   * are there (otherwise {@link #plan()} reports what is missing).
   */
  private static Optional<List<String>> recordAdapters(RunOptions options) {
    if (!options.configFiles().stream().allMatch(Files::isRegularFile)) {
      return Optional.empty();
    }
    Path f;
    try {
      f = runnerFile(options);
    } catch (UsageException e) {
      return Optional.empty();
    }
    RunnerInventory inventory = RunnerInventory.load(Source.file(f, f.toString()));
    return Optional.of(inventory.clustersById().values().stream()
        .flatMap(c -> c.adapter().stream()).distinct().toList());
  }

  /** The launch context every point is projected with (the plan and the fleet must agree). */
  static RunContext context(RunOptions options) {
    return options.agenticDuration().isPresent()
        ? RunContext.builder().from(RunContext.defaults())
            .durationOverride((int) options.agenticDuration().get().toSeconds()).build()
        : RunContext.defaults();
  }

  public RunOptions options() {
    return options;
  }

  public RunLayout layout() {
    return new RunLayout(options.out());
  }

  /**
   * Validates and expands the configs and plans every point without sending traffic or writing
   * anything ({@code infx run --dry-run}).
   *
   * @throws InfxException located, rule-named errors for invalid configs or runner files (with the
   *     default launcher, also a cluster record naming an adapter that is not registered:
   *     {@code V46.adapter-registered})
   */
  public RunPlan plan() {
    List<Source> sources = new ArrayList<>();
    for (Path f : options.configFiles()) {
      sources.add(Source.file(f, f.toString()));
    }
    for (Path f : options.configFiles()) {
      if (!Files.isRegularFile(f)) {
        // a missing config is reported as such, before the runner file looked for beside it
        throw new InfxException(ErrorKind.FILE, "no such config file: " + f);
      }
    }
    Catalog catalog = Catalog.load(sources);
    Path runnerFile = runnerFile(options);
    RunnerInventory runners = RunnerInventory.load(Source.file(runnerFile, runnerFile.toString()));
    if (launcher instanceof FleetPointLauncher) {
      // the fleet routes by this file: a cluster record naming an adapter that is not registered
      // stops the run here, located, rather than failing every point at launch
      List<io.infx.core.Violation> unregistered = io.infx.fleet.routing.ClusterLabelRouter.unregisteredAdapters(
          runners, io.infx.fleet.spi.FleetAdapters.load().ids());
      if (!unregistered.isEmpty()) {
        throw new io.infx.core.ValidationException(ErrorKind.RUNNER_VALIDATION, unregistered);
      }
    }
    Matrix matrix = options.selection() instanceof Selection.TestConfig t
        ? Generator.testConfig(catalog, runners, t.options())
        : Generator.fullSweep(catalog, runners, ((Selection.FullSweep) options.selection()).options());
    RunLayout layout = layout();
    RunContext context = context(options);
    List<PlannedPoint> points = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    io.infx.fleet.routing.ClusterLabelRouter clusters = io.infx.fleet.routing.ClusterLabelRouter.of(runners);
    // adapter id → whether runners.yaml chose it (for the plan line: which adapters ran, and why)
    Map<String, Boolean> adapters = new java.util.LinkedHashMap<>();
    for (MatrixRow row : matrix.rows()) {
      String runner = options.runner().orElseGet(() -> defaultRunner(runners, row.runner()));
      LaunchEnv env = EnvProjector.standard().project(row,
          RunnerName.of(runner), context);
      int index = points.size() + 1;
      Optional<String> recorded = options.adapter().isPresent() ? Optional.empty() : clusters.recordedAdapter(runner);
      String adapter = options.adapter().or(() -> recorded).orElse("local");
      PlannedPoint p = new PlannedPoint(index, row, runner, env, PlannedPoint.Action.RUN, "", adapter);
      Integer first = seen.putIfAbsent(p.resultFilename(), index);
      if (first != null) {
        p = p.withAction(PlannedPoint.Action.SKIP, "same RESULT_FILENAME as point " + first + " (duplicate row)");
      } else {
        Optional<String> unsupported = unsupported(row, adapter);
        if (unsupported.isPresent()) {
          p = p.withAction(PlannedPoint.Action.SKIP, unsupported.get());
        } else if (options.resume() && hasAggregate(layout.artifactAggregate(p.resultFilename(), p.agentic()), p,
            p.agentic() ? 1 : options.repeat())) {
          p = p.withAction(PlannedPoint.Action.RESUME, "result from an earlier run");
        }
      }
      points.add(p);
      if (p.action() != PlannedPoint.Action.SKIP) {
        adapters.merge(adapter, recorded.isPresent(), Boolean::logicalOr);
      }
    }
    if (adapters.isEmpty()) {
      adapters.put(options.adapter().orElse("local"), false);
    }
    List<String> said = new ArrayList<>();
    adapters.forEach((id, fromFile) -> said.add(fromFile ? id + " (" + runnerFile.getFileName() + ")" : id));
    return new RunPlan(matrix, points, String.join(", ", said));
  }


  /**
   * What {@code recipes} makes of every planned point that would run ({@code infx recipe show}):
   * selection and rendering exactly as a launch does, without launching.
   *
   * @throws InfxException kind {@code recipe} naming the first row no recipe (or two equally
   *     specific ones) matches
   */
  public List<io.infx.fleet.recipe.RecipeLaunch> recipeLaunches(io.infx.fleet.recipe.RecipeFile recipes) {
    List<Source> sources = new ArrayList<>();
    for (Path f : options.configFiles()) {
      sources.add(Source.file(f, f.toString()));
    }
    Catalog catalog = Catalog.load(sources);
    List<io.infx.fleet.recipe.RecipeLaunch> out = new ArrayList<>();
    for (PlannedPoint p : plan().points()) {
      if (p.action() == PlannedPoint.Action.SKIP) {
        continue;
      }
      out.add(recipes.launchFor(io.infx.run.internal.RecipeRows.of(catalog, p.row(), p.runner(), p.resultFilename()),
          p.env(), System.getenv(), Path.of("")));
    }
    return out;
  }

  /** Why the adapter cannot run a row, if it cannot. */
  private Optional<String> unsupported(MatrixRow row, String adapter) {
    RowKind kind = row.kind();
    if (row.evalOnly() && (kind == RowKind.SINGLE_NODE_AGENTIC || kind == RowKind.MULTI_NODE_AGENTIC)) {
      return Optional.of("agentic eval-only row (SWE-bench): infx runs lm-eval evals only");
    }
    if (kind == RowKind.MULTI_NODE || kind == RowKind.MULTI_NODE_AGENTIC) {
      return Optional.of("multi-node row: adapter '" + adapter + "' runs single-node points");
    }
    if (kind == RowKind.SINGLE_NODE_AGENTIC && !adapter.equals("local")) {
      return Optional.of("AgentX row: trace replay runs on the local adapter only");
    }
    return Optional.empty();
  }

  private static Path runnerFile(RunOptions options) {
    if (options.runnerConfig().isPresent()) {
      return options.runnerConfig().get();
    }
    Path first = options.configFiles().get(0).toAbsolutePath();
    Path beside = first.resolveSibling("runners.yaml");
    if (Files.isRegularFile(beside)) {
      return options.configFiles().get(0).resolveSibling("runners.yaml");
    }
    Path fallback = Path.of("configs", "runners.yaml");
    if (!Files.isRegularFile(fallback)) {
      throw new UsageException(Wording.of("no runner file: neither "
          + options.configFiles().get(0).resolveSibling("runners.yaml") + " (next to the first config) nor "
          + fallback + " (in the working directory) exists; pass ", setting("runnerConfig"), " FILE"));
    }
    return fallback;
  }

  private static String defaultRunner(RunnerInventory runners, String label) {
    List<String> names = runners.runnersOf(label);
    if (!names.isEmpty()) {
      return names.get(0);
    }
    String fleet = label.startsWith(RunnerInventory.CLUSTER_PREFIX)
        ? label.substring(RunnerInventory.CLUSTER_PREFIX.length()) : label;
    return fleet.replaceAll("[\\s/\\\\:_]+", "-") + "_0";
  }

  /**
   * Whether an earlier run left a usable aggregate for {@code p}: JSON, of at least
   * {@code repetitions} repetitions, and for a fixed-sequence point a row with {@code hw} and this
   * point's concurrency. A corrupted or foreign file is not trusted: the point runs again.
   */
  static boolean hasAggregate(Path file, PlannedPoint p, int repetitions) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try {
      JsonNode row = Json.mapper().readTree(Files.readAllBytes(file));
      if (row == null || !row.isObject() || Repetitions.count(row) < repetitions) {
        return false;
      }
      if (p.agentic()) {
        return true;
      }
      // an aggregate row of this very point: an empty or foreign file is not trusted
      return row.hasNonNull("hw") && p.conc().contains(row.path("conc").asInt(-1));
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Plans and runs every point, collects, and writes the report. Points that fail are recorded
   * and the run goes on; the report lists them.
   *
   * @throws InfxException for invalid configs (before anything is launched) or unwritable files
   */
  public RunOutcome run(RunListener listener) {
    RunPlan plan = plan();
    if (plan.points().isEmpty()) {
      throw new InfxException(ErrorKind.SELECTION, "the configs and filters select no matrix row: nothing to run "
          + "(see the plan with --dry-run; widen the filters)");
    }
    // One run per directory (a second `infx run` on the same --out is refused, not interleaved),
    // and the directory must take results before any point is launched.
    try (DirectoryLock lock = DirectoryLock.acquire(options.out(), "infx run")) {
      OutputPreflight.check(options.out(), Wording.of(setting("out")));
      return runLocked(plan, listener);
    }
  }

  private RunOutcome runLocked(RunPlan plan, RunListener listener) {
    listener.planned(plan);
    RunLayout layout = layout();
    int stale = removeStaleArtifacts(plan, layout);
    if (stale > 0) {
      listener.note("set aside " + stale + " point(s) of an earlier run in " + layout.dir()
          + " that this plan does not hold (moved to stale/, nothing deleted)");
    }
    AtomicFiles.writeString(layout.matrixFile(), plan.matrix().toJson() + "\n");
    List<PointOutcome> outcomes = new Scheduler(plan, layout, listener).runAll();
    ReportPoints collected = collect(layout);
    List<io.infx.results.evals.EvalRow> evals = collectEvals(layout, listener);
    Optional<ReportFiles> report = Optional.of(report(plan, outcomes, collected, evals, layout));
    listener.note("report: " + report.get().html());
    RunStore.ingest(layout, listener);
    return new RunOutcome(plan, layout, outcomes, collected, report, evals);
  }

  /**
   * Runs the plan's points with up to {@link RunOptions#maxParallel()} in flight: the canary first
   * and alone ({@link RunOptions#canary()}: a failed canary skips every other point), then the rest
   * in plan order as slots free up; with {@link RunOptions#failFast()} the first failure of a family
   * skips that family's points that have not started. Outcomes keep plan order; {@code run.json}
   * is rewritten (atomically) after every finished point, so resume stays correct whatever was in
   * flight when a run stopped.
   */
  private final class Scheduler {
    private final RunPlan plan;
    private final RunLayout layout;
    private final RunListener listener;
    private final PointOutcome[] outcomes;
    private final int total;
    private int done;
    private int inFlight;
    private final Set<String> failedFamilies = new java.util.HashSet<>();
    private final Map<String, String> firstFailure = new HashMap<>();
    private boolean canaryFailed;

    Scheduler(RunPlan plan, RunLayout layout, RunListener listener) {
      this.plan = plan;
      this.layout = layout;
      this.listener = listener;
      this.outcomes = new PointOutcome[plan.points().size()];
      this.total = (int) plan.count(PlannedPoint.Action.RUN);
    }

    List<PointOutcome> runAll() {
      List<Integer> toRun = new ArrayList<>();
      for (int i = 0; i < outcomes.length; i++) {
        PlannedPoint p = plan.points().get(i);
        switch (p.action()) {
          case SKIP -> outcomes[i] = new PointOutcome(p, PointOutcome.Status.SKIPPED, Optional.of(p.note()), Duration.ZERO);
          case RESUME -> outcomes[i] = new PointOutcome(p, PointOutcome.Status.RESUMED, Optional.empty(), Duration.ZERO,
              resumedRow(p, layout, listener), Optional.empty());
          case RUN -> toRun.add(i);
        }
      }
      ExecutorService workers = Executors.newFixedThreadPool(Math.max(1, options.maxParallel()), r -> {
        Thread t = new Thread(r, "infx-run-point");
        t.setDaemon(true);
        return t;
      });
      ExecutorService timed = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "infx-run-launch");
        t.setDaemon(true);
        return t;
      });
      try {
        java.util.OptionalInt canary = options.canary() ? canaryIndex(toRun) : java.util.OptionalInt.empty();
        if (canary.isPresent()) {
          int c = canary.getAsInt();
          toRun.remove(Integer.valueOf(c));
          listener.note("canary: " + plan.points().get(c).resultFilename() + " runs first, alone");
          runOne(c, timed);
          if (outcomes[c].status() == PointOutcome.Status.FAILED) {
            canaryFailed = true;
            listener.note("canary failed: the other " + toRun.size() + " point(s) are not run");
          }
        }
        List<Future<?>> futures = new ArrayList<>();
        for (int i : toRun) {
          futures.add(workers.submit(() -> runOne(i, timed)));
        }
        for (Future<?> f : futures) {
          try {
            f.get();
          } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException re ? re : new IllegalStateException(c);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfxException(ErrorKind.INTERRUPTED, "run interrupted", e);
          }
        }
      } finally {
        workers.shutdownNow();
        timed.shutdownNow();
      }
      return java.util.Arrays.asList(outcomes);
    }

    /** InferenceX's canary: the lowest-concurrency single-node fixed-seq-len point (no eval-only). */
    private java.util.OptionalInt canaryIndex(List<Integer> toRun) {
      return toRun.stream().filter(i -> plan.points().get(i).row().kind() == RowKind.SINGLE_NODE
              && !plan.points().get(i).row().evalOnly())
          .min(java.util.Comparator.comparingInt((Integer i) -> plan.points().get(i).conc().get(0))
              .thenComparingInt(i -> i))
          .map(java.util.OptionalInt::of).orElse(java.util.OptionalInt.empty());
    }

    private void runOne(int i, ExecutorService timed) {
      PlannedPoint p = plan.points().get(i);
      String family = family(p);
      int startedDone;
      int flying;
      synchronized (this) {
        String skip = canaryFailed ? "not run: the canary failed"
            : options.failFast() && failedFamilies.contains(family)
                ? "not run (--fail-fast): " + firstFailure.get(family) + " of the same family failed" : null;
        if (skip != null) {
          done++;
          outcomes[i] = new PointOutcome(p, PointOutcome.Status.SKIPPED, Optional.of(skip), Duration.ZERO);
          listener.finished(outcomes[i], done, total);
          writeRunFile(layout, plan, java.util.Arrays.asList(outcomes));
          return;
        }
        inFlight++;
        startedDone = done;
        flying = inFlight;
        listener.started(p, startedDone, total);
        listener.inFlight(flying);
      }
      PointOutcome r = launch(p, layout, timed, listener);
      synchronized (this) {
        inFlight--;
        done++;
        outcomes[i] = r;
        if (r.status() == PointOutcome.Status.FAILED && failedFamilies.add(family)) {
          firstFailure.put(family, p.resultFilename());
        }
        listener.finished(r, done, total);
        writeRunFile(layout, plan, java.util.Arrays.asList(outcomes));
      }
    }
  }

  /**
   * The family of a point for {@code --fail-fast}: the points of one configuration at every
   * concurrency (the row without {@code conc}), as a matrix job of InferenceX's sweep holds them.
   */
  static String family(PlannedPoint p) {
    Map<String, Object> f = new java.util.TreeMap<>(p.row().fields());
    f.remove("conc");
    f.remove("exp-name");
    return p.runner() + " " + f;
  }

  private PointOutcome launch(PlannedPoint p, RunLayout layout, ExecutorService exec, RunListener listener) {
    return launch(p, layout, exec, listener, p.agentic() ? 1 : options.repeat(), options.resume());
  }

  /**
   * Measures one fixed-sequence point outside a plan — a probe of {@code infx search} — with the
   * run's point machinery: the same workspace, repetitions, artifact and typed row as a planned
   * point. Repetitions an earlier measurement left (the point's aggregate with at least
   * {@code repetitions} of them, or {@code rep-<k>} workspaces) are kept and only the missing ones
   * are measured, so asking again for more repetitions measures each one once.
   *
   * @return {@link PointOutcome.Status#RESUMED} when the point already had {@code repetitions}
   *     repetitions, else how the measurement ended
   */
  PointOutcome measure(PlannedPoint p, int repetitions, RunListener listener) {
    RunLayout layout = layout();
    if (hasAggregate(layout.artifactAggregate(p.resultFilename(), false), p, repetitions)) {
      return new PointOutcome(p, PointOutcome.Status.RESUMED, Optional.empty(), Duration.ZERO,
          resumedRow(p, layout, listener), Optional.empty());
    }
    ExecutorService timed = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "infx-search-probe");
      t.setDaemon(true);
      return t;
    });
    try {
      return launch(p, layout, timed, listener, repetitions, true);
    } finally {
      timed.shutdownNow();
    }
  }

  private PointOutcome launch(PlannedPoint p, RunLayout layout, ExecutorService exec, RunListener listener,
      int n, boolean resume) {
    Instant start = Instant.now();
    Path work = layout.pointDir(p.resultFilename());
    if (n > 1 && resume) {
      adoptSingleRun(work, p);
    }
    clean(work, p);
    cleanRepetitions(work, resume ? n : 0);
    byte[] aggregate;
    Optional<io.infx.client.ServeMetrics> metrics = Optional.empty();
    if (n == 1) {
      PointResult result = attempt(p, work, exec);
      metrics = result.metrics();
      if (result.eval().isPresent()) {
        listener.note(p.resultFilename() + ": " + evalSummary(result.eval().get()));
        try {
          stageEvalArtifact(p, result.eval().get().workspace(), layout);
        } catch (IOException e) {
          return new PointOutcome(p, PointOutcome.Status.FAILED,
              Optional.of("cannot stage the eval artifact: " + e.getMessage()), Duration.between(start, Instant.now()));
        }
      }
      if (!result.ok()) {
        return new PointOutcome(p, PointOutcome.Status.FAILED, result.failure(), Duration.between(start, Instant.now()));
      }
      if (result.noResult().isPresent()) {
        PointResult.NoResult nr = result.noResult().get();
        return new PointOutcome(p, nr.kind() == PointResult.NoResult.Kind.SUBMITTED
            ? PointOutcome.Status.SUBMITTED : PointOutcome.Status.DRY_RUN,
            Optional.of(nr.detail()).filter(d -> !d.isBlank()), Duration.between(start, Instant.now()));
      }
      if (result.aggregate().isEmpty()) {      // an eval-only point: its eval artifact is its result
        return new PointOutcome(p, PointOutcome.Status.SUCCEEDED, Optional.empty(), Duration.between(start, Instant.now()));
      }
      try {
        aggregate = Files.readAllBytes(result.aggregate().get());
      } catch (IOException e) {
        return new PointOutcome(p, PointOutcome.Status.FAILED,
            Optional.of("cannot read the aggregate " + result.aggregate().get() + ": " + e.getMessage()),
            Duration.between(start, Instant.now()));
      }
    } else {
      List<JsonNode> reps = new ArrayList<>();
      String name = "agg_" + p.resultFilename() + ".json";
      for (int k = 1; k <= n; k++) {
        Path rep = repetitionDir(work, k);
        Path kept = rep.resolve(name);
        if (resume && hasAggregate(kept, p, 1)) {
          listener.note(p.resultFilename() + ": repetition " + k + "/" + n + " from an earlier run");
          reps.add(readJson(kept));
          continue;
        }
        clean(rep, p);
        PointResult result = attempt(p, rep, exec);
        if (!result.ok()) {
          return new PointOutcome(p, PointOutcome.Status.FAILED,
              Optional.of("repetition " + k + "/" + n + ": " + result.failure().orElse("")),
              Duration.between(start, Instant.now()));
        }
        if (result.noResult().isPresent()) {
          return new PointOutcome(p, PointOutcome.Status.FAILED, Optional.of("repetition " + k + "/" + n
              + ": the adapter ended it without a result (" + result.noResult().get().kind()
              + "); --repeat needs measured repetitions"), Duration.between(start, Instant.now()));
        }
        reps.add(readJson(result.aggregate().get()));
      }
      ObjectNode combined;
      try {
        combined = Repetitions.combine(reps);
      } catch (IllegalArgumentException e) {
        return new PointOutcome(p, PointOutcome.Status.FAILED, Optional.of(e.getMessage()),
            Duration.between(start, Instant.now()));
      }
      aggregate = PythonJson.dumps(combined, 2).getBytes(StandardCharsets.UTF_8);
      // the point's own aggregate, with the first repetition's raw result beside it: every
      // repetition ran the same workload, so the comparability lint reads its settings there
      AtomicFiles.write(work.resolve(name), aggregate);
      Path raw = repetitionDir(work, 1).resolve(p.resultFilename() + ".json");
      try {
        if (Files.isRegularFile(raw)) {
          AtomicFiles.write(work.resolve(p.resultFilename() + ".json"), Files.readAllBytes(raw));
        }
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, "cannot copy " + raw + ": " + e.getMessage(), e);
      }
    }
    Duration took = Duration.between(start, Instant.now());
    AtomicFiles.write(layout.artifactAggregate(p.resultFilename(), p.agentic()), aggregate);
    return new PointOutcome(p, PointOutcome.Status.SUCCEEDED, Optional.empty(), took,
        typedRow(p, aggregate, listener), metrics);
  }

  /** The published aggregate of a resumed point, typed; empty when absent or not a fixed-sequence row. */
  private static Optional<io.infx.results.AggregateRow> resumedRow(PlannedPoint p, RunLayout layout,
      RunListener listener) {
    Path agg = layout.artifactAggregate(p.resultFilename(), p.agentic());
    if (p.agentic() || !Files.isRegularFile(agg)) {
      return Optional.empty();
    }
    try {
      return typedRow(p, Files.readAllBytes(agg), listener);
    } catch (IOException e) {
      listener.note(p.resultFilename() + ": cannot read " + agg + " (" + e.getMessage() + "); no typed row");
      return Optional.empty();
    }
  }

  /**
   * The aggregate file's row, typed ({@link io.infx.results.AggregateRows#fromJson}): the same
   * numbers the run published, whichever adapter produced them. AgentX rows have their own shape
   * and stay files.
   */
  private static Optional<io.infx.results.AggregateRow> typedRow(PlannedPoint p, byte[] aggregate,
      RunListener listener) {
    if (p.agentic()) {
      return Optional.empty();
    }
    try {
      return Optional.of(io.infx.results.AggregateRows.fromJson(io.infx.core.json.Json.mapper().readTree(aggregate)));
    } catch (IOException | InfxException e) {
      // the file is still published and collected; only the typed view is missing (said, not hidden)
      listener.note(p.resultFilename() + ": the aggregate is not a typed fixed-sequence row ("
          + e.getMessage() + ")");
      return Optional.empty();
    }
  }

  /**
   * A point measured once by an earlier run (its aggregate in the point's workspace, without
   * {@code repeats}) becomes repetition 1 when the run is resumed with {@code --repeat N}: its raw
   * result and aggregate move to {@code rep-1/}, so {@code --repeat k --resume} for k = 1, 2, …
   * measures each repetition once.
   */
  private static void adoptSingleRun(Path work, PlannedPoint p) {
    Path agg = work.resolve("agg_" + p.resultFilename() + ".json");
    Path raw = work.resolve(p.resultFilename() + ".json");
    Path rep1 = repetitionDir(work, 1);
    if (Files.isDirectory(rep1) || !hasAggregate(agg, p, 1) || Repetitions.count(readJson(agg)) != 1
        || !Files.isRegularFile(raw)) {
      return;
    }
    try {
      Files.createDirectories(rep1);
      Files.move(raw, rep1.resolve(raw.getFileName()));
      Files.move(agg, rep1.resolve(agg.getFileName()));
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot move the earlier result of " + work + " to " + rep1 + ": "
          + e.getMessage(), e);
    }
  }

  /** The workspace of repetition {@code k} (1-based) of a point. */
  static Path repetitionDir(Path work, int k) {
    return work.resolve("rep-" + k);
  }

  /** A new attempt starts clean: no stale raw or aggregate of an earlier attempt may survive. */
  private static void clean(Path work, PlannedPoint p) {
    try {
      Files.createDirectories(work);
      Files.deleteIfExists(work.resolve(p.resultFilename() + ".json"));
      Files.deleteIfExists(work.resolve("agg_" + p.resultFilename() + ".json"));
      deleteTree(work.resolve("results"));                   // AgentX exports of an earlier attempt
      deleteEvalOutput(work);                                // eval output of an earlier attempt
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot prepare " + work + ": " + e.getMessage(), e);
    }
  }

  /** Deletes the repetition workspaces {@code rep-<k>} with {@code k > keep}. */
  private static void cleanRepetitions(Path work, int keep) {
    try (var entries = Files.list(work)) {
      for (Path e : entries.toList()) {
        String f = e.getFileName().toString();
        if (f.matches("rep-\\d+") && Integer.parseInt(f.substring(4)) > keep) {
          deleteTree(e);
        }
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot prepare " + work + ": " + e.getMessage(), e);
    }
  }

  private static JsonNode readJson(Path file) {
    try {
      return Json.mapper().readTree(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** One launch of a point into {@code work}, bounded by the point timeout; its log beside it. */
  private PointResult attempt(PlannedPoint p, Path work, ExecutorService exec) {
    Path logFile = work.resolve("infx-run.log");
    PointResult result;
    try (PrintWriter log = new PrintWriter(new OutputStreamWriter(
        Files.newOutputStream(logFile), StandardCharsets.UTF_8), true)) {
      Future<PointResult> f = exec.submit(() -> launcher.launch(p, work, log));
      try {
        result = f.get(options.pointTimeout().toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        f.cancel(true);
        result = PointResult.failed("did not finish within " + options.pointTimeout().toSeconds() + " s");
      } catch (ExecutionException e) {
        Throwable c = e.getCause();
        result = PointResult.failed(c instanceof InfxException ? c.getMessage() : String.valueOf(c));
        c.printStackTrace(log);
      } catch (InterruptedException e) {
        f.cancel(true);
        Thread.currentThread().interrupt();
        throw new InfxException(ErrorKind.INTERRUPTED, "run interrupted during point " + p.resultFilename(), e);
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot write " + logFile + ": " + e.getMessage(), e);
    }
    return result;
  }

  /** The gate's checks in one line, e.g. {@code eval PASS: gsm8k exact_match,strict-match = 0.9522 (>= 0.91 from models.dsr1)}. */
  private static String evalSummary(PointResult.Eval eval) {
    String checks = String.join("; ", eval.gate().checks().stream()
        .map(c -> c.task() + " " + c.metric() + " = " + io.infx.core.python.PythonNumbers.formatFixed(c.value(), 4)
            + (c.passed() ? " (>= " : " (< ") + c.threshold().display() + " from " + c.threshold().source() + ")")
        .toList());
    return "eval " + (eval.gate().passed() ? "PASS" : "FAIL") + ": " + (checks.isEmpty() ? "no metric checked" : checks);
  }

  /** The eval artifact's name as the reference uploads it ({@code eval_<exp-name>_<RF>}). */
  private static String evalArtifactName(PlannedPoint p) {
    return io.infx.fleet.ArtifactPlan.of(p.row(), p.resultFilename()).names().stream()
        .filter(n -> n.startsWith("eval_") && !n.startsWith("eval_server_logs_") && !n.startsWith("eval_gpu_metrics_"))
        .findFirst().orElse("eval_" + p.resultFilename());
  }

  /**
   * Copies the eval artifact of a point (its {@code meta_env.json}, {@code results*.json},
   * {@code sample*.jsonl}) to {@code DIR/<artifact>/}, as CI's download-artifact lays them out for
   * {@code collect-evals} and the ingest.
   */
  private static void stageEvalArtifact(PlannedPoint p, Path workspace, RunLayout layout) throws IOException {
    Path target = layout.evalArtifactDir(evalArtifactName(p));
    deleteTree(target);
    Files.createDirectories(target);
    try (var files = Files.list(workspace)) {
      for (Path f : files.sorted().toList()) {
        String n = f.getFileName().toString();
        if (Files.isRegularFile(f) && isEvalFile(n)) {
          Files.copy(f, target.resolve(n), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
      }
    }
  }

  private static boolean isEvalFile(String name) {
    return name.equals("meta_env.json") || (name.startsWith("results") && name.endsWith(".json"))
        || (name.startsWith("sample") && name.endsWith(".jsonl"));
  }

  /** The {@code eval_*} artifact directories at the top of the run directory. */
  private static List<Path> evalArtifacts(RunLayout layout) {
    if (!Files.isDirectory(layout.dir())) {
      return List.of();
    }
    try (var children = Files.list(layout.dir())) {
      return children.filter(Files::isDirectory).filter(d -> {
        String n = d.getFileName().toString();
        return n.startsWith("eval_") && !n.startsWith("eval_results_all");
      }).sorted().toList();
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot list " + layout.dir() + ": " + e.getMessage(), e);
    }
  }

  private static void deleteEvalOutput(Path work) throws IOException {
    deleteTree(work.resolve("eval_out"));
    try (var files = Files.list(work)) {
      for (Path f : files.toList()) {
        String n = f.getFileName().toString();
        if (Files.isRegularFile(f) && (isEvalFile(n) || n.equals("eval_validation.log"))) {
          Files.delete(f);
        }
      }
    }
  }

  /** collect-evals: every eval artifact of the run into {@code eval_results_all/agg_eval_all.json}. */
  private static List<io.infx.results.evals.EvalRow> collectEvals(RunLayout layout, RunListener listener) {
    if (evalArtifacts(layout).isEmpty()) {
      return List.of();
    }
    try {
      List<io.infx.results.evals.EvalRow> rows = io.infx.results.evals.EvalCollector.collect(layout.dir(), ".");
      io.infx.results.evals.EvalSummary.writeAggregate(layout.evalAggregateFile(), rows);
      listener.note("evals: " + rows.size() + " row(s) in " + layout.evalAggregateFile());
      return rows;
    } catch (io.infx.results.evals.EvalInputException e) {
      listener.note("evals not collected: " + e.getMessage());
      return List.of();
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode collectedRows(RunLayout layout) {
    try {
      return Json.mapper().readTree(Files.readAllBytes(layout.collectedFile()));
    } catch (IOException e) {
      return Json.mapper().createArrayNode();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (var walk = Files.walk(dir)) {
      for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }

  private void writeRunFile(RunLayout layout, RunPlan plan, List<PointOutcome> outcomes) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("adapter", plan.adapter());
    o.put("matrix_rows", plan.matrix().size());
    SimConfig sim = options.simulator();
    if (options.repeat() > 1) {
      o.put("repeat", options.repeat());
    }
    if (sim.slowdown() != 1.0) {
      o.put("simulator_slowdown", sim.slowdown()); // an injected regression must stay visible
    }
    ArrayNode points = o.putArray("points");
    for (int i = 0; i < plan.points().size(); i++) {
      PlannedPoint p = plan.points().get(i);
      ObjectNode n = points.addObject();
      n.put("index", p.index());
      n.put("result_filename", p.resultFilename());
      n.put("runner", p.runner());
      n.put("adapter", p.adapter());
      n.put("action", p.action().name().toLowerCase(Locale.ROOT));
      if (i < outcomes.size() && outcomes.get(i) != null) {
        PointOutcome out = outcomes.get(i);
        n.put("status", out.status().name().toLowerCase(Locale.ROOT));
        out.message().ifPresent(m -> n.put("message", m));
        n.put("seconds", out.took().toMillis() / 1000.0);
      } else {
        n.put("status", "pending");
      }
    }
    try {
      AtomicFiles.writeString(layout.runFile(), Json.pretty().writeValueAsString(o) + "\n");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Moves what an earlier run into the same directory left for points this plan does not hold —
   * their {@code bmk/} artifacts and {@code points/} directories — to {@code stale/bmk/} and
   * {@code stale/points/}, so the collected results, the report and {@code infx results} on the
   * directory show this run only. Nothing is deleted.
   *
   * @return how many points were set aside
   */
  private static int removeStaleArtifacts(RunPlan plan, RunLayout layout) {
    Set<String> keepArtifacts = new java.util.HashSet<>();
    Set<String> keepPoints = new java.util.HashSet<>();
    for (PlannedPoint p : plan.points()) {
      keepArtifacts.add(layout.artifactAggregate(p.resultFilename(), p.agentic()).getParent().getFileName().toString());
      keepPoints.add(layout.pointDir(p.resultFilename()).getFileName().toString());
    }
    Set<String> keepEvals = new java.util.HashSet<>();
    for (PlannedPoint p : plan.points()) {
      keepEvals.add(evalArtifactName(p));
    }
    for (Path e : evalArtifacts(layout)) {
      if (!keepEvals.contains(e.getFileName().toString())) {
        try {
          Path target = layout.dir().resolve("stale").resolve(e.getFileName());
          Files.createDirectories(target.getParent());
          deleteTree(target);
          Files.move(e, target);
        } catch (IOException ex) {
          throw new InfxException(ErrorKind.FILE, "cannot set aside " + e + ": " + ex.getMessage(), ex);
        }
      }
    }
    int artifacts = setAside(layout.artifactsDir(), keepArtifacts, layout.dir().resolve("stale").resolve("bmk"));
    int points = setAside(layout.pointsDir(), keepPoints, layout.dir().resolve("stale").resolve("points"));
    return Math.max(artifacts, points);
  }

  private static int setAside(Path dir, Set<String> keep, Path to) {
    if (!Files.isDirectory(dir)) {
      return 0;
    }
    int moved = 0;
    try (var entries = Files.list(dir)) {
      for (Path e : entries.sorted().toList()) {
        if (!keep.contains(e.getFileName().toString())) {
          Path target = to.resolve(e.getFileName());
          Files.createDirectories(to);
          if (Files.exists(target)) {
            deleteTree(target);
          }
          Files.move(e, target);
          moved++;
        }
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot set aside earlier results in " + dir + ": " + e.getMessage(), e);
    }
    return moved;
  }

  static ReportPoints collect(RunLayout layout) {
    Path out = layout.collectedFile();
    ArrayNode rows;
    if (Files.isDirectory(layout.artifactsDir())) {
      rows = Collector.collect(layout.artifactsDir(), Set.of(out)).allRows();
    } else {
      rows = Json.mapper().createArrayNode();
    }
    Collector.write(out, rows);
    return ReportPoints.fromAggregates(rows);
  }

  private ReportFiles report(RunPlan plan, List<PointOutcome> outcomes, ReportPoints collected,
      List<io.infx.results.evals.EvalRow> evals, RunLayout layout) {
    List<ReportProblem> problems = new ArrayList<>(collected.skipped());
    for (PointOutcome o : outcomes) {
      if (o.status() == PointOutcome.Status.FAILED || o.status() == PointOutcome.Status.SKIPPED) {
        problems.add(new ReportProblem(o.point().resultFilename(),
            (o.status() == PointOutcome.Status.SKIPPED ? "skipped: " : "failed: ") + o.message().orElse("")));
      }
    }
    String files = String.join(", ", options.configFiles().stream().map(Path::toString).toList());
    BenchmarkReport report = BenchmarkReport.builder()
        .title(options.title().orElse("infx run: " + options.configFiles().get(0).getFileName()))
        .points(collected.points())
        .evals(io.infx.report.ReportEvals.match(evals, collectedRows(layout)))
        .problems(problems)
        .metadata("configs", files)
        .metadata("adapter", plan.adapter())
        .metadata("server", serverDescription(outcomes)
            .orElse("none: no point was measured in this run" + notMeasured(outcomes)))
        .metadata("points", String.format(Locale.ROOT, "%d succeeded, %d resumed, %d failed, %d skipped",
            count(outcomes, PointOutcome.Status.SUCCEEDED), count(outcomes, PointOutcome.Status.RESUMED),
            count(outcomes, PointOutcome.Status.FAILED), count(outcomes, PointOutcome.Status.SKIPPED))
            + notMeasured(outcomes))
        .metadata("aggregates", layout.collectedFile().toString())
        .build();
    return report.writeTo(layout.dir());
  }

  /**
   * What served the points that ran (launched, or resumed from an earlier run): recipes, a running
   * endpoint, or the embedded simulator (said plainly: {@code SIMULATED: …}).
   *
   * @return empty when no point ran (every one skipped, submitted elsewhere or shown as a dry run
   *     by its adapter): then no server, simulated or not, served anything
   */
  public Optional<String> serverDescription(List<PointOutcome> outcomes) {
    boolean ran = outcomes.stream().anyMatch(o -> o.status() == PointOutcome.Status.SUCCEEDED
        || o.status() == PointOutcome.Status.FAILED || o.status() == PointOutcome.Status.RESUMED);
    if (!ran) {
      return Optional.empty();
    }
    if (options.endpoint().isPresent()) {
      return Optional.of("running server at " + options.endpoint().get());
    }
    return Optional.of(options.recipeFile().map(f -> "real engines launched from recipes in " + f)
        .orElse("SIMULATED: infx's embedded simulator (infx-sim), not an inference engine"));
  }

  /** {@code ", 2 submitted"} / {@code ", 1 dry run"} when an adapter ended points without a result. */
  private static String notMeasured(List<PointOutcome> outcomes) {
    long submitted = count(outcomes, PointOutcome.Status.SUBMITTED);
    long dryRun = count(outcomes, PointOutcome.Status.DRY_RUN);
    return (submitted > 0 ? ", " + submitted + " submitted" : "") + (dryRun > 0 ? ", " + dryRun + " dry run" : "");
  }

  private static long count(List<PointOutcome> outcomes, PointOutcome.Status s) {
    return outcomes.stream().filter(o -> o.status() == s).count();
  }
}
