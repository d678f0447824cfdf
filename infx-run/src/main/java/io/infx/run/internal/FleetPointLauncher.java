package io.infx.run.internal;

import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.HeldServer;
import io.infx.fleet.launch.LaunchResult;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.LogSink;
import io.infx.matrix.runners.RunnerInventory;
import io.infx.run.PlannedPoint;
import io.infx.run.PointLauncher;
import io.infx.run.PointResult;
import io.infx.run.RunOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import io.infx.core.InfxException;
import java.util.List;
import io.infx.fleet.recipe.RecipeFile;
import io.infx.fleet.recipe.RecipeLaunch;

/**
 * Launches fixed-seq-len points through {@code infx-fleet} ({@link FleetLauncher}, the same path as
 * {@code infx fleet launch}) on the run's adapter, with the server its recipe starts (a real
 * engine), the running server of {@code --endpoint}, or else the embedded simulator: the
 * point's workspace gets {@code launch.env}, {@code artifact_plan.json}, the raw result, its
 * aggregate and {@code job_event.json}. AgentX points replay traces in this JVM
 * ({@link AgenticSimulatorLauncher}); the planner only lets them through on {@code local}.
 */
public final class FleetPointLauncher implements PointLauncher {

  private final RunOptions options;
  private final RunContext context;
  private final PointLauncher agentic;
  private final Supplier<RunnerInventory> inventorySource;
  private RunnerInventory inventory;
  private final Optional<RecipeFile> recipes;
  private io.infx.matrix.Catalog catalog;

  /**
   * @param inventory the run's {@code runners.yaml}, read once when the first point launches: the
   *     fleet takes a cluster record's Slurm settings and env for runners in {@code cluster:<id>}
   *     labels (explicit adapter options win)
   */
  public FleetPointLauncher(RunOptions options, RunContext context, Supplier<RunnerInventory> inventory) {
    this.options = options;
    this.context = context;
    this.agentic = new AgenticSimulatorLauncher(options);
    this.inventorySource = inventory;
    // validated before any point runs: a broken recipe file fails the run with every error at once
    this.recipes = options.recipeFile().map(RecipeFile::load);
  }

  private synchronized io.infx.matrix.Catalog catalog() {
    if (catalog == null) {
      List<io.infx.core.tree.Source> sources = new java.util.ArrayList<>();
      for (java.nio.file.Path f : options.configFiles()) {
        sources.add(io.infx.core.tree.Source.file(f, f.toString()));
      }
      catalog = io.infx.matrix.Catalog.load(sources);
    }
    return catalog;
  }

  /** The gate's thresholds file: {@link RunOptions#evalThresholds()}, else InferenceX's, in the run directory. */
  private synchronized Path thresholds() {
    if (options.evalThresholds().isPresent()) {
      return options.evalThresholds().get();
    }
    Path f = options.out().resolve(EvalGate.THRESHOLDS_FILE);
    if (!java.nio.file.Files.isRegularFile(f)) {
      io.infx.core.io.AtomicFiles.writeString(f, io.infx.results.evals.EvalThresholds.referenceText());
    }
    return f;
  }

  private synchronized RunnerInventory inventory() {
    if (inventory == null) {
      inventory = inventorySource.get();
    }
    return inventory;
  }

  /**
   * Whether the fleet picks the point's adapter itself: with {@code auto}, and when the runner's
   * cluster record chose it (the fleet's cluster router picks the same one, and {@code
   * job_event.json} then names the record as the rule, not an {@code --adapter} that was not given).
   */
  private boolean routedByFleet(PlannedPoint point) {
    if (point.adapter().equals(io.infx.run.BenchmarkRun.ROUTED)) {
      return true;
    }
    return options.adapter().isEmpty() && io.infx.fleet.routing.ClusterLabelRouter.of(inventory())
        .recordedAdapter(point.runner()).filter(point.adapter()::equals).isPresent();
  }

  /**
   * What serves a point and how its client is driven: the recipe's engine (a real one), the running
   * server of {@code --endpoint}, or the embedded simulator; with the recipe's client settings,
   * readiness timeout and eval tool.
   */
  private record Serving(ServerSpec server, ClientSettings client, java.time.Duration readiness,
      io.infx.fleet.bench.EvalSettings eval) {}

  private Serving serving(PlannedPoint point, PrintWriter log) {
    ServerSpec server = new ServerSpec.Embedded(options.simulator());
    ClientSettings client = ClientSettings.defaults();
    java.time.Duration readiness = java.time.Duration.ofMinutes(10);
    // --eval-cmd/--eval-tasks/--eval-limit win; else the recipe's eval section; else lm-eval
    io.infx.fleet.bench.EvalSettings evalSettings = options.eval();
    if (options.endpoint().isPresent()) {
      server = new ServerSpec.External(options.endpoint().get());
    } else if (recipes.isPresent()) {
      RecipeLaunch l = recipes.get().launchFor(
          RecipeRows.of(catalog(), point.row(), point.runner(), point.resultFilename()), point.env(),
          System.getenv(), java.nio.file.Path.of(""));
      log.println("infx run: recipe " + l.recipe() + " (" + l.where() + "): " + l.server().shellCommand());
      server = l.server();
      client = l.client();
      if (options.eval().equals(io.infx.fleet.bench.EvalSettings.defaults())) {
        evalSettings = l.client().eval();
      }
      readiness = l.startupTimeout();
    }
    return new Serving(server, client, readiness, evalSettings);
  }

