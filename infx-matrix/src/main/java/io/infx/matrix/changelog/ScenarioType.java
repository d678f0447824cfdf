package io.infx.matrix.changelog;

import java.util.Optional;

/** The two benchmark scenario kinds a changelog entry may restrict itself to, in canonical order. */
public enum ScenarioType {
  /** Synthetic fixed ISL/OSL requests ({@code fixed-seq-len}). */
  FIXED_SEQ_LEN("fixed-seq-len"),
  /** AgentX agentic trace replay ({@code agentic-coding}). */
  AGENTIC_CODING("agentic-coding");

  private final String wireName;

  ScenarioType(String wireName) {
    this.wireName = wireName;
  }

  /** The YAML/JSON spelling, e.g. {@code fixed-seq-len}. */
  public String wireName() {
    return wireName;
  }

  /** The constant spelled {@code name} in YAML, if any. */
  public static Optional<ScenarioType> fromWireName(String name) {
    for (ScenarioType t : values()) {
      if (t.wireName.equals(name)) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
