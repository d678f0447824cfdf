package io.infx.matrix;

import java.util.List;

/**
 * The four matrix row kinds (reference §5), each the input contract of one reusable workflow.
 * {@link #schemaFields()} lists the kind's fields in schema order (the order the planner's output
 * uses; generator output keeps construction order instead).
 */
public enum RowKind {
  /** Single-node fixed-seq-len row ({@code SingleNodeMatrixEntry}). */
  SINGLE_NODE(List.of("image", "srt-recipe", "eval-srt-recipe", "model", "model-prefix", "precision",
      "framework", "spec-decoding", "runner", "isl", "osl", "require-power", "tp", "pp", "dcp-size", "pcp-size",
      "ep", "dp-attn", "conc", "max-model-len", "exp-name", "disagg", "run-eval", "eval-only", "eval-framework",
      "eval-suite", "router", "recipe-fingerprint")),
  /** Multi-node fixed-seq-len row ({@code MultiNodeMatrixEntry}). */
  MULTI_NODE(List.of("srt-recipe", "eval-srt-recipe", "image", "model", "model-prefix", "precision", "framework",
      "spec-decoding", "runner", "node-count", "isl", "osl", "require-power", "prefill", "decode", "conc",
      "max-model-len", "exp-name", "disagg", "run-eval", "eval-only", "eval-conc", "eval-all-concs",
      "eval-framework", "eval-suite", "router", "kv-p2p-transfer", "recipe-fingerprint")),
  /** Single-node agentic row ({@code SingleNodeAgenticMatrixEntry}). */
  SINGLE_NODE_AGENTIC(List.of("image", "srt-recipe", "eval-srt-recipe", "model", "model-prefix", "precision",
      "framework", "runner", "tp", "pp", "dcp-size", "pcp-size", "ep", "dp-attn", "spec-decoding", "conc",
      "kv-offloading", "kv-offload-backend", "router", "total-cpu-dram-gb", "duration", "exp-name",
      "scenario-type", "run-eval", "eval-only", "eval-framework", "eval-suite", "recipe-fingerprint")),
  /** Multi-node agentic row ({@code MultiNodeAgenticMatrixEntry}). */
  MULTI_NODE_AGENTIC(List.of("srt-recipe", "eval-srt-recipe", "image", "model", "model-prefix", "precision",
      "framework", "spec-decoding", "runner", "node-count", "prefill", "decode", "conc", "kv-offloading",
      "kv-offload-backend", "router", "kv-p2p-transfer", "total-cpu-dram-gb", "duration", "exp-name", "disagg",
      "scenario-type", "run-eval", "eval-only", "eval-conc", "eval-framework", "eval-suite", "recipe-fingerprint"));

  /** Worker object fields in schema order. */
  public static final List<String> WORKER_FIELDS = List.of("num-worker", "tp", "pp", "dcp-size", "pcp-size", "ep",
      "dp-attn", "hardware", "additional-settings");

  private final List<String> fields;

  RowKind(List<String> fields) {
    this.fields = fields;
  }

  /** Every field the kind allows, in schema order. */
  public List<String> schemaFields() {
    return fields;
  }

  /** Whether rows of this kind carry {@code prefill}/{@code decode} workers. */
  public boolean multiNode() {
    return this == MULTI_NODE || this == MULTI_NODE_AGENTIC;
  }

  /** Whether rows of this kind are AgentX rows. */
  public boolean agentic() {
    return this == SINGLE_NODE_AGENTIC || this == MULTI_NODE_AGENTIC;
  }
}
