package io.infx.fleet.bench;

import io.infx.client.sim.SimConfig;
import io.infx.fleet.local.LocalProcessBackend;
import io.infx.fleet.spi.JobEvents;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.Lifecycle;
import io.infx.fleet.spi.LogSink;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Map;

/**
 * The bench driver as a program, for jobs that run on another node (Slurm, containers): reads the
 * point from its environment (the projected {@code LaunchEnv}, exported to the job), runs
 * {@link BenchDriver} with the server as a local child process, writes {@code job_step_event.json}
 * and exits with the status {@link JobStatus#launcherExitCode()} gives. SIGTERM/SIGINT (e.g.
 * {@code scancel}) stop the server before exiting {@code 128+N}.
 *
 * <pre>java -cp CLASSPATH io.infx.fleet.bench.BenchMain --workspace DIR [--server-cmd CMD]
 *     [--server-env NAME=VALUE]… [--health PATH] [--stop-timeout SECONDS] [--endpoint PATH]
 *     [--extra-body JSON] [--use-chat-template true|false] [--chat-template PATH]
 *     [--readiness-timeout SECONDS] [--backend vllm] [--tokenizer T] [--num-prompts N] [--num-warmups N]
 *     [--eval-cmd CMD] [--eval-tasks TASKS] [--eval-limit N]</pre>
 */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.getenv(), new PrintWriter(System.out, true)));
  }

  static int run(String[] args, Map<String, String> env, PrintWriter out) {
    Deque<String> a = new ArrayDeque<>(Arrays.asList(args));
    Path workspace = Path.of(".");
    ServerSpec server = new ServerSpec.Embedded(SimConfig.defaults());
    Duration readiness = Duration.ofMinutes(10);
    var client = ClientSettings.builder();
    var eval = EvalSettings.builder();
    String serverCmd = null;
    Map<String, String> serverEnv = new java.util.LinkedHashMap<>();
    String health = "/health";
    Duration stopTimeout = Duration.ofSeconds(30);
    while (!a.isEmpty()) {
      String opt = a.poll();
      String val = a.poll();
      if (val == null) {
        out.println("infx bench: " + opt + " needs a value");
        return 2;
      }
      switch (opt) {
        case "--workspace" -> workspace = Path.of(val);
        case "--server-cmd" -> serverCmd = val;
        case "--server-env" -> {
          int eq = val.indexOf('=');
          if (eq <= 0) {
            out.println("infx bench: --server-env takes NAME=VALUE, got " + val);
            return 2;
          }
          serverEnv.put(val.substring(0, eq), val.substring(eq + 1));
        }
        case "--health" -> health = val;
        case "--stop-timeout" -> stopTimeout = Duration.ofSeconds(Long.parseLong(val));
        case "--endpoint" -> client.endpoint(val);
        case "--extra-body" -> {
          try {
            client.extraBody(io.infx.core.json.Json.mapper().readValue(val,
                new com.fasterxml.jackson.core.type.TypeReference<java.util.LinkedHashMap<String, Object>>() { }));
          } catch (java.io.IOException e) {
            out.println("infx bench: --extra-body must be a JSON object: " + e.getMessage());
            return 2;
          }
        }
        case "--use-chat-template" -> client.useChatTemplate(Boolean.parseBoolean(val));
        case "--chat-template" -> client.chatTemplate(java.nio.file.Path.of(val));
        case "--readiness-timeout" -> readiness = Duration.ofSeconds(Long.parseLong(val));
        case "--backend" -> client.backend(val);
        case "--tokenizer" -> client.tokenizer(val);
        case "--num-prompts" -> client.numPrompts(Integer.parseInt(val));
        case "--num-warmups" -> client.numWarmups(Integer.parseInt(val));
        case "--eval-cmd" -> eval.command(val);
        case "--eval-tasks" -> eval.tasks(val);
        case "--eval-limit" -> eval.limit(Integer.parseInt(val));
        default -> {
          out.println("infx bench: unknown option " + opt);
          return 2;
        }
      }
    }
    if (serverCmd != null) {
      server = new ServerSpec.Command(serverCmd, serverEnv, health, stopTimeout);
    }
    Path ws = workspace;
    JobEvents events = new JobEvents();
    Lifecycle life = new Lifecycle(events);
    // A signal and the normal end race to write the event: whoever comes first owns it.
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    Signals.onTermination(signal -> {
      if (!done.compareAndSet(false, true)) {
        return;
      }
      int rc = life.closeOnSignal(signal);
      events.write(ws.resolve("job_step_event.json"));
      Runtime.getRuntime().halt(rc);
    });
    LogSink log = LogSink.to(out);
    JobStatus status;
    try {
      status = BenchDriver.run(new BenchDriver.Plan(env, workspace, server, client.eval(eval.build()).build(), readiness),
          new LocalProcessBackend(), life, log);
      life.record(status.launcherExitCode());
    } finally {
      life.close();
    }
    if (!done.compareAndSet(false, true)) {
      try {
        Thread.sleep(Long.MAX_VALUE); // the signal handler finishes and halts the JVM
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    events.finish(status.succeeded() ? "succeeded" : "failed", life.exitCode());
    events.write(workspace.resolve("job_step_event.json"));
    events.firstError().ifPresent(e -> out.println("infx bench: " + e.stage() + ": " + e.message()));
    return life.exitCode();
  }
}
