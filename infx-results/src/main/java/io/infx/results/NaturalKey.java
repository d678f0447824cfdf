package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.util.List;
import java.util.Optional;

/**
 * What makes two aggregate rows "the same measurement point": every identity and topology key
 * (hardware, image, model, framework, precision, spec decoding, sequence lengths, concurrency,
 * parallelism, GPU counts, role hardware, router, KV transfer, fingerprint, scenario), but none of
 * the measured numbers. Two rows with equal keys in one run are duplicates.
 *
 * @param json canonical rendering of the key fields present in the row (stable across key order)
 */
public record NaturalKey(String json) {

  /** The identity and topology fields, in the order they are rendered. */
  public static final List<String> FIELDS = List.of(
      "scenario_type", "hw", "model", "infmax_model_prefix", "image", "framework", "precision",
      "spec_decoding", "disagg", "recipe_fingerprint", "isl", "osl", "conc", "is_multinode",
      "router", "kv_p2p_transfer", "tp", "pp", "dcp_size", "pcp_size", "ep", "dp_attention",
      "prefill_tp", "prefill_pp", "prefill_dcp_size", "prefill_pcp_size", "prefill_ep",
      "prefill_dp_attention", "prefill_num_workers", "decode_tp", "decode_pp", "decode_dcp_size",
      "decode_pcp_size", "decode_ep", "decode_dp_attention", "decode_num_workers",
      "num_prefill_gpu", "num_decode_gpu", "num_aggregate_gpu", "prefill_hw", "decode_hw",
      "kv_offloading", "kv_offload_backend");

  /** The key of a row object; empty for anything that is not a row with {@code hw} and {@code conc}. */
  public static Optional<NaturalKey> of(JsonNode row) {
    if (row == null || !row.isObject()) {
      return Optional.empty();
    }
    ObjectNode key = Json.mapper().createObjectNode();
    for (String f : FIELDS) {
      JsonNode v = row.get(f);
      if (v != null) {
        key.set(f, v);
      }
    }
    // Something without hardware and concurrency is not a measurement point.
    if (!key.has("hw") || !key.has("conc")) {
      return Optional.empty();
    }
    return Optional.of(new NaturalKey(key.toString()));
  }

  /** A short human-readable form: {@code hw=h200 model=… conc=4 …}. */
  public String describe() {
    try {
      JsonNode n = Json.mapper().readTree(json);
      StringBuilder sb = new StringBuilder();
      n.fields().forEachRemaining(e -> {
        if (sb.length() > 0) {
          sb.append(' ');
        }
        sb.append(e.getKey()).append('=')
            .append(e.getValue().isTextual() ? e.getValue().textValue() : e.getValue().toString());
      });
      return sb.toString();
    } catch (Exception e) {
      return json;
    }
  }
}
