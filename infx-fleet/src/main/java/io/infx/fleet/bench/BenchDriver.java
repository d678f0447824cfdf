package io.infx.fleet.bench;

import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.ServeJob;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.InfxException;
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

  private static int numPrompts(Plan plan, int conc) {
    return plan.client().numPrompts().orElseGet(() -> perConc(10, conc, "prompts"));
  }

  private static int numWarmups(Plan plan, int conc) {
    return plan.client().numWarmups().orElseGet(() -> perConc(2, conc, "warm-ups"));
  }

  /** {@code per × conc} requests, refused (never wrapped to a negative count) past 2^31 − 1. */
  static int perConc(int per, int conc, String what) {
    try {
      return Math.multiplyExact(per, conc);
    } catch (ArithmeticException e) {
      throw new InfxException("input", "CONC " + conc + " × " + per + " " + what
          + " exceeds the largest request count (2147483647)");
    }
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
      conc = intVar(env, "CONC");
      numPrompts(plan, conc); // an overflowing 10 × conc is an input error here, before the server
      numWarmups(plan, conc);
      isl = intVar(env, "ISL");
      osl = intVar(env, "OSL");
      ratio = Double.parseDouble(env.getOrDefault("RANDOM_RANGE_RATIO", "0.8"));
      require(env, "MODEL");
      require(env, "RESULT_FILENAME");
    } catch (InfxException | NumberFormatException e) {
      life.events().fail("env", FailureKind.INPUT, e.getMessage(), 1);
      return JobStatus.of(JobState.FAILED, "bad environment", 1);
    }
    java.util.Optional<URI> external = plan.server() instanceof ServerSpec.External x
        ? java.util.Optional.of(x.baseUrl()) : java.util.Optional.empty();
    int port = external.isPresent() ? external.get().getPort()
        : env.containsKey("PORT") && !env.get("PORT").isBlank() ? Integer.parseInt(env.get("PORT"))
        : Ports.ephemeral();
    URI base = external.map(u -> URI.create(u.toString().replaceAll("/+$", "")))
        .orElse(URI.create("http://127.0.0.1:" + port));
    Map<String, String> serverEnv = new LinkedHashMap<>(env);
    if (plan.server() instanceof ServerSpec.Command c) {
      serverEnv.putAll(c.env());
    }
    serverEnv.put("PORT", Integer.toString(port));
    boolean simulated = plan.server() instanceof ServerSpec.Embedded;

    // 1. server
    ReadinessProbe.Liveness alive;
    try {
      alive = life.events().timed("server", () -> startServer(plan, serverEnv, port, serverBackend, life, log));
    } catch (Exception e) {
      life.events().fail("server", FailureKind.SERVER, e.getMessage(), 1);
      return JobStatus.of(JobState.FAILED, "server did not start: " + e.getMessage(), 1);
    }

    // 2. readiness
    String healthPath = plan.server() instanceof ServerSpec.Command c ? c.healthPath() : "/health";
    URI health = URI.create(base + healthPath);
    try {
      life.events().timed("readiness", () -> ReadinessProbe.http(health).timeout(plan.readinessTimeout())
          .pollEvery(Duration.ofMillis(simulated ? 100 : 1000)).awaitReady(alive, null));
    } catch (Exception e) {
      life.events().fail("readiness", FailureKind.SERVER, e.getMessage(), 1);
      return JobStatus.of(JobState.FAILED, e.getMessage(), 1);
    }

    boolean evalOnly = "true".equalsIgnoreCase(env.getOrDefault("EVAL_ONLY", "false").strip());
    boolean runEval = evalOnly || "true".equalsIgnoreCase(env.getOrDefault("RUN_EVAL", "false").strip());
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

  /** Step 3, the load generator; a failed status when it did not complete. */
  private static Optional<JobStatus> runClient(Plan plan, Map<String, String> env, URI base, int conc,
      int isl, int osl, double ratio, boolean simulated, ReadinessProbe.Liveness alive, Lifecycle life,
      LogSink log) {
    ServeJob job = ServeJob.builder()
        .backend(ServingBackend.parse(plan.client().backend()))
        .baseUrl(base)
        .model(env.get("MODEL"))
        .tokenizer(plan.client().tokenizer().or(() -> simulated ? Optional.of("builtin") : Optional.empty()))
        .numPrompts(numPrompts(plan, conc))
        .numWarmups(numWarmups(plan, conc))
        .randomInputLen(isl).randomOutputLen(osl).randomRangeRatio(ratio)
        .useChatTemplate(plan.client().useChatTemplate())
        .chatTemplate(plan.client().chatTemplate())
        .maxConcurrency(conc)
        .endpoint(plan.client().endpoint())
        .body(BodyOptions.builder().ignoreEos(true).extraBody(plan.client().extraBody()).build())
        .saveResult(true).resultDir(plan.workspace()).resultFilename(env.get("RESULT_FILENAME") + ".json")
        .progress(false)
        .build();
    ServeJob.Outcome outcome;
    try (PrintWriter out = SinkWriter.of(log, "client"); PrintWriter err = SinkWriter.of(log, "client")) {
      outcome = life.events().timed("client", () -> job.run(out, err));
    } catch (Exception e) {
      life.events().fail("client", FailureKind.CLIENT, e.getMessage(), 1);
      return Optional.of(JobStatus.of(JobState.FAILED, "client failed: " + e.getMessage(), 1));
    }
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

  private static ReadinessProbe.Liveness startServer(Plan plan, Map<String, String> env, int port,
      io.infx.fleet.spi.SchedulerBackend backend, Lifecycle life, LogSink log) {
    if (plan.server() instanceof ServerSpec.External x) {
      log.line("server", "benchmarking the running server at " + x.baseUrl() + " (nothing started)");
      return OptionalInt::empty;
    }
    if (plan.server() instanceof ServerSpec.Embedded e) {
      // the row's TP / EP / DP-attention shape the simulated capacity (docs/simulator.md)
      SimConfig cfg = SimConfig.builder().from(e.config()).port(port).model(env.get("MODEL"))
          .parallelism(simParallelism(env)).build();
      SimServer sim = SimServer.start(cfg);
      life.onClose("stop simulator", sim::close);
      log.line("server", "infx simulator serving " + cfg.model() + " at " + sim.baseUri());
      return OptionalInt::empty;
    }
    ServerSpec.Command c = (ServerSpec.Command) plan.server();
    // Named after the runner, so a container or process left by a crashed launch is recognisable.
    String name = "infx-server-" + env.getOrDefault("RUNNER_NAME", "local");
    JobSpec spec = JobSpec.builder().name(name).command(List.of("bash", "-c", c.shellCommand()))
        .env(env).workspace(plan.workspace()).logFile("server.log")
        .image(Optional.ofNullable(env.get("IMAGE")).filter(s -> !s.isBlank()))
        .gpus(parseOr(env.get("GPU_COUNT"), 0))
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
    int tp = Math.max(1, parseOr(env.get("TP"), 1));
    int ep = Math.min(tp, Math.max(1, parseOr(env.get("EP_SIZE"), 1)));
    return new io.infx.client.sim.SimParallelism(tp, ep, "true".equalsIgnoreCase(
        String.valueOf(env.get("DP_ATTENTION")).strip()));
  }

  private static int intVar(Map<String, String> env, String name) {
    String v = require(env, name);
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new InfxException("env", name + " must be an integer, got '" + v + "'");
    }
  }

  private static String require(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      throw new InfxException("env", "environment variable " + name + " is missing or empty");
    }
    return v;
  }

  private static int parseOr(String s, int dflt) {
    try {
      return s == null ? dflt : Integer.parseInt(s.strip());
    } catch (NumberFormatException e) {
      return dflt;
    }
  }
}
