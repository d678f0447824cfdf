package io.infx.matrix.internal;

import io.infx.matrix.RowField;
import io.infx.matrix.EvalMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Eval selection, trimming and smoke selection over freshly expanded rows (reference §4.11,
 * §4.12): the default policy (8k1k fixed rows at the highest and upper-median concurrency per
 * group, multi-node rows at the highest eligible concurrency per topology, AgentX GSM8K picks,
 * Kimi-K3/MiniMax-M3 vendor suites), {@code --all-evals} expansion, app-identity de-duplication,
 * {@code --trim-conc} and {@code --smoke}.
 */
public final class Evals {

  /** Fixed-sequence evals consider only concurrencies of at least this value. */
  public static final int MIN_EVAL_CONC = 16;
  public static final String DEFAULT_EVAL_FRAMEWORK = "lm-eval";
  private static final Map<String, String[]> VENDOR_EVALS = Map.of(
      "kimik3", new String[] {"kimi-vendor", "kimi_tool_call_schema_full"},
      "minimaxm3", new String[] {"minimax-vendor", "minimax_m3_full"});

  private static final Set<String> PARALLELISM_IGNORED = Set.of("conc", "run-eval", "eval-only", "eval-conc",
      "eval-all-concs", "exp-name", "eval-framework", "eval-suite");
  private static final Set<String> TRIM_IGNORED = PARALLELISM_IGNORED;

  private Evals() {}

  /** Applies eval policy {@code mode} and optional trimming; the rows may be modified in place. */
  public static List<Row> select(List<Row> rows, EvalMode mode, boolean trim) {
    List<Row> out = rows;
    if (mode != EvalMode.NONE) {
      out = mark(out);
      if (mode == EvalMode.ALL) {
        out = markAll(out);
      }
    }
    if (mode == EvalMode.SMOKE) {
      return smoke(out);
    }
    if (trim) {
      out = trim(out);
    }
    if (mode == EvalMode.SUBSET || mode == EvalMode.ALL) {
      List<Row> kept = new ArrayList<>();
      for (Row r : out) {
        if (r.flag("run-eval")) {
          r.put("eval-only", true);
          r.remove("require-power");
          kept.add(r);
        }
      }
      out = kept;
    }
    return out;
  }

  private static String[] vendor(Row r) {
    if (!"agentic-coding".equals(r.get("scenario-type"))) {
      return null;
    }
    Object prefix = r.get(RowField.MODEL_PREFIX.key());
    return prefix == null ? null : VENDOR_EVALS.get(prefix);
  }

  private static boolean is8k1k(Row r) {
    return Integer.valueOf(8192).equals(r.get("isl")) && Integer.valueOf(1024).equals(r.get("osl"));
  }

  private static List<Integer> eligible(Row r) {
    List<Integer> out = new ArrayList<>();
    for (Integer c : r.concValues()) {
      if (c >= MIN_EVAL_CONC) {
        out.add(c);
      }
    }
    Collections.sort(out);
    return out;
  }

  static Row parallelismKey(Row r) {
    return r.keyWithout(PARALLELISM_IGNORED);
  }

