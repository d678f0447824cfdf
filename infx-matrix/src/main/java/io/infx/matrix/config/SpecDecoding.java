package io.infx.matrix.config;

import io.infx.core.bind.Wire;

/** Speculative decoding mode of a deployment ({@code spec-decoding}). */
@io.infx.core.bind.Rule("V15.spec-decoding")
public enum SpecDecoding {
  /** Multi-token prediction with a built-in draft head (EAGLE, NEXTN). */
  MTP,
  /** Speculative decoding with a separate draft model. */
  @Wire("draft_model")
  DRAFT_MODEL,
  /** Plain decoding (single-token prediction). */
  NONE;

  /** The value as written in YAML and matrix rows. */
  public String wire() {
    return this == DRAFT_MODEL ? "draft_model" : name().toLowerCase(java.util.Locale.ROOT);
  }
}
