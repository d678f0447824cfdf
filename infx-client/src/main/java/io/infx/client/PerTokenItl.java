package io.infx.client;

import io.infx.client.tokenizer.Tokenizer;
import java.util.List;
import java.util.Objects;

/**
 * Per-token ITL: the one home of the rule that turns a stream's chunk arrival times into one ITL
 * entry per generated token, and of the policy that says how many tokens each chunk carried.
 *
 * <h2>The entries</h2>
 * A <em>token chunk</em> is a chunk that carries text, reasoning or a tool-call delta (a role-only
 * prelude or an empty {@code content} is not one; see {@link RequestRecord}). Let token chunk
 * {@code j} arrive at {@code t_j} carrying {@code k_j} tokens. For every {@code j ≥ 1} with
 * {@code k_j > 0}, with {@code Δ_j = t_j − t_p} where {@code p} is the previous token chunk with
 * tokens, the request contributes <b>{@code k_j} entries of {@code Δ_j / k_j}</b>: the gap is
 * spread evenly over the tokens that arrived together (the server produced them one decode step
 * apart; the client cannot see the steps). Then:
 * <ul>
 *   <li>a chunk with {@code k_j = 0} (a usage delta of 0) adds no entry and does not restart the
 *       gap: its time counts towards the next chunk that carries tokens, so the entries of a
 *       request always sum to {@code t_last − t_0};
 *   <li>the {@code k_0 − 1} extra tokens of the <em>first</em> chunk add no entry: they arrived
 *       with the first token, inside TTFT, and their spacing is unknown. (vLLM PR #28183 credits
 *       them as 0 ms entries instead; that biases the mean down by {@code (k_0−1)/(N−1)}, so infx
 *       leaves them out.) A stream of {@code N} tokens therefore has {@code N − k_0} entries.
 * </ul>
 * With one token per chunk the entries are exactly the reference's per-chunk ITL.
 *
 * <p>Sources: the reference client (InferenceX's copy of vLLM's {@code benchmark_serving.py},
 * {@code backend_request_func.py}) appends one ITL entry per <em>chunk</em> (client spec §3.2:
 * with SGLang's {@code --stream-interval 10} its ITL is ≈ 10 × TPOT); vLLM issue #27485 reports
 * this as a bug, and vLLM PRs #28183, #42661 and #46652 fix it with continuous usage stats by
 * appending {@code Δ} entries of {@code dt/Δ} for a usage delta of {@code Δ} tokens — the rule
 * above. infx keeps the reference's per-chunk {@code itls} and {@code *_itl_ms} fields unchanged
 * (byte-compatible) and reports per-token ITL as an infx view ({@code itl_per_token}).
 *
 * <h2>TPOT</h2>
 * TPOT stays the reference's formula, per request {@code (E2EL − TTFT) / (N − 1)} with {@code N}
 * the output token count (client spec §5.1). With {@code k}-token chunks the time after TTFT
 * covers {@code N − k_0} tokens, so TPOT reads {@code (N − k_0)/(N − 1)} of the per-token pace
 * (3 % low for {@code N = 100, k_0 = 4}); the per-token ITL mean is the unbiased pace.
 *
 * <h2>The policy</h2>
 * {@link #attribute} picks, per request, the first that applies: {@link ItlPolicy#USAGE_DELTAS}
 * (continuous usage on every token chunk), {@link ItlPolicy#USAGE_TOTAL} (the final
 * {@code completion_tokens} equals the number of token chunks, which proves one token each),
 * {@link ItlPolicy#TOKENIZER} (the run's tokenizer counts each chunk), else
 * {@link ItlPolicy#PER_CHUNK}.
 */
public final class PerTokenItl {

  private PerTokenItl() {}

  /**
   * How a request's tokens were attributed to its token chunks.
   *
   * @param policy the policy that applied
   * @param tokensPerChunk tokens carried by each token chunk, in arrival order (length = token
   *     chunks); {@code null} for {@link ItlPolicy#PER_CHUNK}, where the counts are unknown
   */
  public record Attribution(ItlPolicy policy, int[] tokensPerChunk) {
    public Attribution {
      Objects.requireNonNull(policy);
      if ((tokensPerChunk == null) != (policy == ItlPolicy.PER_CHUNK)) {
        throw new IllegalArgumentException("tokensPerChunk is null exactly for PER_CHUNK");
      }
    }

    static final Attribution PER_CHUNK = new Attribution(ItlPolicy.PER_CHUNK, null);
  }

