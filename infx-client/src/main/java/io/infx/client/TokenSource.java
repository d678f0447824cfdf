package io.infx.client;

/** Where a request's output token count came from (provenance, recorded per request). */
public enum TokenSource {
  /** {@code usage.completion_tokens} from a chunk that carried usage (any chunk, last one wins). */
  USAGE("usage"),
  /** The client's tokenizer applied to the generated text (usage absent or without the count). */
  TOKENIZER("tokenizer"),
  /** The number of token-carrying chunks (no usage and no retained text). */
  CHUNKS("chunks"),
  /** The request failed; no count. */
  NONE("none");

  private final String label;

  TokenSource(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
