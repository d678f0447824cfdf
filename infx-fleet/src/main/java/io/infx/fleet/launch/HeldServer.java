package io.infx.fleet.launch;

import static io.infx.core.Wording.setting;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.core.secret.Redactor;
import io.infx.fleet.LaunchEnv;
import io.infx.fleet.bench.BenchDriver;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.container.ContainerAdapter;
import io.infx.fleet.container.ContainerBackend;
import io.infx.fleet.local.LocalProcessBackend;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.JobEvents;
import io.infx.fleet.spi.Lifecycle;
import io.infx.fleet.spi.LogSink;
import io.infx.fleet.spi.SchedulerBackend;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * A point's server started once and kept up for several points — the probes of one configuration
 * in {@code infx search}, which differ only in their load, so restarting the engine per probe would
 * cost a model load each time and measure nothing more. The server is started exactly as a point's
 * bench driver starts it ({@link BenchDriver#start}: the embedded simulator with the row's TP/EP/DP
 * shape, a recipe's command as a child process or in the row's image, or only a readiness check for
 * a server already running), with the environment of the point given — for a search, its largest
 * load, so an engine sized by {@code CONC} (llama.cpp's {@code -np}) has a slot for every probe.
 * Points then run against {@link #spec()} ({@link ServerSpec.Held}): nothing is started or stopped
 * per point, and a point fails when the server died.
 *
 * <p>Adapters: {@code local} (child process or the simulator in this JVM) and {@code container}
 * (the command in the row's image, host networking); a Slurm job starts its server on the node for
 * one point and cannot hold it. {@link #close()} stops the server (SIGTERM, then SIGKILL after the
 * command's stop timeout) and writes {@code server_event.json} (stage timings, first error) into
 * the workspace, where {@code server.log} is too.
 */
public final class HeldServer implements AutoCloseable {

  private final Lifecycle life;
  private final BenchDriver.Started started;
  private final ServerSpec.Held spec;
  private final Path workspace;
  private final Duration startup;
  private final String description;

  private HeldServer(Lifecycle life, BenchDriver.Started started, String healthPath, Path workspace,
      Duration startup, String description) {
    this.life = life;
    this.started = started;
    this.spec = new ServerSpec.Held(started.baseUrl(), healthPath, started.simulated(), started.alive());
    this.workspace = workspace;
    this.startup = startup;
    this.description = description;
  }

  /**
   * Starts {@code server} with {@code env} on {@code adapter} and waits until it is ready.
   *
   * @param env the launch environment of the point whose shape the server takes (its row's TP, EP,
   *     DP-attention, {@code CONC}, …); {@code PORT} is chosen free unless it holds one
   * @param server what to start
   * @param adapter {@code local} or {@code container}
   * @param options the adapter's options ({@code container.engine}, …)
   * @param workspace where {@code server.log} and {@code server_event.json} go (created)
   * @param readinessTimeout how long the server may take to answer its health endpoint
   * @param log the server's output, line by line
   * @throws UsageException for an adapter that cannot hold a server, or a container adapter without
   *     a server command
   * @throws InfxException kind {@code server} when it did not start or become ready (whatever was
   *     started is stopped again), kind {@code file} when the workspace cannot be created
   */
  public static HeldServer start(LaunchEnv env, ServerSpec server, String adapter, AdapterOptions options,
      Path workspace, Duration readinessTimeout, LogSink log) {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(adapter, "adapter");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(readinessTimeout, "readinessTimeout");
    Objects.requireNonNull(log, "log");
    if (server instanceof ServerSpec.Held) {
      throw new IllegalArgumentException("the server is already held");
    }
    Path ws = workspace.toAbsolutePath().normalize();
    try {
      Files.createDirectories(ws);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot create " + ws + ": " + e.getMessage(), e);
    }
    SchedulerBackend backend = backend(adapter, options, server, ws);
    Redactor redactor = Redactor.forProcess().with(Redactor.fromEnvironment(env.values()));
    JobEvents events = new JobEvents().redactWith(redactor)
        .identity("held_for", env.resultFilename())
        .identity("adapter", adapter)
        .identity("started_at", Instant.now().toString());
    Lifecycle life = new Lifecycle(events);
    LogSink redacted = (src, line) -> log.line(src, redactor.redact(line));
    long t0 = System.nanoTime();
    BenchDriver.Started started;
    try {
      started = BenchDriver.start(env.values(), server, ws, readinessTimeout, backend, life, redacted);
    } catch (RuntimeException e) {
      life.record(1);
      life.close();
      events.finish("failed", 1);
      events.write(ws.resolve("server_event.json"));
      throw e;
    }
    Duration took = Duration.ofNanos(System.nanoTime() - t0);
    String healthPath = server instanceof ServerSpec.Command c ? c.healthPath() : "/health";
    String what = server instanceof ServerSpec.Embedded ? "SIMULATED: infx's embedded simulator"
        : server instanceof ServerSpec.Command ? "the recipe's engine (" + adapter + ")" : "the running server";
    events.identity("base_url", started.baseUrl().toString());
    return new HeldServer(life, started, healthPath, ws, took, what + " at " + started.baseUrl());
  }

  private static SchedulerBackend backend(String adapter, AdapterOptions options, ServerSpec server, Path ws) {
    switch (adapter) {
      case "local" -> {
        options.requireKnown("local.", java.util.Set.of());
        return new LocalProcessBackend();
      }
      case "container" -> {
        if (server instanceof ServerSpec.Embedded) {
          throw new UsageException(Wording.of("the container adapter runs a server command inside the row's"
              + " image; pass ", setting("serverCommand"), " or recipes"));
        }
        ContainerBackend c = ContainerAdapter.backend(options, ws);
        if (server instanceof ServerSpec.Command && !c.available()) {
          throw new InfxException(ErrorKind.SERVER, c.scheduler() + " not found on PATH: the container adapter needs"
              + " a container engine (docker, podman or enroot; choose with container.engine=…)");
        }
        return c;
      }
      default -> throw new UsageException("adapter '" + adapter + "' cannot keep a server up across points"
          + " (its jobs start and stop their own server): use the local or container adapter");
    }
  }

  /** What points run against: this server, with its liveness. */
  public ServerSpec.Held spec() {
    return spec;
  }

  public URI baseUrl() {
    return started.baseUrl();
  }

  /** Whether this is the embedded simulator. */
  public boolean simulated() {
    return started.simulated();
  }

  /** Empty while the server lives, its exit code once it died. */
  public OptionalInt exitCode() {
    return started.alive().exitCode();
  }

  /** How long it took from start to ready. */
  public Duration startup() {
    return startup;
  }

  /** Where {@code server.log} and {@code server_event.json} are. */
  public Path workspace() {
    return workspace;
  }

  /** One line for logs and reports, e.g. {@code the recipe's engine (local) at http://127.0.0.1:40123}. */
  public String description() {
    return description;
  }

  /** Stops the server (idempotent) and writes {@code server_event.json}. */
  @Override
  public void close() {
    if (life.isClosing()) {
      return;
    }
    life.close();
    life.events().identity("stopped_at", Instant.now().toString());
    life.events().finish(life.exitCode() == 0 ? "stopped" : "failed", life.exitCode());
    life.events().write(workspace.resolve("server_event.json"));
  }
}
