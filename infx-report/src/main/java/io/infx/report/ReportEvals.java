package io.infx.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.report.internal.RowReader;
import io.infx.results.evals.EvalRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Places eval rows ({@code agg_eval_all.json}) next to the benchmark points they guard: an eval
 * row guards the aggregate row with the same model prefix, hardware, framework, precision,
 * ISL/OSL, TP, EP and concurrency (hardware, framework and precision compared case-insensitively,
 * as the eval collector upper-cases hardware). Eval rows without such a point (eval-only runs) are
 * labelled from their own metadata.
 */
public final class ReportEvals {

  private ReportEvals() {}

  /**
   * @param evals eval rows, e.g. {@code EvalCollector.collect(...)}
   * @param aggregates the collected aggregate rows ({@code agg_bmk.json}: an array, nested arrays flattened)
   */
  public static List<ReportEval> match(List<EvalRow> evals, JsonNode aggregates) {
    List<JsonNode> rows = new ArrayList<>();
    flatten(aggregates, rows);
    List<ReportEval> out = new ArrayList<>();
    for (EvalRow e : evals) {
      JsonNode guarded = rows.stream().filter(r -> guards(e, r)).findFirst().orElse(null);
      JsonNode labels = guarded != null ? guarded : pseudoAggregate(e);
      OptionalDouble tput = guarded != null && guarded.path("tput_per_gpu").isNumber()
          ? OptionalDouble.of(guarded.get("tput_per_gpu").asDouble()) : OptionalDouble.empty();
      OptionalDouble se = e.scoreSe().isNumber() ? OptionalDouble.of(e.scoreSe().asDouble()) : OptionalDouble.empty();
      out.add(new ReportEval(RowReader.workloadLabel(labels), RowReader.configurationLabel(labels),
          (int) Math.max(1, e.conc()), e.task(), e.scoreValue(), se,
          e.scoreName().map(EvalRow.ScoreName::id).orElse(""), tput, e.source()));
    }
    return out;
  }

  private static boolean guards(EvalRow e, JsonNode r) {
    return r.isObject() && !e.multinode()
        && text(r, "infmax_model_prefix").equals(e.modelPrefix().asText())
        && text(r, "hw").equalsIgnoreCase(e.hw())
        && text(r, "framework").equalsIgnoreCase(e.framework())
        && text(r, "precision").equalsIgnoreCase(e.precision())
        && r.path("isl").asLong(-1) == e.isl() && r.path("osl").asLong(-1) == e.osl()
        && r.path("tp").asLong(-1) == e.tp() && r.path("ep").asLong(-1) == e.ep()
        && r.path("conc").asLong(-1) == e.conc();
  }

  private static String text(JsonNode r, String key) {
    JsonNode v = r.get(key);
    return v == null || v.isNull() ? "" : v.asText();
  }

  /** The identity fields of an eval row in aggregate-row form, for labelling. */
  private static JsonNode pseudoAggregate(EvalRow e) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.set("infmax_model_prefix", e.modelPrefix());
    o.set("model", e.model());
    o.put("hw", e.hw().toLowerCase(Locale.ROOT));
    o.put("framework", e.framework());
    o.put("precision", e.precision());
    o.set("spec_decoding", e.specDecoding());
    o.put("isl", e.isl());
    o.put("osl", e.osl());
    o.put("is_multinode", e.multinode());
    if (e.multinode()) {
      o.put("prefill_tp", e.prefillTp());
      o.put("prefill_ep", e.prefillEp());
      o.put("prefill_num_workers", e.prefillNumWorkers());
      o.put("prefill_dp_attention", e.prefillDpAttention());
      o.put("decode_tp", e.decodeTp());
      o.put("decode_ep", e.decodeEp());
      o.put("decode_num_workers", e.decodeNumWorkers());
      o.put("decode_dp_attention", e.decodeDpAttention());
    } else {
      o.put("tp", e.tp());
      o.put("ep", e.ep());
      o.put("dp_attention", e.dpAttention());
    }
    return o;
  }

  private static void flatten(JsonNode node, List<JsonNode> out) {
    if (node == null) {
      return;
    }
    if (node.isArray()) {
      node.forEach(n -> flatten(n, out));
    } else {
      out.add(node);
    }
  }
}
