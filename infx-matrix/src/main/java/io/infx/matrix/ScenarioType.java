package io.infx.matrix;

import java.util.Optional;

/** The scenario lists of a master config. */
public enum ScenarioType {
  /** Synthetic fixed ISL/OSL benchmark ({@code fixed-seq-len}). */
  FIXED_SEQ_LEN("fixed-seq-len"),
  /** AgentX trace replay ({@code agentic-coding}). */
  AGENTIC_CODING("agentic-coding");

  private final String wire;

  ScenarioType(String wire) {
    this.wire = wire;
  }

  /** The name used in YAML, rows and on the command line. */
  public String wire() {
    return wire;
  }

  public static Optional<ScenarioType> fromWire(String s) {
    for (ScenarioType t : values()) {
      if (t.wire.equals(s)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }
}
