package io.infx.client.dataset;

import java.util.Objects;

/**
 * One prompt of a fixed-sequence workload.
 *
 * @param text the prompt text sent to the server
 * @param promptTokens its length in tokens by the client's tokenizer (the reference's
 *     {@code prompt_len}, recorded in {@code input_lens})
 * @param outputTokens requested output length, sent as {@code max_tokens}
 */
public record Prompt(String text, int promptTokens, int outputTokens) {
  public Prompt {
    Objects.requireNonNull(text, "text");
    if (promptTokens < 0 || outputTokens < 1) {
      throw new IllegalArgumentException("promptTokens ≥ 0 and outputTokens ≥ 1 required: "
          + promptTokens + ", " + outputTokens);
    }
  }
}
