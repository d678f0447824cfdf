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
   * {@code PORT}; run by {@code bash -c}, so {@code $MODEL}, {@code $TP}, … expand.
   */
  record Command(String shellCommand) implements ServerSpec {
    public Command {
      if (shellCommand == null || shellCommand.isBlank()) {
        throw new IllegalArgumentException("server command is empty");
      }
    }
  }

  /** The simulator with its defaults. */
  static ServerSpec simulator() {
    return new Embedded(SimConfig.defaults());
  }
}
