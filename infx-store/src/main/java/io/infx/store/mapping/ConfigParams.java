package io.infx.store.mapping;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * One benchmark configuration: the 17 dimension columns of the {@code configs} table, which are
 * also its natural key (InferenceX-app {@code config-cache.ts}). GPU counts are physical chips.
 *
 * @param hardware GPU key (e.g. {@code h200})
 * @param framework canonical framework (e.g. {@code dynamo-trt})
 * @param model DB model key (e.g. {@code dsr1})
 * @param precision canonical precision (e.g. {@code fp4})
 * @param specMethod speculative decoding method, {@code none} when absent
 * @param disagg separate prefill and decode engines
 * @param isMultinode the deployment spans nodes
 * @param prefillTp prefill TP
 * @param prefillEp prefill EP
 * @param prefillDpAttn prefill dp-attn
 * @param prefillNumWorkers prefill workers (0 for aggregated configs without a count)
 * @param decodeTp decode TP
 * @param decodeEp decode EP
 * @param decodeDpAttn decode dp-attn
 * @param decodeNumWorkers decode workers
 * @param numPrefillGpu GPUs of the prefill role (whole engine when aggregated)
 * @param numDecodeGpu GPUs of the decode role (whole engine when aggregated)
 */
public record ConfigParams(
    String hardware,
    String framework,
    String model,
    String precision,
    String specMethod,
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

  public ConfigParams {
    Objects.requireNonNull(hardware, "hardware");
    Objects.requireNonNull(framework, "framework");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(precision, "precision");
    Objects.requireNonNull(specMethod, "specMethod");
  }

  /** A config of a deployment topology plus the five identity columns. */
  public static ConfigParams of(String hardware, String framework, String model, String precision,
      String specMethod, ConfigTopology t) {
    return new ConfigParams(hardware, framework, model, precision, specMethod, t.disagg(), t.isMultinode(),
        t.prefillTp(), t.prefillEp(), t.prefillDpAttn(), t.prefillNumWorkers(), t.decodeTp(), t.decodeEp(),
        t.decodeDpAttn(), t.decodeNumWorkers(), t.numPrefillGpu(), t.numDecodeGpu());
  }

  /**
   * The colon-joined key of all 17 dimensions in declaration order, booleans as
   * {@code true}/{@code false} ({@code configCacheKey}); equal keys mean the same {@code configs} row.
   */
  public String cacheKey() {
    return String.join(":", hardware, framework, model, precision, specMethod, String.valueOf(disagg),
        String.valueOf(isMultinode), String.valueOf(prefillTp), String.valueOf(prefillEp),
        String.valueOf(prefillDpAttn), String.valueOf(prefillNumWorkers), String.valueOf(decodeTp),
        String.valueOf(decodeEp), String.valueOf(decodeDpAttn), String.valueOf(decodeNumWorkers),
        String.valueOf(numPrefillGpu), String.valueOf(numDecodeGpu));
  }

  /** The reference's JSON shape (camelCase keys). */
  public ObjectNode toJson() {
    ObjectNode o = Js.nodes().objectNode();
    o.put("hardware", hardware).put("framework", framework).put("model", model).put("precision", precision)
        .put("specMethod", specMethod).put("disagg", disagg).put("isMultinode", isMultinode);
    ConfigTopology.of(this).writeTo(o);
    return o;
  }
}