  /**
   * Attributes a stream's tokens to its {@code chunks} token chunks by the declared policy.
   *
   * @param chunks number of token chunks
   * @param cumulativeUsage {@code usage.completion_tokens} seen on each token chunk (length
   *     {@code chunks}), or {@code null} when not every token chunk carried it
   * @param usageTotal the final {@code usage.completion_tokens}, or -1 when the server sent none
   * @param chunkTexts each token chunk's text (content plus reasoning), or {@code null} when the
   *     client did not keep it
   * @param tokenizer the run's tokenizer, or {@code null}
   * @return the attribution; never null
   */
  public static Attribution attribute(int chunks, int[] cumulativeUsage, int usageTotal,
      List<String> chunkTexts, Tokenizer tokenizer) {
    if (chunks == 0) {
      return Attribution.PER_CHUNK;
    }
    if (cumulativeUsage != null && cumulativeUsage.length == chunks) {
      int[] k = new int[chunks];
      int prev = 0;
      for (int j = 0; j < chunks; j++) {
        k[j] = Math.max(0, cumulativeUsage[j] - prev);
        prev = Math.max(prev, cumulativeUsage[j]);
      }
      return new Attribution(ItlPolicy.USAGE_DELTAS, k);
    }
    if (usageTotal == chunks) {
      int[] k = new int[chunks];
      java.util.Arrays.fill(k, 1);
      return new Attribution(ItlPolicy.USAGE_TOTAL, k);
    }
    if (tokenizer != null && chunkTexts != null && chunkTexts.size() == chunks) {
      int[] c = countEach(chunkTexts, tokenizer);
      return new Attribution(ItlPolicy.TOKENIZER,
          usageTotal > chunks ? boundByTotal(c, usageTotal) : c);
    }
    return Attribution.PER_CHUNK;
  }

  /**
   * Tokens each chunk added: {@code count(t_{j−1} + t_j) − count(t_{j−1})} (the first chunk:
   * {@code count(t_0)}), at least 1 — a chunk that carries text carries a token. Counting a chunk
   * after its predecessor, not alone, keeps tokenizers that prepend a word marker (SentencePiece's
   * {@code ▁}) from counting an extra token for every chunk that starts a word.
   */
  static int[] countEach(List<String> texts, Tokenizer tokenizer) {
    int[] c = new int[texts.size()];
    String prev = null;
    int prevCount = 0;
    for (int j = 0; j < c.length; j++) {
      String t = texts.get(j);
      int alone = tokenizer.count(t);
      int n = prev == null ? alone : tokenizer.count(prev + t) - prevCount;
      c[j] = Math.max(1, n);
      prev = t;
      prevCount = alone;
    }
    return c;
  }

  /**
   * Applies the server's total: every chunk keeps at least one token, and the surplus
   * {@code total − chunks} goes to the chunks the tokenizer saw as multi-token, in proportion to
   * their extra tokens (largest remainder, earlier chunks first on ties), never above the
   * tokenizer's count. A surplus beyond the tokenizer's extras stays unattributed: tokens the
   * stream never showed (an end-of-sequence token, a token whose text was withheld).
   */
  static int[] boundByTotal(int[] counted, int total) {
    int n = counted.length;
    long extras = 0;
    for (int c : counted) {
      extras += c - 1;
    }
    long surplus = (long) total - n;
    if (surplus >= extras) {
      return counted.clone();
    }
    int[] k = new int[n];
    double[] rem = new double[n];
    long given = 0;
    for (int j = 0; j < n; j++) {
      double share = (double) (counted[j] - 1) * surplus / extras;
      int whole = (int) Math.floor(share);
      k[j] = 1 + whole;
      rem[j] = share - whole;
      given += whole;
    }
    Integer[] order = new Integer[n];
    for (int j = 0; j < n; j++) {
      order[j] = j;
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(rem[b], rem[a]));
    for (int i = 0; i < n && given < surplus; i++) {
      int j = order[i];
      if (k[j] < counted[j]) {
        k[j]++;
        given++;
      }
    }
    return k;
  }

  /**
   * Appends a request's per-token ITL entries, in seconds, to {@code out} (see the class
   * comment); with {@code tokensPerChunk == null} ({@link ItlPolicy#PER_CHUNK}) one entry per
   * chunk gap.
   *
   * @param chunkNanos token chunk arrival times, {@link System#nanoTime()} ns, ascending
   * @param tokensPerChunk tokens of each chunk (same length), or {@code null}
   * @param out receives the entries
   * @throws IllegalArgumentException when the lengths differ
   */
  public static void entries(long[] chunkNanos, int[] tokensPerChunk,
      java.util.function.DoubleConsumer out) {
    if (tokensPerChunk != null && tokensPerChunk.length != chunkNanos.length) {
      throw new IllegalArgumentException(chunkNanos.length + " chunk times but "
          + tokensPerChunk.length + " token counts");
    }
    if (chunkNanos.length < 2) {
      return;
    }
    long ref = chunkNanos[0];
    for (int j = 1; j < chunkNanos.length; j++) {
      int k = tokensPerChunk == null ? 1 : tokensPerChunk[j];
      if (k == 0) {
        continue; // no token: the gap runs on to the next chunk that carries one
      }
      double each = (chunkNanos[j] - ref) / 1e9 / k;
      for (int t = 0; t < k; t++) {
        out.accept(each);
      }
      ref = chunkNanos[j];
    }
  }
}