  /**
   * Starts the server of {@code top} — its recipe's engine, the simulator, or (for an endpoint) only
   * a readiness check — and keeps it up for {@link #probesOn}: {@code infx search} runs every probe of
   * a configuration against one server, started with the environment of its largest load.
   *
   * @param workspace where the server's {@code server.log} and {@code server_event.json} go
   * @throws io.infx.core.UsageException when the point's adapter cannot hold a server (only local
   *     and container can)
   * @throws InfxException kind {@code server} when it does not start or become ready
   */
  public HeldServer hold(PlannedPoint top, Path workspace, PrintWriter log) {
    Serving s = serving(top, log);
    String adapter = top.adapter().equals(io.infx.run.BenchmarkRun.ROUTED) ? "local" : top.adapter();
    return HeldServer.start(top.env(), s.server(), adapter, AdapterOptions.of(options.adapterOptions()), workspace,
        s.readiness(), LogSink.to(log));
  }

  /**
   * A launcher for points served by {@code held}: each point runs as {@link #launch} runs it, with
   * the held server instead of a server of its own; prompts are drawn with a seed of the point and
   * its workspace (a held server's prefix cache must not see the same prompts again); the client
   * adds the per-request goodput thresholds and the extra percentiles given.
   */
  public PointLauncher probesOn(HeldServer held, java.util.Map<String, Double> goodputMillis,
      List<Double> extraPercentiles) {
    return (point, workDir, log) -> {
      Serving s = serving(point, log);
      long seed = Integer.toUnsignedLong((point.resultFilename() + "/" + workDir.getFileName()).hashCode());
      ClientSettings client = ClientSettings.builder().from(s.client()).seed(seed).goodputMillis(goodputMillis)
          .extraPercentiles(extraPercentiles).build();
      return launch(point, workDir, log, new Serving(held.spec(), client, s.readiness(), s.eval()));
    };
  }

  @Override
  public PointResult launch(PlannedPoint point, Path workDir, PrintWriter log) throws Exception {
    if (point.agentic()) {
      return agentic.launch(point, workDir, log);
    }
    return launch(point, workDir, log, serving(point, log));
  }

  private PointResult launch(PlannedPoint point, Path workDir, PrintWriter log, Serving serving) throws Exception {
    int conc = point.conc().get(0);
    log.println("infx run: " + point.resultFilename() + " through the fleet adapter '" + point.adapter() + "'");
    ServerSpec server = serving.server();
    var client = ClientSettings.builder().from(serving.client());
    java.time.Duration readiness = serving.readiness();
    io.infx.fleet.bench.EvalSettings evalSettings = serving.eval();
    // the load generator runs in this JVM with the local and container adapters: keep its statistics
    java.util.concurrent.atomic.AtomicReference<io.infx.client.ServeMetrics> measured =
        new java.util.concurrent.atomic.AtomicReference<>();
    client.onClientOutcome(o -> measured.set(o.metrics()));
    LaunchResult r = FleetLauncher.builder()
        .row(point.row())
        .runner(RunnerName.of(point.runner()))
        .workspace(workDir)
        .context(context)
        .adapter(routedByFleet(point) ? null : point.adapter())
        .inventory(inventory())
        .options(AdapterOptions.of(options.adapterOptions()))
        .server(server)
        .client(client
            .numPrompts(io.infx.client.ReferenceWorkload.requests(options.promptsPerConc(), conc, "prompts"))
            .numWarmups(io.infx.client.ReferenceWorkload.requests(options.warmupsPerConc(), conc, "warm-ups"))
            .eval(evalSettings)
            .build())
        .readinessTimeout(readiness)
        .timeLimit(options.pointTimeout())
        .log(LogSink.to(log))
        .launch();
    if (!r.resultFilename().equals(point.resultFilename())) {
      // the plan and the fleet project the same row, runner and context: a mismatch is a bug
      throw new IllegalStateException("fleet named the point " + r.resultFilename() + ", the plan "
          + point.resultFilename());
    }
    String why = r.error().map(f -> f.stage() + ": " + f.message())
        .orElse("job ended " + r.status().state() + " (exit " + r.exitCode() + ")");
    if (r.endedWithoutResult()) {
      // the adapter submitted the point elsewhere or only showed it: said so, not a failure
      return PointResult.endedWithoutResult(r.status().state() == io.infx.fleet.spi.JobState.SUBMITTED
          ? PointResult.NoResult.Kind.SUBMITTED : PointResult.NoResult.Kind.DRY_RUN, r.status().raw());
    }
    boolean evalOnly = point.row().evalOnly();
    boolean evalPoint = evalOnly || "true".equals(point.env().get(io.infx.core.launch.LaunchVariable.RUN_EVAL.name()).orElse("false"));
    if (!evalPoint) {
      return r.exitCode() == 0 && r.aggregateFile().isPresent()
          ? PointResult.succeeded(r.aggregateFile().get()).withMetrics(Optional.ofNullable(measured.get()))
          : PointResult.failed(why);
    }
    if (!java.nio.file.Files.isRegularFile(workDir.resolve("meta_env.json"))) {
      return PointResult.failed(why); // the eval never ran (server or load generator failed first)
    }
    Optional<PointResult.Eval> eval;
    try {
      eval = Optional.of(EvalGate.validate(point, workDir, thresholds(), log));
    } catch (InfxException e) {
      return PointResult.failed("eval score gate: " + e.getMessage());
    }
    if (r.exitCode() != 0) {
      return PointResult.failed(why, eval.get());
    }
    if (!eval.get().gate().passed()) {
      return PointResult.failed("eval score gate failed: " + EvalGate.describe(eval.get().gate()), eval.get());
    }
    if (evalOnly) {
      return PointResult.evalOnly(eval.get());
    }
    return r.aggregateFile().isPresent()
        ? PointResult.succeeded(r.aggregateFile().get(), eval.get()).withMetrics(Optional.ofNullable(measured.get()))
        : PointResult.failed(why, eval.get());
  }
}
