package io.infx.fleet;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.matrix.MatrixRow;

/** Small rows for launch tests (shapes as the generator prints them, see matrix spec §5.1). */
public final class TestRows {

  private TestRows() {}

  /** A single-node fixed-seq-len row: ISL/OSL, one concurrency, TP1 on label {@code h200}. */
  public static MatrixRow singleNode(int isl, int osl, int conc) {
    ObjectNode r = Json.mapper().createObjectNode();
    r.put("image", "vllm/vllm-openai:v0.27.1");
    r.put("model", "Qwen/Qwen3-0.6B");
    r.put("model-prefix", "qwen3");
    r.put("precision", "bf16");
    r.put("framework", "vllm");
    r.put("runner", "h200");
    r.put("isl", isl);
    r.put("osl", osl);
    r.put("tp", 1);
    r.put("pp", 1);
    r.put("dcp-size", 1);
    r.put("pcp-size", 1);
    r.put("conc", conc);
    r.put("max-model-len", isl + osl + 256);
    r.put("ep", 1);
    r.put("dp-attn", false);
    r.put("spec-decoding", "none");
    r.put("exp-name", "qwen3_" + (isl / 1024) + "k" + (osl / 1024) + "k");
    r.put("disagg", false);
    r.put("run-eval", false);
    return of(r);
  }

  /** The row an edited JSON object holds (read as a row file would be). */
  public static MatrixRow of(ObjectNode json) {
    return MatrixRow.parse(json.toString(), "<test row>");
  }

  /** A row's fields as an editable JSON object, keys in the row's order. */
  public static ObjectNode json(MatrixRow row) {
    return Json.mapper().valueToTree(row.fields());
  }
}
