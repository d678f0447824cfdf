package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Eval rows → {@link EvalParams} (InferenceX-app {@code eval-mapper.ts} @181828de): an individual
 * eval artifact ({@code meta_env.json} + {@code results_*.json}, one result per lm-eval task) or a
 * flat row of {@code agg_eval_all.json}. Config topology follows that version's own
 * {@code buildEvalConfig} (see docs/decisions.md for the version choice).
 */
public final class EvalMapper {

  private EvalMapper() {}

  private static final Map<String, String> EVAL_METRIC_RENAMES = Map.of(
      "exact_match,strict-match", "em_strict",
      "exact_match_stderr,strict-match", "em_strict_se",
      "exact_match,flexible-extract", "em_flexible",
      "exact_match_stderr,flexible-extract", "em_flexible_se");

  private static final List<String> AGG_METRIC_FIELDS =
      List.of("em_strict", "em_strict_se", "em_flexible", "em_flexible_se", "n_eff", "score", "score_se");

  /**
   * Maps an individual eval artifact.
   *
   * @param meta parsed {@code meta_env.json}: config fields
   * @param results parsed {@code results_*.json}: {@code results} per task, {@code n-samples},
   *     {@code lm_eval_version}
   * @return one result per task, in the file's order; empty when the model or hardware is unmapped
   *     (counted) or the results are empty
   */
  public static List<EvalParams> mapEvalRow(JsonNode meta, JsonNode results, SkipTracker tracker) {
    Optional<ModelAndGpu> resolved = ModelAndGpu.resolve(meta, () -> ModelAndGpu.prefixOrModel(meta), tracker);
    if (resolved.isEmpty()) {
      return List.of();
    }
    ModelAndGpu keys = resolved.get();
    JsonNode tasks = Js.get(results, "results");
    if (tasks == null || !tasks.isContainerNode() || tasks.isEmpty()) {
      return List.of();
    }
    Normalizers.Framework fw = Normalizers.normalizeFramework(
        Js.string(Js.coalesce(Js.get(meta, "framework"), Js.nodes().textNode(""))), Js.get(meta, "disagg"));
    String precision = Normalizers.normalizePrecision(Js.string(Js.coalesce(Js.get(meta, "precision"), Js.nodes().textNode(""))));
    if (!Normalizers.PRECISION_KEYS.contains(precision)) {
      tracker.addUnmappedPrecision(precision);
    }
    String specMethod = Normalizers.normalizeSpecMethod(Js.get(meta, "spec_decoding"));
    JsonNode versionNode = Js.get(results, "lm_eval_version");
    String lmEvalVersion = Js.truthy(versionNode) ? Js.string(versionNode) : null;
    ConfigParams config = buildEvalConfig(meta, keys.gpuKey(), fw.framework(), keys.modelKey(), precision, specMethod, fw.disagg());
    JsonNode nSamples = Js.get(results, "n-samples");
    Long isl = Normalizers.parseIntOrNull(Js.get(meta, "isl"));
    Long osl = Normalizers.parseIntOrNull(Js.get(meta, "osl"));
    Long conc = Normalizers.parseIntOrNull(Js.get(meta, "conc"));

    List<EvalParams> out = new ArrayList<>();
    var it = tasks.isObject() ? tasks.properties().iterator() : indexEntries(tasks).iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> task = it.next();
      ObjectNode metrics = Js.nodes().objectNode();
      JsonNode raw = task.getValue();
      if (raw != null && raw.isObject()) {
        for (Map.Entry<String, JsonNode> m : raw.properties()) {
          if (m.getKey().equals("alias")) {
            continue;
          }
          OptionalDouble n = Normalizers.parseNum(m.getValue());
          if (n.isPresent()) {
            metrics.set(EVAL_METRIC_RENAMES.getOrDefault(m.getKey(), m.getKey()), Js.numberNode(n.getAsDouble()));
          }
        }
      }
      OptionalLong dp = Normalizers.physicalChipCount(Js.get(meta, "dp"));
      if (dp.isPresent()) {
        metrics.put("dp", dp.getAsLong());
      }
      OptionalDouble nEff = Normalizers.parseNum(Js.get(Js.get(nSamples, task.getKey()), "effective"));
      if (nEff.isPresent()) {
        metrics.set("n_eff", Js.numberNode(nEff.getAsDouble()));
      }
      out.add(new EvalParams(config, task.getKey().toLowerCase(java.util.Locale.ROOT),
          isl != null && isl == 0 ? null : isl, osl != null && osl == 0 ? null : osl, conc, lmEvalVersion, metrics));
    }
    return out;
  }

  private static List<Map.Entry<String, JsonNode>> indexEntries(JsonNode array) {
    List<Map.Entry<String, JsonNode>> l = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      l.add(Map.entry(String.valueOf(i), array.get(i)));
    }
    return l;
  }

  /**
   * Maps one flat row of {@code agg_eval_all.json}; ISL/OSL come from the {@code source} path's
   * {@code <n>k<m>k}.
   *
   * @return the result, or empty when the model or hardware is unmapped (counted) or the task is empty
   */
  public static Optional<EvalParams> mapAggEvalRow(JsonNode row, SkipTracker tracker) {
    Optional<ModelAndGpu> resolved = ModelAndGpu.resolve(row, () -> Js.string(Js.coalesce(Js.get(row, "model"), Js.nodes().textNode(""))), tracker);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    ModelAndGpu keys = resolved.get();
    String task = Js.string(Js.coalesce(Js.get(row, "task"), Js.nodes().textNode(""))).toLowerCase(java.util.Locale.ROOT);
    if (task.isEmpty()) {
      return Optional.empty();
    }
    Normalizers.Framework fw = Normalizers.normalizeFramework(
        Js.string(Js.coalesce(Js.get(row, "framework"), Js.nodes().textNode(""))), Js.get(row, "disagg"));
    String precision = Normalizers.normalizePrecision(Js.string(Js.coalesce(Js.get(row, "precision"), Js.nodes().textNode(""))));
    if (!Normalizers.PRECISION_KEYS.contains(precision)) {
      tracker.addUnmappedPrecision(precision);
    }
    String specMethod = Normalizers.normalizeSpecMethod(Js.get(row, "spec_decoding"));
    JsonNode source = Js.get(row, "source");
    Optional<Normalizers.IslOsl> islOsl = Js.truthy(source) ? Normalizers.parseIslOsl(Js.string(source)) : Optional.empty();
    ObjectNode metrics = Js.nodes().objectNode();
    for (String k : AGG_METRIC_FIELDS) {
      OptionalDouble n = Normalizers.parseNum(Js.get(row, k));
      if (n.isPresent()) {
        metrics.set(k, Js.numberNode(n.getAsDouble()));
      }
    }
    OptionalLong dp = Normalizers.physicalChipCount(Js.get(row, "dp"));
    if (dp.isPresent()) {
      metrics.put("dp", dp.getAsLong());
    }
    ConfigParams config = buildEvalConfig(row, keys.gpuKey(), fw.framework(), keys.modelKey(), precision, specMethod, fw.disagg());
    return Optional.of(new EvalParams(config, task, islOsl.map(Normalizers.IslOsl::isl).orElse(null),
        islOsl.map(Normalizers.IslOsl::osl).orElse(null), Normalizers.parseIntOrNull(Js.get(row, "conc")), null, metrics));
  }

  private static long orDefault(Long v, long d) {
    return v != null ? v : d;
  }

  private static boolean eqOr1(JsonNode src, String a, String b) {
    return orDefault(Normalizers.parseIntOrNull(Js.get(src, a)), 1) == orDefault(Normalizers.parseIntOrNull(Js.get(src, b)), 1);
  }

  static ConfigParams buildEvalConfig(JsonNode src, String hardware, String framework, String model, String precision,
      String specMethod, boolean disaggFromFw) {
    Boolean topologyMarker = Normalizers.parseOptionalBool(Js.get(src, "is_multinode"));
    boolean isMultinode = Boolean.TRUE.equals(topologyMarker);
    boolean sharedEpDevices = framework.equals("sglang") || framework.equals("dynamo-sglang");
    ConfigTopology.GpuCount gpuCount = (tp, ep, prefix) -> topologyMarker == null || !sharedEpDevices
        ? tp * ep
        : tp * orDefault(Normalizers.parseIntOrNull(Js.get(src, prefix + "pp")), 1)
            * orDefault(Normalizers.parseIntOrNull(Js.get(src, prefix + "pcp_size")), 1);
    boolean mirroredAggregate = Boolean.FALSE.equals(topologyMarker)
        && framework.equals("sglang")
        && !disaggFromFw
        && Long.valueOf(1).equals(Normalizers.parseIntOrNull(Js.get(src, "prefill_num_workers")))
        && Long.valueOf(1).equals(Normalizers.parseIntOrNull(Js.get(src, "decode_num_workers")))
        && java.util.stream.Stream.of("tp", "ep", "pp", "pcp_size").allMatch(
            key -> eqOr1(src, "prefill_" + key, key) && eqOr1(src, "decode_" + key, key))
        && Normalizers.parseBool(Js.get(src, "prefill_dp_attention")) == Normalizers.parseBool(Js.get(src, "dp_attention"))
        && Normalizers.parseBool(Js.get(src, "decode_dp_attention")) == Normalizers.parseBool(Js.get(src, "dp_attention"));
    ConfigTopology t = ConfigTopology.build(src, disaggFromFw, isMultinode, gpuCount, mirroredAggregate, true);
    return ConfigParams.of(hardware, framework, model, precision, specMethod, t);
  }
}
