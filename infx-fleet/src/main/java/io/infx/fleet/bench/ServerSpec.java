package io.infx.fleet.bench;

import io.infx.client.sim.SimConfig;
import java.util.Objects;

/**
 * The inference server of a point: the embedded simulator (the default — no GPU needed) or any
 * command that starts an OpenAI-compatible server listening on {@code $PORT} and answering
 * {@code GET /health} once ready (e.g. {@code vllm serve $MODEL --port $PORT --tensor-parallel-size $TP}).
 */
public sealed interface ServerSpec {

  /** The in-process simulator of {@code infx-client} ({@code infx sim}). */
  record Embedded(SimConfig config) implements ServerSpec {
    public Embedded {
      Objects.requireNonNull(config, "config");
    }
  }

  /**
   * A server started as a child process (or in a container) with the point's environment plus
   * {@code env} plus {@code PORT}; run by {@code bash -c}, so {@code $MODEL}, {@code $TP}, … expand.
   * Ready when {@code healthPath} answers 200 while the process lives; stopped with SIGTERM, then
   * SIGKILL after {@code stopTimeout}.
   */
  record Command(String shellCommand, java.util.Map<String, String> env, String healthPath,
      java.time.Duration stopTimeout) implements ServerSpec {
    public Command {
      if (shellCommand == null || shellCommand.isBlank()) {
        throw new IllegalArgumentException("server command is empty");
      }
      env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
      if (healthPath == null || !healthPath.startsWith("/")) {
        throw new IllegalArgumentException("health path must start with '/', got " + healthPath);
      }
      if (stopTimeout.isNegative()) {
        throw new IllegalArgumentException("stop timeout must be >= 0");
      }
    }

    /** A command with no extra environment, readiness on {@code /health}, 30 s to stop. */
    public Command(String shellCommand) {
      this(shellCommand, java.util.Map.of(), "/health", java.time.Duration.ofSeconds(30));
    }
  }

  /**
   * A server that is already running (e.g. {@code infx run --endpoint URL}): nothing is started or
   * stopped; readiness is {@code GET <baseUrl>/health}, and the client sends to {@code baseUrl}.
   */
  record External(java.net.URI baseUrl) implements ServerSpec {
    public External {
      Objects.requireNonNull(baseUrl, "baseUrl");
      if (baseUrl.getHost() == null || baseUrl.getPort() < 0 && baseUrl.getScheme() == null) {
        throw new IllegalArgumentException("endpoint must be an http URL with a host, got " + baseUrl);
      }
    }
  }

  /**
   * A server this process started and keeps up across several points ({@code infx search}: the probes
   * of one configuration; {@link io.infx.fleet.launch.HeldServer}): nothing is started or stopped
   * per point; readiness is {@code GET <baseUrl><healthPath>} while {@code alive} says the server
   * lives, and a point fails when it died during the run.
   *
   * @param baseUrl where it listens, e.g. {@code http://127.0.0.1:40123}
   * @param healthPath its readiness path ({@code /health})
   * @param simulated whether it is the embedded simulator (the client then uses the built-in tokenizer)
   * @param alive empty while the server lives, its exit code once it died
   */
  record Held(java.net.URI baseUrl, String healthPath, boolean simulated,
      io.infx.fleet.spi.ReadinessProbe.Liveness alive) implements ServerSpec {
    public Held {
      Objects.requireNonNull(baseUrl, "baseUrl");
      Objects.requireNonNull(alive, "alive");
      if (healthPath == null || !healthPath.startsWith("/")) {
        throw new IllegalArgumentException("health path must start with '/', got " + healthPath);
      }
    }
  }

  /** The simulator with its defaults. */
  static ServerSpec simulator() {
    return new Embedded(SimConfig.defaults());
  }
}
