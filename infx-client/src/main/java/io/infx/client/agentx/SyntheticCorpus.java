package io.infx.client.agentx;

import io.infx.core.UsageException;
import io.infx.core.Wording;
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

  /**
   * Checks the components.
   *
   * @throws UsageException naming the first component out of range: {@code traces ≥ 1},
   *     {@code turns ≥ 2}, {@code prefixBlocks ≥ 1}, {@code growthBlocks ≥ 0},
   *     {@code outputTokens ≥ 1}, {@code apiTime}/{@code thinkTime} finite and ≥ 0,
   *     {@code subagentEvery ≥ 0}, {@code subagentTurns ≥ 1}
   */
  public SyntheticCorpus {
    atLeast("traces", traces, 1);
    atLeast("turns", turns, 2);
    atLeast("prefixBlocks", prefixBlocks, 1);
    atLeast("growthBlocks", growthBlocks, 0);
    atLeast("outputTokens", outputTokens, 1);
    seconds("apiTime", apiTime);
    seconds("thinkTime", thinkTime);
    atLeast("subagentEvery", subagentEvery, 0);
    atLeast("subagentTurns", subagentTurns, 1);
  }

  private static void atLeast(String name, int value, int min) {
    if (value < min) {
      throw new UsageException(Wording.of(Wording.setting(name), " must be ≥ " + min + ", got " + value));
    }
  }

  private static void seconds(String name, double value) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new UsageException(Wording.of(Wording.setting(name),
          " must be a finite number of seconds ≥ 0, got " + value));
    }
  }

  /** The defaults: 20 traces of 12 turns, seed 1, 8 prefix blocks, 2 new blocks a turn, 64 output tokens, 0.5 s server time, 1 s think time, a 2-turn subagent after every 4th turn. */
  public static SyntheticCorpus defaults() {
    return new SyntheticCorpus(20, 12, 1, 8, 2, 64, 0.5, 1.0, 4, 2);
  }

  /** A builder starting from {@link #defaults()}: set what differs, then {@link Builder#build()}. */
  public static Builder builder() {
    return new Builder(defaults());
  }

  /** A builder starting from this corpus. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Builds a {@link SyntheticCorpus} by name instead of position:
   * {@code SyntheticCorpus.builder().traces(50).turns(20).seed(7).build()}. Every setting starts at
   * the corpus it was made from ({@link SyntheticCorpus#defaults()} for {@link #builder()}); the
   * values are checked by {@link #build()}.
   */
  public static final class Builder {
    private int traces;
    private int turns;
    private long seed;
    private int prefixBlocks;
    private int growthBlocks;
    private int outputTokens;
    private double apiTime;
    private double thinkTime;
    private int subagentEvery;
    private int subagentTurns;

    private Builder(SyntheticCorpus from) {
      traces = from.traces;
      turns = from.turns;
      seed = from.seed;
      prefixBlocks = from.prefixBlocks;
      growthBlocks = from.growthBlocks;
      outputTokens = from.outputTokens;
      apiTime = from.apiTime;
      thinkTime = from.thinkTime;
      subagentEvery = from.subagentEvery;
      subagentTurns = from.subagentTurns;
    }

    /** Number of traces (≥ 1; default 20). */
    public Builder traces(int traces) {
      this.traces = traces;
      return this;
    }

    /** Top-level requests per trace (≥ 2; default 12). */
    public Builder turns(int turns) {
      this.turns = turns;
      return this;
    }

    /** Generator seed (default 1): the same seed gives the same corpus. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** 64-token blocks of the first prompt (≥ 1; default 8). */
    public Builder prefixBlocks(int prefixBlocks) {
      this.prefixBlocks = prefixBlocks;
      return this;
    }

    /** New user blocks per turn, on top of the previous output (≥ 0; default 2). */
    public Builder growthBlocks(int growthBlocks) {
      this.growthBlocks = growthBlocks;
      return this;
    }

    /** Recorded output tokens per request, each drawn within ±50 % (≥ 1; default 64). */
    public Builder outputTokens(int outputTokens) {
      this.outputTokens = outputTokens;
      return this;
    }

    /** Recorded server time per request, seconds, each drawn within ±50 % (≥ 0; default 0.5). */
    public Builder apiTime(double seconds) {
      this.apiTime = seconds;
      return this;
    }

    /** Recorded client gap before each turn, seconds (≥ 0; default 1.0). */
    public Builder thinkTime(double seconds) {
      this.thinkTime = seconds;
      return this;
    }

    /** A subagent is spawned after every n-th turn (0: never; default 4). */
    public Builder subagentEvery(int turns) {
      this.subagentEvery = turns;
      return this;
    }

    /** Requests per subagent (≥ 1; default 2). */
    public Builder subagentTurns(int subagentTurns) {
      this.subagentTurns = subagentTurns;
      return this;
    }

    /**
     * The corpus.
     *
     * @throws UsageException naming the first setting out of range
     */
    public SyntheticCorpus build() {
      return new SyntheticCorpus(traces, turns, seed, prefixBlocks, growthBlocks, outputTokens, apiTime,
          thinkTime, subagentEvery, subagentTurns);
    }
  }

  /** The command-line key of each component (the form {@link #parse} reads). */
  private static final java.util.Map<String, String> KEYS = java.util.Map.of("traces", "traces", "turns",
      "turns", "seed", "seed", "prefixBlocks", "prefix", "growthBlocks", "growth", "outputTokens", "out",
      "apiTime", "api", "thinkTime", "think", "subagentEvery", "subagent-every", "subagentTurns",
      "subagent-turns");

  /**
   * Parses {@code synthetic:key=value,...} (or just the part after the colon).
   *
   * @throws UsageException naming the offending key
   */
  public static SyntheticCorpus parse(String spec) {
    String body = spec.startsWith("synthetic:") ? spec.substring("synthetic:".length())
        : spec.equals("synthetic") ? "" : spec;
    Builder b = builder();
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
          case "traces" -> b.traces(Integer.parseInt(v));
          case "turns" -> b.turns(Integer.parseInt(v));
          case "seed" -> b.seed(Long.parseLong(v));
          case "prefix" -> b.prefixBlocks(Integer.parseInt(v));
          case "growth" -> b.growthBlocks(Integer.parseInt(v));
          case "out" -> b.outputTokens(Integer.parseInt(v));
          case "api" -> b.apiTime(Double.parseDouble(v));
          case "think" -> b.thinkTime(Double.parseDouble(v));
          case "subagent-every" -> b.subagentEvery(Integer.parseInt(v));
          case "subagent-turns" -> b.subagentTurns(Integer.parseInt(v));
          default -> throw new UsageException("synthetic corpus: unknown key '" + k + "' (known: traces, "
              + "turns, seed, prefix, growth, out, api, think, subagent-every, subagent-turns)");
        }
      } catch (NumberFormatException e) {
        throw new UsageException("synthetic corpus: " + k + " must be a number, got '" + v + "'");
      }
    }
    try {
      return b.build();
    } catch (UsageException e) {
      // in the spec's own words: its keys, not the component names
      throw new UsageException("synthetic corpus: " + e.message(name -> KEYS.getOrDefault(name, name)));
    }
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
