package io.infx.fleet.launch;

import static io.infx.core.Wording.setting;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.core.io.AtomicFiles;
import io.infx.core.launch.LaunchVariable;
import io.infx.core.secret.Redactor;
import io.infx.fleet.ArtifactPlan;
import io.infx.fleet.EnvProjector;
import io.infx.fleet.LaunchEnv;
import io.infx.matrix.MatrixRow;
import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import io.infx.fleet.bench.BenchDriver;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.bench.Signals;
import io.infx.fleet.routing.FleetBinding;
import io.infx.fleet.routing.FleetRouter;
import io.infx.fleet.routing.PrefixRouter;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.BackendException;
import io.infx.fleet.spi.FailureKind;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.FleetAdapters;
import io.infx.fleet.spi.JobEvents;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.Lifecycle;
import io.infx.fleet.spi.LogSink;
import io.infx.fleet.spi.PointLaunch;
import io.infx.results.ProcessedResult;
import io.infx.results.ResultProcessor;
import io.infx.results.ResultsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Launches one matrix row on one runner and leaves its results under the stable identity — what
 * {@code infx fleet launch} does (fleet spec §11.5):
 * <ol>
 *   <li>project the environment and compute {@code RESULT_FILENAME}; write {@code launch.env}
 *       (secrets redacted) and {@code artifact_plan.json} into the workspace <em>before</em>
 *       anything runs, so a failed or cancelled job still knows its names;
 *   <li>choose the adapter (given, or routed from the runner name: cluster label, then the
 *       reference's prefix table, then {@code local_*} → {@code local});
 *   <li>run it inside a {@link Lifecycle} (cleanups LIFO on every path, SIGTERM/SIGINT → 128+N
 *       when {@link Builder#handleSignals} is on);
 *   <li>verify {@code <RF>.json} exists (up to 10 one-second polls, as the workflow does);
 *   <li>normalize it into {@code agg_<RF>.json} with {@code infx-results};
 *   <li>write {@code job_event.json} (identity, stage timings, outcome, first error).
 * </ol>
 * A failed point never throws: the {@link LaunchResult} says how it ended. Bad input (row,
 * runner, options) throws before anything is written.
 */
public final class FleetLauncher {

  private final Builder b;

  private FleetLauncher(Builder b) {
    this.b = b;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The default routing: {@code local_*} → local, then the reference's prefix table. */
  public static FleetRouter defaultRouter() {
    return FleetRouter.firstOf(PrefixRouter.of(Map.of("local", "local")), PrefixRouter.referenceSnapshot());
  }

  /** Builder; {@code row}, {@code runner} and {@code workspace} are required. */
  public static final class Builder {
    private MatrixRow row;
    private RunnerName runner;
    private Path workspace;
    private RunContext context = RunContext.defaults();
    private String adapterId;
    private FleetRouter router = defaultRouter();
    private FleetAdapters adapters;
    private ServerSpec server = ServerSpec.simulator();
    private ClientSettings client = ClientSettings.defaults();
    private AdapterOptions options = AdapterOptions.empty();
    private Duration timeLimit = Duration.ofMinutes(180);
    private Duration readinessTimeout = Duration.ofMinutes(10);
    private LogSink log = LogSink.discard();
    private boolean normalize = true;
    private boolean handleSignals;
    private io.infx.matrix.runners.RunnerInventory inventory;

    public Builder row(MatrixRow row) {
      this.row = row;
      return this;
    }

    public Builder runner(RunnerName runner) {
      this.runner = runner;
      return this;
    }

    /** Output directory: raw and aggregate results, logs, {@code job_event.json}. */
    public Builder workspace(Path workspace) {
      this.workspace = workspace;
      return this;
    }

    public Builder context(RunContext context) {
      this.context = context;
      return this;
    }

    /** Adapter id ({@code local}, {@code slurm}, {@code container}); default: routed from the runner. */
    public Builder adapter(String id) {
      this.adapterId = id;
      return this;
    }

    public Builder router(FleetRouter router) {
      this.router = router;
      return this;
    }

    public Builder adapters(FleetAdapters adapters) {
      this.adapters = adapters;
      return this;
    }

    public Builder server(ServerSpec server) {
      this.server = server;
      return this;
    }

    public Builder client(ClientSettings client) {
      this.client = client;
      return this;
    }

    public Builder options(AdapterOptions options) {
      this.options = options;
      return this;
    }

    /** Wall-clock limit of the job; default 180 min (the reference's salloc limit). */
    public Builder timeLimit(Duration timeLimit) {
      this.timeLimit = timeLimit;
      return this;
    }

    public Builder readinessTimeout(Duration readinessTimeout) {
      this.readinessTimeout = readinessTimeout;
      return this;
    }

    public Builder log(LogSink log) {
      this.log = log;
      return this;
    }

    /** Write {@code agg_<RF>.json} after a successful run (default true). */
    public Builder normalize(boolean normalize) {
      this.normalize = normalize;
      return this;
    }

    /**
     * The fleet's {@code runners.yaml}: routes by {@code cluster:<id>} label first, takes Slurm
     * settings from the cluster record (explicit {@link #options} win) and overlays the record's
     * {@code env} on the projection (never over the point's {@code additional-settings}).
     */
    public Builder inventory(io.infx.matrix.runners.RunnerInventory inventory) {
      this.inventory = inventory;
      return this;
    }

    /** Install SIGTERM/SIGINT handlers that clean up and exit 128+N (command-line use only). */
    public Builder handleSignals(boolean handleSignals) {
      this.handleSignals = handleSignals;
      return this;
    }

    public FleetLauncher build() {
      Objects.requireNonNull(row, "row");
      Objects.requireNonNull(runner, "runner");
      Objects.requireNonNull(workspace, "workspace");
      if (timeLimit.isNegative() || timeLimit.isZero()) {
        throw new UsageException("time limit must be > 0");
      }
      return new FleetLauncher(this);
    }

    /** {@code build().launch()}. */
    public LaunchResult launch() {
      return build().launch();
    }
  }

  /**
   * Runs the launch.
   *
   * @throws io.infx.core.ValidationException for a row the projection cannot use, or (kind
   *     {@code runner-validation}, rule {@code V46.adapter-registered}) an inventory whose cluster
   *     record names an adapter that is not registered
   * @throws UsageException for an unknown adapter, an unroutable runner or bad options
   */
  public LaunchResult launch() {
    LaunchEnv env = EnvProjector.standard().project(b.row, b.runner, b.context);
    String rf = env.resultFilename();
    FleetAdapters adapters = b.adapters != null ? b.adapters : FleetAdapters.load();
    // an adapter's own runner-name prefixes come before the configured table; a cluster record first
    FleetRouter router = FleetRouter.firstOf(adapters.prefixRouter(), b.router);
    if (b.inventory != null) {
      // a record naming an adapter that is not registered is a located runner-file error
      router = FleetRouter.firstOf(io.infx.fleet.routing.ClusterLabelRouter.of(b.inventory, adapters), router);
    }
    Optional<FleetBinding> binding = router.resolve(b.runner);
    FleetAdapter adapter;
    String rule;
    if (b.adapterId != null) {
      adapter = adapters.get(b.adapterId);
      rule = "--adapter " + b.adapterId;
    } else {
      FleetBinding found = binding.orElseThrow(() -> new UsageException(
          Wording.of("no adapter for runner '" + b.runner + "' (prefix '" + b.runner.fleetPrefix()
              + "' is in no routing table); pass ", setting("adapter"), " "
              + String.join("|", adapters.all().keySet()))));
      adapter = adapters.get(found.adapterId());
      rule = found.rule();
    }
    b.options.requireFor(adapter.id());
    // the cluster record travels typed in the binding: the adapter takes its scheduler settings
    // from it (explicit options win); its env is overlaid here, for every adapter
    if (binding.isPresent() && binding.get().cluster().isPresent()) {
      env = env.withOverlay(binding.get().cluster().get().env());
    }
    Path ws = b.workspace.toAbsolutePath().normalize();
    try {
      Files.createDirectories(ws);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot create " + ws + ": " + e.getMessage(), e);
    }
    AtomicFiles.writeString(ws.resolve("launch.env"), String.join("\n", env.toLines()) + "\n");
    ArtifactPlan plan = ArtifactPlan.of(b.row, rf);
    AtomicFiles.writeString(ws.resolve("artifact_plan.json"), plan.toJson().toPrettyString() + "\n");

    Redactor redactor = redactorFor(env);
    JobEvents events = new JobEvents().redactWith(redactor);
    identity(events, env, adapter.id(), rule);
    binding.flatMap(FleetBinding::clusterId).ifPresent(id -> events.identity("cluster", id));
    Lifecycle life = new Lifecycle(events);
    Path jobEvent = ws.resolve("job_event.json");
    // A signal and the normal end race to write job_event.json: whoever comes first owns it.
    Object finish = new Object();
    boolean[] state = new boolean[2]; // [0] finished normally, [1] signalled
    if (b.handleSignals) {
      Signals.onTermination(signal -> {
        synchronized (finish) {
          if (state[0] || state[1]) {
            return;
          }
          state[1] = true;
        }
        int rc = life.closeOnSignal(signal);
        events.finish("cancelled", rc);
        events.write(jobEvent);
        Runtime.getRuntime().halt(rc);
      });
    }

    JobStatus status;
    Optional<String> unsupported = BenchDriver.unsupported(b.row);
    if (unsupported.isPresent()) {
      events.fail("plan", FailureKind.INPUT, unsupported.get(), 1);
      status = JobStatus.of(JobState.FAILED, unsupported.get(), 1);
    } else {
      PointLaunch pl = new PointLaunch(b.row, b.runner, env, ws, b.server, b.client, b.options, b.timeLimit,
          b.readinessTimeout, life, (src, line) -> b.log.line(src, redactor.redact(line)), binding);
      try {
        status = adapter.launch(pl);
      } catch (BackendException e) {
        events.fail("launch", e.retriable() ? FailureKind.SCHEDULER : FailureKind.INPUT, e.getMessage(), 1,
            e.retriable(), "");
        status = JobStatus.of(JobState.FAILED, e.getMessage(), 1);
      } catch (UsageException e) {
        life.close();
        throw e;
      } catch (InfxException e) {
        events.fail("launch", FailureKind.INPUT, e.getMessage(), 1);
        status = JobStatus.of(JobState.FAILED, e.getMessage(), 1);
      } catch (RuntimeException e) {
        events.fail("launch", FailureKind.INTERNAL, String.valueOf(e), 1);
        status = JobStatus.of(JobState.FAILED, String.valueOf(e), 1);
      }
    }
    life.record(status.launcherExitCode());
    if (!status.succeeded() && !status.state().endsWithoutResult() && events.firstError().isEmpty()) {
      FailureKind kind = switch (status.state()) {
        case TIMED_OUT -> FailureKind.TIMEOUT;
        case CANCELLED -> FailureKind.CANCELLED;
        default -> status.retriable() ? FailureKind.SCHEDULER : FailureKind.SERVER;
      };
      events.fail("job", kind, "job ended " + status.state() + " (" + status.raw() + ")",
          status.launcherExitCode(), status.retriable(), status.raw());
    }
    life.close(); // cleanups (fetch outputs, cancel, stop server) before verification

    Path raw = ws.resolve(rf + ".json");
    Optional<Path> rawFile = Optional.empty();
    Optional<Path> agg = Optional.empty();
    if (status.state().endsWithoutResult()) {
      // submitted or dry run: the adapter says no result will appear here; nothing to verify
    } else if (status.succeeded() && b.row.evalOnly()) {
      // an eval-only job writes no raw result: meta_env.json and the staged eval output instead
      if (!Files.isRegularFile(ws.resolve("meta_env.json"))) {
        events.fail("verify", FailureKind.RESULT, "meta_env.json was not written by the eval", 1);
        life.record(1);
      }
    } else if (status.succeeded()) {
      rawFile = verify(events, raw);
      if (rawFile.isEmpty()) {
        life.record(1);
      } else if (b.normalize) {
        try {
          Map<String, String> values = env.values();
          ProcessedResult pr = events.timed("normalize", () -> ResultProcessor.processEnvironment(values, ws));
          agg = Optional.of(pr.aggregateFile());
          life.record(pr.exitCode());
        } catch (ResultsException e) {
          events.fail("normalize", FailureKind.RESULT, e.getMessage(), 1);
          life.record(1);
          Path written = ws.resolve("agg_" + rf + ".json");
          agg = Files.exists(written) ? Optional.of(written) : Optional.empty();
        } catch (Exception e) {
          events.fail("normalize", FailureKind.INTERNAL, String.valueOf(e.getMessage()), 1);
          life.record(1);
        }
      }
    } else if (Files.exists(raw)) {
      rawFile = Optional.of(raw);
    }
    synchronized (finish) {
      while (state[1]) {
        try {
          finish.wait(); // the signal handler finishes the launch and halts the JVM
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      state[0] = true;
    }
    int rc = life.exitCode();
    events.identity("finished_at", Instant.now().toString());
    events.finish(LaunchResult.outcome(rc, status.state()), rc);
    events.write(jobEvent);
    return new LaunchResult(rc, rf, env, status, rawFile, agg, events.firstError(), jobEvent);
  }

  /** The run's secrets: this process's, the point's secret variables and secret-looking names. */
  private static Redactor redactorFor(LaunchEnv env) {
    List<String> values = new java.util.ArrayList<>();
    for (String name : env.secretNames()) {
      env.get(name).ifPresent(values::add);
    }
    return Redactor.forProcess().with(Redactor.fromEnvironment(env.values()))
        .with(values.toArray(String[]::new));
  }

  /** The workflow's check: the raw result must appear within 10 one-second polls. */
  private static Optional<Path> verify(JobEvents events, Path raw) {
    for (int i = 0; i < 10; i++) {
      if (Files.isRegularFile(raw)) {
        return Optional.of(raw);
      }
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    events.fail("verify", FailureKind.RESULT, raw.getFileName() + " was not written", 1);
    return Optional.empty();
  }

  private void identity(JobEvents ev, LaunchEnv env, String adapter, String rule) {
    ev.identity("result_filename", env.resultFilename())
        .identity("exp_name", env.getOrEmpty(LaunchVariable.EXP_NAME.name()))
        .identity("model", env.getOrEmpty(LaunchVariable.MODEL.name()))
        .identity("framework", env.getOrEmpty(LaunchVariable.FRAMEWORK.name()))
        .identity("precision", env.getOrEmpty(LaunchVariable.PRECISION.name()))
        .identity("runner", b.runner.name())
        .identity("runner_type", env.getOrEmpty(LaunchVariable.RUNNER_TYPE.name()))
        .identity("adapter", adapter)
        .identity("routing", rule);
    if (env.get(LaunchVariable.CONC_LIST.name()).isPresent()) {
      ev.identity("conc_list", env.getOrEmpty(LaunchVariable.CONC_LIST.name()));
    } else {
      ev.identity("conc", env.getOrEmpty(LaunchVariable.CONC.name()));
    }
    ev.identity("started_at", Instant.now().toString());
  }
}
