package io.infx.client.agentx;

import io.infx.core.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * A generated Weka corpus with the shape of agentic coding sessions — a long shared prefix that
 * grows every turn by the previous output and new tool results, think time between turns, and
 * subagents that run beside their parent and are joined later — for tests, benchmarks and trying
 * {@code infx bench agentic} without downloading a corpus. Deterministic for a seed.
 *
 * <p>Written as {@code synthetic:traces=50,turns=20,seed=1} on the command line; every key is
 * optional: {@code traces} (20), {@code turns} (12), {@code seed} (1), {@code prefix} (blocks of
 * the first prompt, 8), {@code growth} (new user blocks per turn, 2), {@code out} (output tokens,
 * 64), {@code api} (recorded server time, s, 0.5), {@code think} (client gap, s, 1.0),
 * {@code subagent-every} (a subagent after every n-th turn, 0 = none, default 4),
 * {@code subagent-turns} (2).
 *
 * @param traces number of traces
 * @param turns top-level requests per trace
 * @param seed generator seed
 * @param prefixBlocks 64-token blocks of the first prompt
 * @param growthBlocks new user blocks per turn
 * @param outputTokens recorded output tokens per request (±50%)
 * @param apiTime recorded server time per request, seconds
 * @param thinkTime recorded client gap before each turn, seconds
 * @param subagentEvery a subagent is spawned after every n-th turn (0: never)
 * @param subagentTurns requests per subagent
 */