  /** The default policy ({@code mark_eval_entries}). */
  static List<Row> mark(List<Row> rows) {
    Set<Integer> evalIdx = new HashSet<>();
    Map<Integer, Integer> mnEvalConc = new HashMap<>();
    Map<Integer, String[]> specs = new HashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Row e = rows.get(i);
      String[] spec = vendor(e);
      if (spec == null) {
        continue;
      }
      specs.put(i, spec);
      evalIdx.add(i);
      if (e.containsKey("prefill")) {
        mnEvalConc.put(i, Collections.max(e.concValues()));
      }
    }
    // single-node fixed 8k1k: upper median and highest eligible concurrency per group
    Map<List<Object>, List<Integer>> sn = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Row e = rows.get(i);
      if (!e.containsKey("tp") || !is8k1k(e) || eligible(e).isEmpty()) {
        continue;
      }
      List<Object> key = java.util.Arrays.asList(e.get("model"), e.get("runner"), e.get("framework"),
          e.get("precision"), e.get("isl"), e.get("osl"), e.get(RowField.SPEC_DECODING.key()), e.get(RowField.DP_ATTN.key()));
      sn.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
    }
    for (List<Integer> group : sn.values()) {
      TreeSet<Integer> concs = new TreeSet<>();
      for (int i : group) {
        concs.add((Integer) rows.get(i).get("conc"));
      }
      List<Integer> sorted = new ArrayList<>(concs);
      Set<Integer> targets = new HashSet<>(List.of(sorted.get(sorted.size() - 1), sorted.get(sorted.size() / 2)));
      for (int i : group) {
        if (targets.contains((Integer) rows.get(i).get("conc"))) {
          evalIdx.add(i);
        }
      }
    }
    // multi-node fixed 8k1k: highest eligible concurrency per topology
    Map<Map<String, Object>, List<int[]>> mn = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Row e = rows.get(i);
      if (e.containsKey("tp") || !e.containsKey("prefill") || !is8k1k(e)) {
        continue;
      }
      List<Integer> el = eligible(e);
      if (el.isEmpty()) {
        continue;
      }
      mn.computeIfAbsent(parallelismKey(e), k -> new ArrayList<>()).add(new int[] {i, el.get(el.size() - 1)});
    }
    for (List<int[]> group : mn.values()) {
      int[] best = first(group);
      evalIdx.add(best[0]);
      mnEvalConc.put(best[0], best[1]);
    }
    // AgentX GSM8K picks
    Map<List<Object>, List<int[]>> agSn = new LinkedHashMap<>();
    Map<Map<String, Object>, List<int[]>> agMn = new LinkedHashMap<>();
    Map<List<Object>, int[]> fallback = new LinkedHashMap<>();
    for (int i = 0; i < rows.size(); i++) {
      Row e = rows.get(i);
      if (!"agentic-coding".equals(e.get("scenario-type"))) {
        continue;
      }
      if (e.containsKey("prefill")) {
        int top = Collections.max(e.concValues());
        List<Object> dep = java.util.Arrays.asList(e.get("model"), e.get("runner"), e.get("framework"),
            e.get("precision"));
        int[] prev = fallback.get(dep);
        if (prev == null || top > prev[1]) {
          fallback.put(dep, new int[] {i, top});
        }
        List<Integer> el = eligible(e);
        if (!el.isEmpty()) {
          agMn.computeIfAbsent(parallelismKey(e), k -> new ArrayList<>()).add(new int[] {i, el.get(el.size() - 1)});
        }
        continue;
      }
      int conc = Collections.max(e.concValues());
      List<Object> key = java.util.Arrays.asList(e.get("model"), e.get("runner"), e.get("framework"),
          e.get("precision"), e.get(RowField.SPEC_DECODING.key()), e.get(RowField.DP_ATTN.key()), e.get("image"));
      agSn.computeIfAbsent(key, k -> new ArrayList<>()).add(new int[] {i, conc});
    }
    Map<Integer, Integer> picks = new LinkedHashMap<>(); // index -> multi-node eval conc (null for single-node)
    for (List<int[]> group : agSn.values()) {
      picks.put(first(group)[0], null);
    }
    for (List<int[]> group : agMn.values()) {
      int[] best = first(group);
      picks.put(best[0], best[1]);
    }
    Set<List<Object>> covered = new HashSet<>();
    for (Map.Entry<Integer, Integer> p : picks.entrySet()) {
      if (p.getValue() != null) {
        Row e = rows.get(p.getKey());
        covered.add(java.util.Arrays.asList(e.get("model"), e.get("runner"), e.get("framework"), e.get("precision")));
      }
    }
    for (Map.Entry<List<Object>, int[]> f : fallback.entrySet()) {
      if (!covered.contains(f.getKey())) {
        picks.put(f.getValue()[0], f.getValue()[1]);
      }
    }
    Map<Integer, Integer> extra = new LinkedHashMap<>();
    for (Map.Entry<Integer, Integer> p : picks.entrySet()) {
      int i = p.getKey();
      if (specs.containsKey(i)) {
        extra.put(i, p.getValue());
        continue;
      }
      evalIdx.add(i);
      if (p.getValue() != null) {
        mnEvalConc.put(i, p.getValue());
      }
    }
    for (int i = 0; i < rows.size(); i++) {
      Row e = rows.get(i);
      boolean runEval = evalIdx.contains(i);
      e.put("run-eval", runEval);
      if (runEval) {
        String[] spec = specs.getOrDefault(i, new String[] {DEFAULT_EVAL_FRAMEWORK, ""});
        e.put("eval-framework", spec[0]);
        e.put("eval-suite", spec[1]);
      }
      if (mnEvalConc.containsKey(i)) {
        e.put("eval-conc", mnEvalConc.get(i));
      }
    }
    List<Row> all = new ArrayList<>(rows);
    for (Map.Entry<Integer, Integer> x : extra.entrySet()) {
      Row row = new Row(rows.get(x.getKey()));
      row.put("run-eval", true);
      row.put("eval-only", true);
      row.put("eval-framework", DEFAULT_EVAL_FRAMEWORK);
      row.put("eval-suite", "");
      row.remove("require-power");
      if (x.getValue() != null) {
        row.put("eval-conc", x.getValue());
      }
      all.add(row);
    }
    List<Row> out = new ArrayList<>();
    for (Row r : dropAppCollidingEvals(all)) {
      if (r.flag("run-eval") || !r.flag("eval-only")) {
        out.add(r);
      }
    }
    return out;
  }

  /** The first entry with the largest value ({@code max} keeps the first on ties). */
  private static int[] first(List<int[]> group) {
    int[] best = group.get(0);
    for (int[] g : group) {
      if (g[1] > best[1]) {
        best = g;
      }
    }
    return best;
  }

  /** {@code --all-evals} expansion ({@code mark_all_eval_entries}). */
  static List<Row> markAll(List<Row> rows) {
    List<Row> expanded = new ArrayList<>();
    Map<Map<String, Object>, Integer> mnIdx = new HashMap<>();
    Map<Map<String, Object>, Integer> mnAgIdx = new HashMap<>();
    for (Row entry : rows) {
      if (entry.flag("eval-only")) {
        continue;
      }
      String[] auto = vendor(entry);
      if (auto != null) {
        Row evalEntry = new Row(entry);
        evalEntry.put("run-eval", true);
        evalEntry.put("eval-framework", auto[0]);
        evalEntry.put("eval-suite", auto[1]);
        if (entry.containsKey("prefill")) {
          evalEntry.put("conc", sortedDistinct(entry.concValues()));
          evalEntry.put("eval-conc", Collections.max(entry.concValues()));
        }
        expanded.add(evalEntry);
        Row copy = new Row();
        for (Map.Entry<String, Object> e : entry.entrySet()) {
          if (!e.getKey().equals("eval-framework") && !e.getKey().equals("eval-suite")
              && !e.getKey().equals("eval-conc")) {
            copy.put(e.getKey(), e.getValue());
          }
        }
        entry = copy;
      }
      if ("agentic-coding".equals(entry.get("scenario-type"))) {
        if (!entry.containsKey("prefill")) {
          entry.put("run-eval", true);
          expanded.add(entry);
          continue;
        }
        List<Integer> values = entry.concValues();
        Map<String, Object> pk = parallelismKey(entry);
        Integer at = mnAgIdx.get(pk);
        if (at != null) {
          Row existing = expanded.get(at);
          List<Integer> merged = union(existing.concValues(), values);
          existing.put("conc", merged);
          existing.put("eval-conc", Collections.max(merged));
          continue;
        }
        Row evalEntry = new Row(entry);
        evalEntry.put("conc", sortedDistinct(values));
        evalEntry.put("run-eval", true);
        evalEntry.put("eval-conc", Collections.max(values));
        mnAgIdx.put(pk, expanded.size());
        expanded.add(evalEntry);
        continue;
      }
      if (!is8k1k(entry)) {
        expanded.add(entry);
        continue;
      }
      if (entry.containsKey("prefill")) {
        List<Integer> values = entry.concValues();
        Map<String, Object> pk = parallelismKey(entry);
        Integer at = mnIdx.get(pk);
        if (at != null) {
          Row existing = expanded.get(at);
          existing.put("conc", union(existing.concValues(), values));
          continue;
        }
        Row batched = new Row(entry);
        batched.put("conc", sortedDistinct(values));
        batched.put("run-eval", true);
        batched.put("eval-all-concs", true);
        batched.remove("eval-conc");
        mnIdx.put(pk, expanded.size());
        expanded.add(batched);
        continue;
      }
      entry.put("run-eval", true);
      expanded.add(entry);
    }
    for (Row e : expanded) {
      if (!e.flag("run-eval")) {
        continue;
      }
      Object fw = e.get("eval-framework");
      if (fw == null || (fw instanceof String s && s.isEmpty())) {
        e.put("eval-framework", DEFAULT_EVAL_FRAMEWORK);
      }
      if (e.get("eval-suite") == null) {
        e.put("eval-suite", "");
      }
    }
    return dropAppCollidingEvals(expanded);
  }

  private static List<Integer> sortedDistinct(List<Integer> values) {
    return List.copyOf(new TreeSet<>(values));
  }

  private static List<Integer> union(List<Integer> a, List<Integer> b) {
    TreeSet<Integer> s = new TreeSet<>(a);
    s.addAll(b);
    return List.copyOf(s);
  }

  /**
   * Keeps at most one eval per app identity (image and KV offloading are not part of it): rows
   * without KV offload claim identities first; a row whose identities are all taken stops evaluating,
   * a batched eval keeps the concurrencies still free.
   */
  public static List<Row> dropAppCollidingEvals(List<Row> rows) {
    Set<List<Object>> claimed = new HashSet<>();
    List<Row> candidates = new ArrayList<>();
    List<Row> offloading = new ArrayList<>();
    for (Row r : rows) {
      if (!r.flag("run-eval")) {
        continue;
      }
      Object kv = r.get("kv-offloading");
      (kv != null && !"none".equals(kv) ? offloading : candidates).add(r);
    }
    candidates.addAll(offloading);
    for (Row row : candidates) {
      List<Integer> concs = evalConcs(row);
      List<Integer> free = new ArrayList<>();
      for (Integer c : concs) {
        if (!claimed.contains(identity(row, c))) {
          free.add(c);
        }
      }
      for (Integer c : free) {
        claimed.add(identity(row, c));
      }
      if (free.equals(concs)) {
        continue;
      }
      if (!free.isEmpty()) {
        row.put("conc", List.copyOf(free));
        continue;
      }
      row.put("run-eval", false);
      row.remove("eval-framework");
      row.remove("eval-suite");
      row.remove("eval-conc");
      row.remove("eval-all-concs");
    }
    return rows;
  }

  private static List<Integer> evalConcs(Row row) {
    if (row.containsKey("prefill") && !row.flag("eval-all-concs")) {
      return List.of((Integer) row.get("eval-conc"));
    }
    return sortedDistinct(row.concValues());
  }

  private static List<Object> identity(Row e, int conc) {
    Object topology;
    if (e.containsKey("prefill")) {
      List<Object> t = new ArrayList<>();
      for (String role : List.of("prefill", "decode")) {
        Row w = e.sub(role);
        t.add(java.util.Arrays.asList(w.get("tp"), w.get("ep"), w.get(RowField.DP_ATTN.key()), w.get("num-worker")));
      }
      topology = t;
    } else {
      topology = java.util.Arrays.asList(e.get("tp"), e.get("ep"), e.get(RowField.DP_ATTN.key()));
    }
    return java.util.Arrays.asList(e.get("model"), e.get(RowField.MODEL_PREFIX.key()), e.get("runner"), e.get("framework"),
        e.get("precision"), e.getOrDefault(RowField.SPEC_DECODING.key(), "none"), e.getOrDefault("disagg", false), topology,
        e.get("eval-framework"), e.get("eval-suite"), e.get("isl"), e.get("osl"), conc);
  }

  /**
   * {@code --trim-conc}: keep the minimum-concurrency row of each deployment shape (multi-node lists
   * collapse to their minimum); an eval picked anywhere in the shape moves onto the kept row.
   */
  public static List<Row> trim(List<Row> entries) {
    Map<List<Object>, List<Integer>> groups = new LinkedHashMap<>();
    List<Row> out = new ArrayList<>();
    for (Row source : entries) {
      Row entry = source;
      Object conc = entry.get("conc");
      if (entry.get("prefill") != null && conc instanceof List<?> l && !l.isEmpty()) {
        int min = Collections.min(entry.concValues());
        if (l.size() > 1 || !Integer.valueOf(min).equals(entry.get("eval-conc"))) {
          entry = new Row(entry);
          entry.put("conc", List.of(min));
          if (entry.containsKey("eval-conc")) {
            entry.put("eval-conc", min);
          }
        }
      }
      List<Object> key = new ArrayList<>(2);
      key.add(entry.keyWithout(TRIM_IGNORED));
      if (entry.flag("eval-only")) {
        key.add(java.util.Arrays.asList("eval-only", entry.get("eval-framework"), entry.get("eval-suite")));
      }
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(out.size());
      out.add(entry);
    }
    Set<Integer> drop = new HashSet<>();
    for (List<Integer> idx : groups.values()) {
      int keep = idx.get(0);
      for (int i : idx) {
        if (minConc(out.get(i)) < minConc(out.get(keep))) {
          keep = i;
        }
      }
      boolean anyEval = false;
      boolean anyAll = false;
      for (int i : idx) {
        anyEval |= Boolean.TRUE.equals(out.get(i).get("run-eval"));
        anyAll |= Boolean.TRUE.equals(out.get(i).get("eval-all-concs"));
      }
      if (anyEval) {
        Row kept = new Row(out.get(keep));
        kept.put("run-eval", true);
        if (kept.get("prefill") != null) {
          kept.put("eval-conc", minConc(kept));
        }
        if (anyAll) {
          kept.put("eval-all-concs", true);
        }
        out.set(keep, kept);
      }
      for (int i : idx) {
        if (i != keep) {
          drop.add(i);
        }
      }
    }
    List<Row> result = new ArrayList<>();
    for (int i = 0; i < out.size(); i++) {
      if (!drop.contains(i)) {
        result.add(out.get(i));
      }
    }
    return result;
  }

  private static int minConc(Row r) {
    return Collections.min(r.concValues());
  }

  /** {@code --smoke}: trimmed throughput rows, then every picked eval as a trimmed eval-only row. */
  static List<Row> smoke(List<Row> entries) {
    List<Row> bench = new ArrayList<>();
    for (Row r : entries) {
      Row c = new Row(r);
      c.put("run-eval", false);
      bench.add(c);
    }
    List<Row> out = new ArrayList<>(trim(bench));
    List<Row> evals = new ArrayList<>();
    for (Row r : entries) {
      if (!r.flag("run-eval")) {
        continue;
      }
      Row row = new Row(r);
      row.put("eval-only", true);
      row.remove("require-power");
      if (row.get("prefill") != null) {
        row.put("conc", List.of((Integer) row.get("eval-conc")));
        row.put("eval-all-concs", false);
      }
      evals.add(row);
    }
    out.addAll(trim(evals));
    return out;
  }
}
