package io.infx.client.agentx;

import java.util.Arrays;

/**
 * The 64-token KV-block ids of one recorded prompt, stored as a shared prefix of another prompt's
 * ids plus a tail. Consecutive turns of a conversation repeat almost all of their predecessor's
 * ids, so a corpus of ~100k long-context requests takes a few MB instead of hundreds.
 *
 * <p>Immutable and thread-safe.
 */
public final class HashIds {

  private static final int[] NONE = new int[0];
  /** Ids with no shared part. */
  public static final HashIds EMPTY = new HashIds(null, 0, NONE);

  private final HashIds base;
  private final int baseLength;
  private final int[] tail;
  private final int size;
  private final int depth;

  private HashIds(HashIds base, int baseLength, int[] tail) {
    this.base = base;
    this.baseLength = baseLength;
    this.tail = tail;
    this.size = baseLength + tail.length;
    this.depth = base == null ? 0 : base.depth + 1;
  }

  /** Ids given in full. */
  public static HashIds of(int... ids) {
    return ids.length == 0 ? EMPTY : new HashIds(null, 0, ids.clone());
  }

  /**
   * {@code ids}, stored as the prefix they share with {@code previous} plus the rest. Chains are
   * cut every 64 links so that materializing stays cheap.
   */
  public static HashIds sharing(HashIds previous, int[] previousIds, int[] ids) {
    int lcp = 0;
    int max = Math.min(previousIds.length, ids.length);
    while (lcp < max && previousIds[lcp] == ids[lcp]) {
      lcp++;
    }
    if (lcp == 0 || previous == null || previous.depth >= 64) {
      return of(ids);
    }
    return new HashIds(previous, lcp, Arrays.copyOfRange(ids, lcp, ids.length));
  }

  /** Number of blocks. */
  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** The ids, materialized into a new array. */
  public int[] toArray() {
    HashIds[] chain = new HashIds[depth + 1];
    int max = 0;
    HashIds n = this;
    for (int i = depth; i >= 0; i--) {
      chain[i] = n;
      max = Math.max(max, n.size);
      n = n.base;
    }
    int[] out = new int[max];
    for (HashIds link : chain) {
      System.arraycopy(link.tail, 0, out, link.baseLength, link.tail.length);
    }
    return size == max ? out : Arrays.copyOf(out, size);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HashIds h && Arrays.equals(toArray(), h.toArray());
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(toArray());
  }

  @Override
  public String toString() {
    return Arrays.toString(toArray());
  }
}