public record SyntheticCorpus(int traces, int turns, long seed, int prefixBlocks, int growthBlocks,
    int outputTokens, double apiTime, double thinkTime, int subagentEvery, int subagentTurns) {

  /** Tokens per hash block. */
  public static final int BLOCK = 64;

  public SyntheticCorpus {
    if (traces < 1 || turns < 2 || prefixBlocks < 1 || growthBlocks < 0 || outputTokens < 1
        || apiTime < 0 || thinkTime < 0 || subagentEvery < 0 || subagentTurns < 1) {
      throw new UsageException("synthetic corpus: traces >= 1, turns >= 2, prefix >= 1, growth >= 0, "
          + "out >= 1, api/think >= 0, subagent-every >= 0 and subagent-turns >= 1 are required");
    }
  }

  /** The defaults. */
  public static SyntheticCorpus defaults() {
    return new SyntheticCorpus(20, 12, 1, 8, 2, 64, 0.5, 1.0, 4, 2);
  }

  /**
   * Parses {@code synthetic:key=value,...} (or just the part after the colon).
   *
   * @throws UsageException naming the offending key
   */
  public static SyntheticCorpus parse(String spec) {
    String body = spec.startsWith("synthetic:") ? spec.substring("synthetic:".length())
        : spec.equals("synthetic") ? "" : spec;
    SyntheticCorpus d = defaults();
    int traces = d.traces;
    int turns = d.turns;
    long seed = d.seed;
    int prefix = d.prefixBlocks;
    int growth = d.growthBlocks;
    int out = d.outputTokens;
    double api = d.apiTime;
    double think = d.thinkTime;
    int every = d.subagentEvery;
    int saTurns = d.subagentTurns;
    for (String kv : body.split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      String[] p = kv.split("=", 2);
      if (p.length != 2) {
        throw new UsageException("synthetic corpus: expected key=value, got '" + kv + "'");
      }
      String k = p[0].strip().toLowerCase(Locale.ROOT);
      String v = p[1].strip();
      try {
        switch (k) {
          case "traces" -> traces = Integer.parseInt(v);
          case "turns" -> turns = Integer.parseInt(v);
          case "seed" -> seed = Long.parseLong(v);
          case "prefix" -> prefix = Integer.parseInt(v);
          case "growth" -> growth = Integer.parseInt(v);
          case "out" -> out = Integer.parseInt(v);
          case "api" -> api = Double.parseDouble(v);
          case "think" -> think = Double.parseDouble(v);
          case "subagent-every" -> every = Integer.parseInt(v);
          case "subagent-turns" -> saTurns = Integer.parseInt(v);
          default -> throw new UsageException("synthetic corpus: unknown key '" + k + "' (known: traces, "
              + "turns, seed, prefix, growth, out, api, think, subagent-every, subagent-turns)");
        }
      } catch (NumberFormatException e) {
        throw new UsageException("synthetic corpus: " + k + " must be a number, got '" + v + "'");
      }
    }
    return new SyntheticCorpus(traces, turns, seed, prefix, growth, out, api, think, every, saTurns);
  }

  /** Requests in the whole corpus (top-level and subagent). */
  public long requestCount() {
    long sub = subagentEvery == 0 ? 0 : (long) ((turns - 1) / subagentEvery) * subagentTurns;
    return (long) traces * (turns + sub);
  }

  /** Generates the traces. */
  public List<WekaTrace> generate() {
    List<WekaTrace> out = new ArrayList<>(traces);
    for (int i = 0; i < traces; i++) {
      out.add(trace(i));
    }
    return out;
  }

  private WekaTrace trace(int index) {
    SplittableRandom r = new SplittableRandom(seed * 1_000_003L + index);
    List<TraceEntry> entries = new ArrayList<>();
    int nextId = 0;
    int[] ids = new int[0];
    HashIds prev = null;
    double t = 0;
    int prevOut = 0;
    for (int turn = 0; turn < turns; turn++) {
      int fresh = turn == 0 ? prefixBlocks : (prevOut + BLOCK - 1) / BLOCK + growthBlocks;
      int[] next = java.util.Arrays.copyOf(ids, ids.length + fresh);
      for (int k = ids.length; k < next.length; k++) {
        next[k] = nextId++;
      }
      int outTokens = Math.max(1, (int) Math.round(outputTokens * (0.5 + r.nextDouble())));
      double api = apiTime * (0.5 + r.nextDouble());
      HashIds h = HashIds.sharing(prev, ids, next);
      entries.add(new TraceRequest(t, true, "synthetic", next.length * BLOCK, outTokens, h, List.of(),
          List.of(), Optional.empty(), OptionalDouble.of(api), OptionalDouble.of(thinkTime), OptionalDouble.empty()));
      double end = t + api;
      double nextT = end + thinkTime;
      if (subagentEvery > 0 && turn > 0 && turn % subagentEvery == 0 && turn < turns - 1) {
        double st = end + thinkTime / 4;
        List<TraceEntry> inner = new ArrayList<>();
        int[] sids = new int[0];
        HashIds sprev = null;
        double it = st;
        for (int k = 0; k < subagentTurns; k++) {
          int[] snext = java.util.Arrays.copyOf(sids, sids.length + (k == 0 ? 2 : 1 + growthBlocks));
          for (int q = sids.length; q < snext.length; q++) {
            snext[q] = nextId++;
          }
          double sapi = apiTime * (0.5 + r.nextDouble());
          HashIds sh = HashIds.sharing(sprev, sids, snext);
          inner.add(TraceRequest.of(it, "synthetic", snext.length * BLOCK, outputTokens / 2 + 1, sh, sapi));
          sids = snext;
          sprev = sh;
          it += sapi + thinkTime / 4;
        }
        double saEnd = it - thinkTime / 4;
        entries.add(new SubagentEntry(st, "subagent_" + String.format("%03d", turn), "Subagent",
            java.util.OptionalLong.of(Math.round((saEnd - st) * 1000)), java.util.OptionalLong.empty(),
            java.util.OptionalLong.empty(), "completed", List.of("synthetic"), inner, 0, 0));
        nextT = Math.max(nextT, saEnd + thinkTime / 4);
      }
      ids = next;
      prev = h;
      prevOut = outTokens;
      t = nextT;
    }
    return new WekaTrace("synthetic-" + seed + "-" + index, List.of("synthetic"), BLOCK,
        WekaTrace.HashIdScope.LOCAL, 0, 0, entries);
  }
}
