package io.infx.fleet.bench;

import static io.infx.core.launch.LaunchVariable.CONC;
import static io.infx.core.launch.LaunchVariable.DP_ATTENTION;
import static io.infx.core.launch.LaunchVariable.EP_SIZE;
import static io.infx.core.launch.LaunchVariable.EVAL_ONLY;
import static io.infx.core.launch.LaunchVariable.GPU_COUNT;
import static io.infx.core.launch.LaunchVariable.IMAGE;
import static io.infx.core.launch.LaunchVariable.ISL;
import static io.infx.core.launch.LaunchVariable.MODEL;
import static io.infx.core.launch.LaunchVariable.OSL;
import static io.infx.core.launch.LaunchVariable.PORT;
import static io.infx.core.launch.LaunchVariable.RANDOM_RANGE_RATIO;
import static io.infx.core.launch.LaunchVariable.RESULT_FILENAME;
import static io.infx.core.launch.LaunchVariable.RUNNER_NAME;
import static io.infx.core.launch.LaunchVariable.RUN_EVAL;
import static io.infx.core.launch.LaunchVariable.TP;

import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.ReferenceWorkload;
import io.infx.client.ServeJob;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.launch.LaunchVariable;
import io.infx.matrix.MatrixRow;
import io.infx.fleet.internal.SinkWriter;
import io.infx.fleet.spi.FailureKind;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.Lifecycle;
import io.infx.fleet.spi.LogSink;
import io.infx.fleet.spi.Ports;
import io.infx.fleet.spi.ReadinessProbe;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What runs for a single-node fixed-seq-len point — the Java counterpart of the reference's bench
 * script: start the server (embedded simulator, or a command on a {@link io.infx.fleet.spi.SchedulerBackend}
 * with the point's environment plus {@code PORT}, output to {@code server.log}), wait until
 * {@code /health} answers while the server is alive, run the load generator in-process exactly as
 * {@code run_benchmark_serving} does, and leave {@code <RESULT_FILENAME>.json} in the workspace.
 * The server is stopped through the lifecycle on every exit path.
 *
 * <p>Eval points: with {@code RUN_EVAL=true} the accuracy eval ({@link EvalStep}, the tool of
 * {@link ClientSettings#eval()}) runs against the same server after the load generator; with
 * {@code EVAL_ONLY=true} it runs instead of the load generator (no raw result is written). The
 * staged eval output and {@code meta_env.json} are left in the workspace.
 *
 * <p>Reads from the environment: {@code MODEL, ISL, OSL, CONC, RANDOM_RANGE_RATIO,
 * RESULT_FILENAME, RUN_EVAL, EVAL_ONLY}, and {@code PORT} when set (else an ephemeral port).
 */
public final class BenchDriver {

  /** What one driver run needs. */
  public record Plan(Map<String, String> env, Path workspace, ServerSpec server, ClientSettings client,
      Duration readinessTimeout) { }

  private BenchDriver() {}

  /** Why the driver cannot run {@code row}, or empty when it can. */
  public static Optional<String> unsupported(MatrixRow row) {
    if (row.multiNode()) {
      return Optional.of("multi-node rows run through srt-slurm recipes, which infx fleet does not drive yet; "
          + "the bench driver runs single-node fixed-seq-len rows");
    }
    if (row.agentic()) {
      return Optional.of("AgentX (agentic-coding) rows replay traces (`infx bench agentic`); the bench driver "
          + "runs single-node fixed-seq-len rows");
    }
    return Optional.empty();
  }

  private static int numPrompts(ClientSettings client, int conc) {
    return client.numPrompts().orElseGet(() -> ReferenceWorkload.numPrompts(conc));
  }

  private static int numWarmups(ClientSettings client, int conc) {
    return client.numWarmups().orElseGet(() -> ReferenceWorkload.numWarmups(conc));
  }

  /**
   * Runs the point. Never throws for a failed run: the status says how it ended and the first
   * error is in {@code life.events()}.
   *
   * @param serverBackend where a server command runs (ignored for the embedded simulator)
   */
  public static JobStatus run(Plan plan, io.infx.fleet.spi.SchedulerBackend serverBackend, Lifecycle life, LogSink log) {
    Map<String, String> env = plan.env();
    int conc;
    int isl;
    int osl;
    double ratio;
    try {
      conc = requiredInt(env, CONC);
      numPrompts(plan.client(), conc); // an overflowing 10 × conc is an input error here, before the server
      numWarmups(plan.client(), conc);
      isl = requiredInt(env, ISL);
      osl = requiredInt(env, OSL);
      ratio = Double.parseDouble(RANDOM_RANGE_RATIO.in(env, ReferenceWorkload.RANDOM_RANGE_RATIO_TEXT));
      require(env, MODEL);
      require(env, RESULT_FILENAME);
    } catch (InfxException | NumberFormatException e) {
      life.events().fail("env", FailureKind.INPUT, e.getMessage(), 1);
      return JobStatus.of(JobState.FAILED, "bad environment", 1);
    }
    Started server;
    try {
      server = serve(env, plan.server(), plan.workspace(), plan.readinessTimeout(), serverBackend, life, log);
    } catch (NotServed e) {
      return e.status;
    }
    URI base = server.baseUrl();
    boolean simulated = server.simulated();
    ReadinessProbe.Liveness alive = server.alive();

    boolean evalOnly = EVAL_ONLY.isOnIn(env);
    boolean runEval = evalOnly || RUN_EVAL.isOnIn(env);
    String completed = "no requests (eval only)";
    if (!evalOnly) {
      Optional<JobStatus> failed = runClient(plan, env, base, conc, isl, osl, ratio, simulated, alive, life, log);
      if (failed.isPresent()) {
        return failed.get();
      }
      completed = "load generator done";
    }

    // 4. eval against the same server
    if (runEval) {
      EvalStep.Outcome eval;
      try {
        eval = life.events().timed("eval", () -> EvalStep.run(env, base, conc, plan.workspace(),
            plan.client().eval(), life, log));
      } catch (Exception e) {
        life.events().fail("eval", FailureKind.CLIENT, String.valueOf(e.getMessage()), 1);
        return JobStatus.of(JobState.FAILED, "eval failed: " + e.getMessage(), 1);
      }
      if (!eval.ok()) {
        life.events().fail("eval", FailureKind.CLIENT, eval.failure().get(), 1);
        return JobStatus.of(JobState.FAILED, eval.failure().get(), 1);
      }
      completed = completed + "; eval staged " + eval.staged().size() + " file(s)";
    }
    return JobStatus.of(JobState.SUCCEEDED, completed, 0);
  }

  /**
   * A server that answers its health endpoint: where it listens, whether it is the embedded
   * simulator, and its liveness (empty while it lives).
   */
  public record Started(URI baseUrl, boolean simulated, ReadinessProbe.Liveness alive) {}

  /** A server that did not start or become ready; its failure is already in the job events. */
  private static final class NotServed extends Exception {
    private static final long serialVersionUID = 1L;
    final transient JobStatus status;

    NotServed(JobStatus status) {
      super(status.raw(), null, false, false);
      this.status = status;
    }
  }

  /**
   * Steps 1 and 2 of a point: start {@code server} with {@code env} plus {@code PORT} (stopped
   * through {@code life}) and wait until its health endpoint answers while it lives. An external
   * or held server is only checked for readiness.
   */
  private static Started serve(Map<String, String> env, ServerSpec spec, Path workspace, Duration readinessTimeout,
      io.infx.fleet.spi.SchedulerBackend serverBackend, Lifecycle life, LogSink log) throws NotServed {
    java.util.Optional<URI> external = spec instanceof ServerSpec.External x ? java.util.Optional.of(x.baseUrl())
        : spec instanceof ServerSpec.Held h ? java.util.Optional.of(h.baseUrl()) : java.util.Optional.empty();
    int port = external.isPresent() ? external.get().getPort()
        : PORT.intIn(env).orElseGet(Ports::ephemeral);
    URI base = external.map(u -> URI.create(u.toString().replaceAll("/+$", "")))
        .orElse(URI.create("http://127.0.0.1:" + port));
    Map<String, String> serverEnv = new LinkedHashMap<>(env);
    if (spec instanceof ServerSpec.Command c) {
      serverEnv.putAll(c.env());
    }
    serverEnv.put(PORT.name(), Integer.toString(port));
    boolean simulated = spec instanceof ServerSpec.Embedded || spec instanceof ServerSpec.Held h && h.simulated();

    // 1. server
    ReadinessProbe.Liveness alive;
    try {
      alive = life.events().timed("server", () -> startServer(spec, workspace, serverEnv, port, serverBackend, life, log));
    } catch (Exception e) {
      life.events().fail("server", FailureKind.SERVER, e.getMessage(), 1);
      throw new NotServed(JobStatus.of(JobState.FAILED, "server did not start: " + e.getMessage(), 1));
    }

    // 2. readiness
    String healthPath = spec instanceof ServerSpec.Command c ? c.healthPath()
        : spec instanceof ServerSpec.Held h ? h.healthPath() : "/health";
    URI health = URI.create(base + healthPath);
    try {
      life.events().timed("readiness", () -> ReadinessProbe.http(health).timeout(readinessTimeout)
          .pollEvery(Duration.ofMillis(simulated ? 100 : 1000)).awaitReady(alive, null));
    } catch (Exception e) {
      life.events().fail("readiness", FailureKind.SERVER, e.getMessage(), 1);
      throw new NotServed(JobStatus.of(JobState.FAILED, e.getMessage(), 1));
    }
    return new Started(base, simulated, alive);
  }

  /**
   * Starts a point's server and waits until it is ready, as a point does before its client runs,
   * but for the caller to keep: {@link io.infx.fleet.launch.HeldServer} keeps it up across the
   * probes of {@code infx search}. The server's cleanup is registered on {@code life}.
   *
   * @param env the point's environment ({@code PORT} is set to a free port unless it holds one)
   * @throws InfxException kind {@code server} when it did not start or become ready (the first
   *     error is also in {@code life.events()})
   */
  public static Started start(Map<String, String> env, ServerSpec server, Path workspace, Duration readinessTimeout,
      io.infx.fleet.spi.SchedulerBackend serverBackend, Lifecycle life, LogSink log) {
    try {
      return serve(env, server, workspace, readinessTimeout, serverBackend, life, log);
    } catch (NotServed e) {
      throw new InfxException(ErrorKind.SERVER, e.status.raw());
    }
  }

  /** Step 3, the load generator; a failed status when it did not complete. */
  private static Optional<JobStatus> runClient(Plan plan, Map<String, String> env, URI base, int conc,
      int isl, int osl, double ratio, boolean simulated, ReadinessProbe.Liveness alive, Lifecycle life,
      LogSink log) {
    ServeJob job = serveJob(env, plan.client(), base, simulated, plan.workspace(), conc, isl, osl, ratio);
    ServeJob.Outcome outcome;
    try (PrintWriter out = SinkWriter.of(log, "client"); PrintWriter err = SinkWriter.of(log, "client")) {
      outcome = life.events().timed("client", () -> job.run(out, err));
    } catch (Exception e) {
      life.events().fail("client", FailureKind.CLIENT, e.getMessage(), 1);
      return Optional.of(JobStatus.of(JobState.FAILED, "client failed: " + e.getMessage(), 1));
    }
    plan.client().onClientOutcome().ifPresent(listener -> listener.accept(outcome));
    OptionalInt died = alive.exitCode();
    if (died.isPresent()) {
      life.events().fail("client", FailureKind.SERVER, "server exited with code " + died.getAsInt()
          + " while the client ran", 1);
      return Optional.of(JobStatus.of(JobState.FAILED, "server died during the run", 1));
    }
    if (outcome.gateFailure().isPresent()) {
      life.events().fail("client", FailureKind.CLIENT, outcome.gateFailure().get(), 1);
      return Optional.of(JobStatus.of(JobState.FAILED, outcome.gateFailure().get(), 1));
    }
    log.line("client", "completed " + outcome.metrics().completed() + " requests");
    return Optional.empty();
  }

  /**
   * The load generator's job for a point's environment: the reference workload rules of
   * {@link ReferenceWorkload} (shared with the typed bridge {@link io.infx.fleet.ServePresets}) at
   * the environment's {@code MODEL, ISL, OSL, CONC, RANDOM_RANGE_RATIO}, then the client
   * settings (backend, tokenizer, endpoint, chat template, extra body, prompt/warm-up overrides)
   * and the raw result at {@code <workspace>/<RESULT_FILENAME>.json}.
   *
   * @param simulated the server is the embedded simulator (the tokenizer then defaults to {@code builtin})
   * @throws io.infx.core.InfxException when the environment lacks {@code MODEL, ISL, OSL, CONC} or
   *     {@code RESULT_FILENAME}, or holds a non-number there
   */
  public static ServeJob serveJob(Map<String, String> env, ClientSettings client, URI base, boolean simulated,
      Path workspace) {
    int conc = requiredInt(env, CONC);
    int isl = requiredInt(env, ISL);
    int osl = requiredInt(env, OSL);
    double ratio = Double.parseDouble(RANDOM_RANGE_RATIO.in(env, ReferenceWorkload.RANDOM_RANGE_RATIO_TEXT));
    require(env, MODEL);
    require(env, RESULT_FILENAME);
    return serveJob(env, client, base, simulated, workspace, conc, isl, osl, ratio);
  }

  private static ServeJob serveJob(Map<String, String> env, ClientSettings client, URI base, boolean simulated,
      Path workspace, int conc, int isl, int osl, double ratio) {
    ServeJob preset = ReferenceWorkload.fixedSeqLen(env.get(MODEL.name()), isl, osl, conc).baseUrl(base).build();
    return ServeJob.builder().from(preset)
        .backend(ServingBackend.parse(client.backend()))
        .tokenizer(client.tokenizer().or(() -> simulated ? Optional.of("builtin") : Optional.empty()))
        .numPrompts(numPrompts(client, conc))
        .numWarmups(numWarmups(client, conc))
        .randomRangeRatio(ratio)
        .useChatTemplate(client.useChatTemplate())
        .chatTemplate(client.chatTemplate())
        .endpoint(client.endpoint())
        .body(BodyOptions.builder().from(preset.body()).extraBody(client.extraBody()).build())
        .seed(client.seed().orElse(preset.seed()))
        .metrics(metricOptions(preset.metrics(), client))
        .resultDir(workspace).resultFilename(env.get(RESULT_FILENAME.name()) + ".json")
        .progress(false)
        .build();
  }

  /** The reference's statistics plus the client settings' goodput thresholds and extra percentiles. */
  private static io.infx.client.MetricOptions metricOptions(io.infx.client.MetricOptions preset, ClientSettings client) {
    if (client.goodputMillis().isEmpty() && client.extraPercentiles().isEmpty()) {
      return preset;
    }
    java.util.TreeSet<Double> percentiles = new java.util.TreeSet<>(preset.metricPercentiles());
    percentiles.addAll(client.extraPercentiles());
    return io.infx.client.MetricOptions.builder().from(preset).goodput(client.goodputMillis())
        .metricPercentiles(List.copyOf(percentiles)).build();
  }

  private static ReadinessProbe.Liveness startServer(ServerSpec server, Path workspace, Map<String, String> env,
      int port, io.infx.fleet.spi.SchedulerBackend backend, Lifecycle life, LogSink log) {
    if (server instanceof ServerSpec.External x) {
      log.line("server", "benchmarking the running server at " + x.baseUrl() + " (nothing started)");
      return OptionalInt::empty;
    }
    if (server instanceof ServerSpec.Held h) {
      log.line("server", "benchmarking the server kept up at " + h.baseUrl() + " (started once for every point of its configuration)");
      return h.alive();
    }
    if (server instanceof ServerSpec.Embedded e) {
      // the row's TP / EP / DP-attention shape the simulated capacity (docs/simulator.md)
      SimConfig cfg = SimConfig.builder().from(e.config()).port(port).model(env.get(MODEL.name()))
          .parallelism(simParallelism(env)).build();
      SimServer sim = SimServer.start(cfg);
      life.onClose("stop simulator", sim::close);
      log.line("server", "infx simulator serving " + cfg.model() + " at " + sim.baseUri());
      return OptionalInt::empty;
    }
    ServerSpec.Command c = (ServerSpec.Command) server;
    // Named after the runner, so a container or process left by a crashed launch is recognisable.
    String name = "infx-server-" + RUNNER_NAME.in(env, "local");
    JobSpec spec = JobSpec.builder().name(name).command(List.of("bash", "-c", c.shellCommand()))
        .env(env).workspace(workspace).logFile("server.log")
        .image(IMAGE.in(env).filter(s -> !s.isBlank()))
        .gpus(GPU_COUNT.intIn(env).orElse(0))
        .build();
    // started and registered as one step: a SIGTERM right after the start still stops the server
    JobHandle h = life.startOwned("stop server", () -> backend.start(spec),
        started -> () -> backend.cancel(started, c.stopTimeout()));
    // Stream server.log while we wait and while the client runs.
    Thread follower = new Thread(() -> backend.await(h, Duration.ofDays(365), (src, line) -> log.line("server", line)),
        "infx-server-log");
    follower.setDaemon(true);
    follower.start();
    return () -> {
      JobStatus s = backend.status(h);
      return s.state().isTerminal() ? OptionalInt.of(s.exitCode().orElse(1)) : OptionalInt.empty();
    };
  }

  /**
   * The simulator's parallelism from the point's {@code TP}, {@code EP_SIZE} and {@code
   * DP_ATTENTION} (absent: 1, 1, false); EP is capped at TP, the simulator's model of EP.
   */
  public static io.infx.client.sim.SimParallelism simParallelism(Map<String, String> env) {
    int tp = Math.max(1, TP.intIn(env).orElse(1));
    int ep = Math.min(tp, Math.max(1, EP_SIZE.intIn(env).orElse(1)));
    return new io.infx.client.sim.SimParallelism(tp, ep, DP_ATTENTION.isOnIn(env));
  }

  private static int requiredInt(Map<String, String> env, LaunchVariable v) {
    require(env, v);
    return v.intIn(env).orElseThrow();
  }

  private static String require(Map<String, String> env, LaunchVariable v) {
    return v.in(env).filter(s -> !s.isBlank()).orElseThrow(() ->
        new InfxException(ErrorKind.ENV, "environment variable " + v + " is missing or empty"));
  }
}
