package io.infx.client.agentx.internal;

import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.client.tokenizer.Tokenizer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Deterministic filler text for one KV block: the same (namespace, block id) always gives the same
 * bytes, so prompts that share hash ids share bytes, and the server's prefix cache sees the reuse
 * the trace recorded. Different ids, namespaces or seeds give unrelated text.
 *
 * <p>With the built-in tokenizer a block of {@code n} tokens is exactly {@code n} tokens (its
 * vocabulary round-trips and every token carries its leading space). With another tokenizer the
 * block is decoded from random ids and re-encoded until it has {@code n} tokens, where possible;
 * texts are kept in a bounded LRU because decoding through a native tokenizer is slow.
 */
public final class BlockText {

  private static final int CACHE_BLOCKS = 65_536;

  private final long seed;
  private final Tokenizer tokenizer;
  private final Map<Long, String> cache;

  /** @param tokenizer {@code null} or the built-in tokenizer for the exact fast path */
  public BlockText(long seed, Tokenizer tokenizer) {
    this.seed = seed;
    this.tokenizer = tokenizer instanceof BuiltinTokenizer ? null : tokenizer;
    this.cache = this.tokenizer == null ? null : new LinkedHashMap<>(1024, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
        return size() > CACHE_BLOCKS;
      }
    };
  }

  /** A 64-bit key of a block in a namespace. */
  public long key(long namespace, long id) {
    return mix(mix(seed ^ 0x5DEECE66DL, namespace), id);
  }

  /** Where block text goes: a StringBuilder ({@code sb::append}) or a JSON body. */
  @FunctionalInterface
  public interface Sink {
    void append(String piece);
  }

  /** Appends the first {@code tokens} tokens of the block {@code key} (of {@code blockSize}). */
  public void append(StringBuilder out, long key, int tokens, int blockSize) {
    append((Sink) out::append, key, tokens, blockSize);
  }

  /** Appends the first {@code tokens} tokens of the block {@code key} (of {@code blockSize}). */
  public void append(Sink out, long key, int tokens, int blockSize) {
    if (tokenizer == null) {
      // SplitMix64 inline: a deterministic id stream per key, without allocating a generator
      long state = key;
      for (int i = 0; i < tokens; i++) {
        state += 0x9E3779B97F4A7C15L;
        long z = state;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        out.append(BuiltinTokenizer.tokenText((int) ((z >>> 1) % BuiltinTokenizer.VOCAB_SIZE)));
      }
      return;
    }
    String text;
    synchronized (cache) {
      text = cache.get(key ^ ((long) tokens << 48));
    }
    if (text == null) {
      text = decodeExact(key, tokens);
      synchronized (cache) {
        cache.put(key ^ ((long) tokens << 48), text);
      }
    }
    out.append(text);
  }

  private String decodeExact(long key, int tokens) {
    SplittableRandom r = new SplittableRandom(key);
    int vocab = Math.max(2, tokenizer.vocabSize());
    int[] ids = new int[tokens];
    for (int i = 0; i < tokens; i++) {
      ids[i] = r.nextInt(vocab);
    }
    String text = tokenizer.decode(ids);
    for (int attempt = 0; attempt < 8; attempt++) {
      int[] back = tokenizer.encode(text);
      if (back.length == tokens) {
        return text;
      }
      int[] fixed = new int[tokens];
      System.arraycopy(back, 0, fixed, 0, Math.min(tokens, back.length));
      for (int i = back.length; i < tokens; i++) {
        fixed[i] = r.nextInt(vocab);
      }
      text = tokenizer.decode(fixed);
    }
    return text;
  }

  /** SplitMix64-style mixing of two values. */
  static long mix(long a, long b) {
    long z = a * 0x9E3779B97F4A7C15L + b + 0x632BE59BD9B4E019L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A stable 64-bit hash of a string. */
  static long hash(String s) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h = (h ^ s.charAt(i)) * 0x100000001b3L;
    }
    return mix(h, s.length());
  }
}
