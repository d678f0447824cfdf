package io.infx.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;

/** Aggregate rows shaped like the reference normalizer's output, with chosen measurements. */
final class SampleRows {

  private SampleRows() {}

  /**
   * A single-node fixed-sequence aggregate row. Latencies in seconds as the normalizer writes
   * them; {@code median_intvty} = 1000 / median TPOT in ms, like the reference.
   */
  static ObjectNode fixed(String hw, String framework, int tp, int conc, double tputPerGpu,
      double medianTtftS, double medianTpotS) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("hw", hw);
    o.put("conc", conc);
    o.put("image", "img:1");
    o.put("model", "org/model");
    o.put("infmax_model_prefix", "dsr1");
    o.put("framework", framework);
    o.put("precision", "fp8");
    o.put("spec_decoding", "none");
    o.put("disagg", false);
    o.put("recipe_fingerprint", "");
    o.put("isl", 1024);
    o.put("osl", 1024);
    o.put("is_multinode", false);
    o.put("tp", tp);
    o.put("pp", 1);
    o.put("dcp_size", 1);
    o.put("pcp_size", 1);
    o.put("ep", 1);
    o.put("dp_attention", "false");
    o.put("tput_per_gpu", tputPerGpu);
    o.put("output_tput_per_gpu", tputPerGpu / 2);
    o.put("input_tput_per_gpu", tputPerGpu / 2);
    o.put("mean_ttft", medianTtftS * 1.1);
    o.put("median_ttft", medianTtftS);
    o.put("p90_ttft", medianTtftS * 1.5);
    o.put("p99_ttft", medianTtftS * 2);
    o.put("mean_tpot", medianTpotS);
    o.put("mean_intvty", 1000 / (medianTpotS * 1000));
    o.put("median_tpot", medianTpotS);
    o.put("median_intvty", 1000 / (medianTpotS * 1000));
    o.put("p90_tpot", medianTpotS * 1.2);
    o.put("p90_intvty", 1000 / (medianTpotS * 1200));
    o.put("p99_tpot", medianTpotS * 1.4);
    o.put("p99_intvty", 1000 / (medianTpotS * 1400));
    o.put("median_e2el", medianTtftS + 1023 * medianTpotS);
    o.put("power_metric_schema_version", 2);
    o.put("power_valid", 0);
    return o;
  }

  /** Two configurations (TP1 and TP2) at concurrency 1, 2, 4, 8, plausibly shaped curves. */
  static ArrayNode sweep() {
    ArrayNode a = Json.mapper().createArrayNode();
    for (int tp : new int[] {1, 2}) {
      for (int conc : new int[] {1, 2, 4, 8}) {
        // TP2 decodes faster per user but spreads the work over twice the GPUs.
        double tpot = tp == 1 ? 0.002 + 0.0004 * conc : 0.0012 + 0.0001 * conc;
        double tput = conc * 2 * (1 / tpot) / tp;
        double ttft = tp == 1 ? 0.010 + 0.004 * conc : 0.020 + 0.001 * conc;
        a.add(fixed("h200", "sglang", tp, conc, tput, ttft, tpot));
      }
    }
    return a;
  }
}
