package io.infx.client.tokenizer;

/**
 * A tokenizer as the client needs it: building random prompts, counting prompt tokens and, when
 * a server reports no usage, counting output tokens. Implementations never add special tokens
 * and never truncate. Thread-safe.
 */
public interface Tokenizer extends AutoCloseable {

  /** A stable id recorded as {@code tokenizer_id} context (e.g. {@code builtin}, a file path). */
  String id();

  /** Size of the base vocabulary (added/special tokens excluded), as HF's {@code vocab_size}. */
  int vocabSize();

  /** Token ids of {@code text}, without special tokens and without truncation. */
  int[] encode(String text);

  /** Text of {@code ids} (special tokens skipped). */
  String decode(int[] ids);

  /** Number of tokens of {@code text}. */
  default int count(String text) {
    return encode(text).length;
  }

  @Override
  default void close() {}
}
