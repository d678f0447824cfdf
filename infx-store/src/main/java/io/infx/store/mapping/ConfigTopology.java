package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.OptionalLong;

/**
 * Deployment topology shared by benchmark and eval ingestion (InferenceX-app {@code topology.ts}
 * @01668b87): role-shaped or single-engine metadata normalized into one identity. Explicit counts
 * win; fallback counts are per worker; aggregated configs mirror one engine into both role columns.
 */
public record ConfigTopology(
    boolean disagg,
    boolean isMultinode,
    long prefillTp,
    long prefillEp,
    boolean prefillDpAttn,
    long prefillNumWorkers,
    long decodeTp,
    long decodeEp,
    boolean decodeDpAttn,
    long decodeNumWorkers,
    long numPrefillGpu,
    long numDecodeGpu) {

  static ConfigTopology of(ConfigParams c) {
    return new ConfigTopology(c.disagg(), c.isMultinode(), c.prefillTp(), c.prefillEp(), c.prefillDpAttn(),
        c.prefillNumWorkers(), c.decodeTp(), c.decodeEp(), c.decodeDpAttn(), c.decodeNumWorkers(),
        c.numPrefillGpu(), c.numDecodeGpu());
  }

  void writeTo(ObjectNode o) {
    o.put("disagg", disagg).put("isMultinode", isMultinode).put("prefillTp", prefillTp).put("prefillEp", prefillEp)
        .put("prefillDpAttn", prefillDpAttn).put("prefillNumWorkers", prefillNumWorkers).put("decodeTp", decodeTp)
        .put("decodeEp", decodeEp).put("decodeDpAttn", decodeDpAttn).put("decodeNumWorkers", decodeNumWorkers)
        .put("numPrefillGpu", numPrefillGpu).put("numDecodeGpu", numDecodeGpu);
  }

  /** The reference's JSON shape (camelCase keys). */
  public ObjectNode toJson() {
    ObjectNode o = Js.nodes().objectNode();
    writeTo(o);
    return o;
  }

  private static String s(JsonNode src, String key) {
    return Js.string(Js.coalesce(Js.get(src, key), Js.nodes().textNode("")));
  }

  private static long orDefault(Long v, long d) {
    return v != null ? v : d;
  }

  private static boolean eqOr1(JsonNode src, String a, String b) {
    return orDefault(Normalizers.parseIntOrNull(Js.get(src, a)), 1) == orDefault(Normalizers.parseIntOrNull(Js.get(src, b)), 1);
  }

  /**
   * Resolves the topology of a benchmark row ({@code resolveConfigTopology}).
   *
   * @param src the raw row
   * @param framework the canonical framework ({@link Normalizers#normalizeFramework})
   * @param disaggFromFw the disagg flag derived with it
   */
  public static ConfigTopology resolve(JsonNode src, String framework, boolean disaggFromFw) {
    Boolean topologyMarker = Normalizers.parseOptionalBool(Js.get(src, "is_multinode"));
    boolean isMultinode = Boolean.TRUE.equals(topologyMarker);
    boolean scenarioAgentic = s(src, "scenario_type").startsWith("agentic");
    Long islInt = Normalizers.parseIntOrNull(Js.get(src, "isl"));
    Long oslInt = Normalizers.parseIntOrNull(Js.get(src, "osl"));
    boolean agentxTopology = scenarioAgentic || (islInt != null && islInt == 0 && oslInt != null && oslInt == 0);
    boolean sharedEpDevices = agentxTopology && (framework.equals("sglang") || framework.equals("dynamo-sglang"));
    boolean numGpusUndefined = Js.isUndefined(Js.get(src, "num_gpus"));
    boolean v3Aggregate = numGpusUndefined && !disaggFromFw && scenarioAgentic
        && Js.isPlainObject(Js.get(src, "request_metrics"))
        && Boolean.FALSE.equals(topologyMarker)
        && Boolean.FALSE.equals(Normalizers.parseOptionalBool(Js.get(src, "disagg")));

    GpuCount gpuCount = (tp, ep, prefix) -> {
      if ((topologyMarker != null && sharedEpDevices && (!prefix.isEmpty() || numGpusUndefined))
          || (prefix.isEmpty() && v3Aggregate)) {
        OptionalLong physicalTp = Normalizers.physicalChipCount(Js.get(src, prefix + "tp"));
        JsonNode ppRaw = Js.get(src, prefix + "pp");
        OptionalLong pp = Normalizers.physicalChipCount(Js.isUndefined(ppRaw) ? Js.nodes().numberNode(1) : ppRaw);
        JsonNode pcpRaw = Js.get(src, prefix + "pcp_size");
        OptionalLong pcp = Normalizers.physicalChipCount(Js.isUndefined(pcpRaw) ? Js.nodes().numberNode(1) : pcpRaw);
        if (physicalTp.isPresent() && pp.isPresent() && pcp.isPresent()) {
          double product = (double) physicalTp.getAsLong() * pp.getAsLong() * pcp.getAsLong();
          OptionalLong c = Normalizers.physicalChipCount(Js.nodes().numberNode(product));
          return c.isPresent() ? c.getAsLong() : tp * ep;
        }
      }
      return tp * ep;
    };

    boolean mirroredAggregate = Boolean.FALSE.equals(topologyMarker)
        && framework.equals("sglang")
        && !disaggFromFw
        && Long.valueOf(1).equals(Normalizers.parseIntOrNull(Js.get(src, "prefill_num_workers")))
        && Long.valueOf(1).equals(Normalizers.parseIntOrNull(Js.get(src, "decode_num_workers")))
        && java.util.stream.Stream.of("tp", "ep", "pp", "pcp_size").allMatch(
            key -> eqOr1(src, "prefill_" + key, key) && eqOr1(src, "decode_" + key, key))
        && Normalizers.parseBool(Js.get(src, "prefill_dp_attention")) == Normalizers.parseBool(Js.get(src, "dp_attention"))
        && Normalizers.parseBool(Js.get(src, "decode_dp_attention")) == Normalizers.parseBool(Js.get(src, "dp_attention"));

    return build(src, disaggFromFw, isMultinode, gpuCount, mirroredAggregate, false);
  }

  /** Computes a GPU count from TP, EP and a role prefix ({@code prefill_}, {@code decode_} or empty). */
  @FunctionalInterface
  interface GpuCount {
    long count(long tp, long ep, String prefix);
  }

  /**
   * The shared body of {@code resolveConfigTopology} and the eval mapper's {@code buildEvalConfig}.
   *
   * @param legacyEvalDisagg the eval mapper's rule: without an explicit disagg, a multinode marker or
   *     prefill workers also mean disaggregated
   */
  static ConfigTopology build(JsonNode src, boolean disaggFromFw, boolean isMultinode, GpuCount gpuCount,
      boolean mirroredAggregate, boolean legacyEvalDisagg) {
    long prefillTp;
    long prefillEp;
    boolean prefillDpAttn;
    long prefillNumWorkers;
    long decodeTp;
    long decodeEp;
    boolean decodeDpAttn;
    long decodeNumWorkers;
    long numPrefillGpu;
    long numDecodeGpu;
    if (src != null && src.has("prefill_tp") && !mirroredAggregate) {
      prefillTp = orDefault(Normalizers.parseIntOrNull(Js.get(src, "prefill_tp")), 1);
      prefillEp = orDefault(Normalizers.parseIntOrNull(Js.get(src, "prefill_ep")), 1);
      prefillDpAttn = Normalizers.parseBool(Js.get(src, "prefill_dp_attention"));
      prefillNumWorkers = orDefault(Normalizers.parseIntOrNull(Js.get(src, "prefill_num_workers")), 0);
      decodeTp = orDefault(Normalizers.parseIntOrNull(Js.get(src, "decode_tp")), 1);
      decodeEp = orDefault(Normalizers.parseIntOrNull(Js.get(src, "decode_ep")), 1);
      decodeDpAttn = Normalizers.parseBool(Js.get(src, "decode_dp_attention"));
      decodeNumWorkers = orDefault(Normalizers.parseIntOrNull(Js.get(src, "decode_num_workers")), 0);
      boolean roleShaped = disaggFromFw || orDefault(Normalizers.parseIntOrNull(Js.get(src, "decode_num_workers")), 0) > 0;
      OptionalLong numGpus = roleShaped ? OptionalLong.empty() : Normalizers.physicalChipCount(Js.get(src, "num_gpus"));
      OptionalLong p = Normalizers.roleChipCount(Js.get(src, "num_prefill_gpu"));
      numPrefillGpu = p.isPresent() ? p.getAsLong() : numGpus.isPresent() ? numGpus.getAsLong()
          : gpuCount.count(prefillTp, prefillEp, "prefill_") * Math.max(prefillNumWorkers, 1);
      OptionalLong d = Normalizers.roleChipCount(Js.get(src, "num_decode_gpu"));
      numDecodeGpu = d.isPresent() ? d.getAsLong() : numGpus.isPresent() ? numGpus.getAsLong()
          : gpuCount.count(decodeTp, decodeEp, "decode_") * Math.max(decodeNumWorkers, 1);
    } else {
      long tp = orDefault(Normalizers.parseIntOrNull(Js.get(src, "tp")), 1);
      long ep = orDefault(Normalizers.parseIntOrNull(Js.get(src, "ep")), 1);
      boolean dpAttn = Normalizers.parseBool(Js.get(src, "dp_attention"));
      prefillTp = tp;
      decodeTp = tp;
      prefillEp = ep;
      decodeEp = ep;
      prefillDpAttn = dpAttn;
      decodeDpAttn = dpAttn;
      prefillNumWorkers = 0;
      decodeNumWorkers = 0;
      OptionalLong numGpus = Normalizers.physicalChipCount(Js.get(src, "num_gpus"));
      OptionalLong p = Normalizers.roleChipCount(Js.get(src, "num_prefill_gpu"));
      numPrefillGpu = p.isPresent() ? p.getAsLong() : numGpus.isPresent() ? numGpus.getAsLong() : gpuCount.count(tp, ep, "");
      OptionalLong d = Normalizers.roleChipCount(Js.get(src, "num_decode_gpu"));
      numDecodeGpu = d.isPresent() ? d.getAsLong() : numGpus.isPresent() ? numGpus.getAsLong() : gpuCount.count(tp, ep, "");
    }

    boolean disagg = disaggFromFw || decodeNumWorkers > 0;
    if (legacyEvalDisagg && !disagg) {
      Boolean explicit = Normalizers.parseOptionalBool(Js.get(src, "disagg"));
      disagg = explicit == null && (isMultinode || prefillNumWorkers > 0);
    }
    if (!disagg) {
      boolean usePrefill = decodeTp <= 0 || decodeEp <= 0
          || (decodeNumWorkers <= 0 && numDecodeGpu <= 0 && (prefillNumWorkers > 0 || numPrefillGpu > 0));
      if (usePrefill) {
        decodeTp = prefillTp;
        decodeEp = prefillEp;
        decodeDpAttn = prefillDpAttn;
        decodeNumWorkers = prefillNumWorkers;
        numDecodeGpu = numPrefillGpu;
      } else {
        prefillTp = decodeTp;
        prefillEp = decodeEp;
        prefillDpAttn = decodeDpAttn;
        prefillNumWorkers = decodeNumWorkers;
        numPrefillGpu = numDecodeGpu;
      }
    }
    return new ConfigTopology(disagg, isMultinode, prefillTp, prefillEp, prefillDpAttn, prefillNumWorkers, decodeTp,
        decodeEp, decodeDpAttn, decodeNumWorkers, numPrefillGpu, numDecodeGpu);
  }
}
