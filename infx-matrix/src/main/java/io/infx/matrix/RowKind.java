package io.infx.matrix;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The four matrix row kinds (reference §5), each the input contract of one reusable workflow and
 * each a permitted subclass of {@link MatrixRow}. An eval-only job is a row of one of these kinds
 * with {@code eval-only: true} (the reference has no fifth schema for it).
 *
 * <p>The fields, types, defaults and schema order of each kind come from the field table
 * {@link RowField}.
 */
public enum RowKind {
  /** Single-node fixed-seq-len row ({@code SingleNodeMatrixEntry}). */
  SINGLE_NODE(RowField.SINGLE_NODE_LAYOUT),
  /** Multi-node fixed-seq-len row ({@code MultiNodeMatrixEntry}). */
  MULTI_NODE(RowField.MULTI_NODE_LAYOUT),
  /** Single-node agentic row ({@code SingleNodeAgenticMatrixEntry}). */
  SINGLE_NODE_AGENTIC(RowField.SINGLE_NODE_AGENTIC_LAYOUT),
  /** Multi-node agentic row ({@code MultiNodeAgenticMatrixEntry}). */
  MULTI_NODE_AGENTIC(RowField.MULTI_NODE_AGENTIC_LAYOUT);

  /** Worker object field names in schema order (from {@link RowField#WORKER}). */
  public static final List<String> WORKER_FIELDS = RowField.WORKER.stream().map(RowField.Slot::name).toList();

  private final List<RowField.Slot> slots;
  private final List<String> names;
  private final Map<String, RowField.Slot> byName = new HashMap<>();

  RowKind(List<RowField.Slot> slots) {
    this.slots = slots;
    this.names = slots.stream().filter(x -> x.presence() != RowField.Presence.GENERATOR_ONLY)
        .map(RowField.Slot::name).toList();
    slots.forEach(x -> byName.put(x.name(), x));
  }

  /** The kind's layout from the field table: one slot per allowed field, in schema order. */
  public List<RowField.Slot> slots() {
    return slots;
  }

  /** Every field of the kind's reference model, in schema order. */
  public List<String> schemaFields() {
    return names;
  }

  /** The slot of {@code name} in this kind, or {@code null} when the kind does not allow it. */
  public RowField.Slot slot(String name) {
    return byName.get(name);
  }

  /** The reference's pydantic model name, for messages. */
  public String modelName() {
    return switch (this) {
      case SINGLE_NODE -> "SingleNodeMatrixEntry";
      case MULTI_NODE -> "MultiNodeMatrixEntry";
      case SINGLE_NODE_AGENTIC -> "SingleNodeAgenticMatrixEntry";
      case MULTI_NODE_AGENTIC -> "MultiNodeAgenticMatrixEntry";
    };
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
