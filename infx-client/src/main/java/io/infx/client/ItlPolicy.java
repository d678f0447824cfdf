package io.infx.client;

/**
 * How the tokens of a streamed response were attributed to its chunks for per-token ITL (see
 * {@link PerTokenItl}), recorded per request and reported per run. Ordered from the most to the
 * least exact.
 */
public enum ItlPolicy {
  /**
   * Continuous usage stats: {@code usage.completion_tokens} (cumulative) on every token chunk; a
   * chunk's tokens are the delta to the previous token chunk. Exact as far as the server's counts.
   */
  USAGE_DELTAS("usage-deltas"),
  /**
   * The final {@code usage.completion_tokens} equals the number of token chunks: since every
   * chunk that carries text, reasoning or a tool call carries at least one token, each carried
   * exactly one. Exact, no tokenizer needed (llama.cpp and vLLM's default streaming).
   */
  USAGE_TOTAL("usage-total"),
  /**
   * The run's tokenizer counted each chunk's tokens (bounded by the final
   * {@code usage.completion_tokens} when the server sent one). An estimate: exact when the
   * client's tokenizer is the server's and re-tokenizing a chunk gives the tokens the server
   * generated.
   */
  TOKENIZER("tokenizer"),
  /**
   * Nothing to count with (no usage deltas, no tokenizer, a usage total that does not match the
   * chunks): one entry per chunk gap — per-token ITL is then the reference's per-chunk ITL.
   */
  PER_CHUNK("per-chunk");

  private final String label;

  ItlPolicy(String label) {
    this.label = label;
  }

  /** The label written to the result JSON and the console ({@code usage-deltas}, …). */
  public String label() {
    return label;
  }

  /** True when the per-chunk token counts came from the server's own usage counts. */
  public boolean fromUsage() {
    return this == USAGE_DELTAS || this == USAGE_TOTAL;
  }
}
