package io.infx.matrix.config;

/** Where an agentic deployment offloads KV cache ({@code kv-offloading}). */
@io.infx.core.bind.Rule("V24.kv-offloading")
public enum KvOffloading {
  /** No offload. */
  NONE,
  /** Host DRAM, through a {@code kv-offload-backend}. */
  DRAM;

  /** The value as written in YAML and matrix rows. */
  public String wire() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
