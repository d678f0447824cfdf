package io.infx.matrix;

import io.infx.core.python.PythonJson;
import io.infx.matrix.internal.Row;
import io.infx.matrix.internal.RowSchema;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One matrix row: one scheduled benchmark (or eval) job, as the reusable workflow of its
 * {@link RowKind} consumes it. Immutable.
 *
 * <p>{@link #fields()} holds the row in <em>generator form</em>: keys in exactly the order the
 * reference prints them (construction order; eval fields appended as they are set), values as JSON
 * types (String, Integer, Boolean, List, nested Map; {@code null} only where the input wrote one).
 * Typed accessors read the common fields. {@link #toJson()} is the reference's {@code json.dumps}
 * text; {@link #schemaForm()} the planner's schema-ordered form with defaults written out.
 */
public final class MatrixRow {

  private final Map<String, Object> fields;
  private final RowKind kind;

  private MatrixRow(Map<String, Object> fields, RowKind kind) {
    this.fields = fields;
    this.kind = kind;
  }

  /**
   * A row from generator-form fields (deep-copied and frozen); its kind follows from its keys.
   *
   * @throws io.infx.core.ValidationException rule {@code V61.output-row} listing every problem
   *     when the fields are not a valid row of that kind (the generator's own output check)
   */
  public static MatrixRow of(Map<String, ?> fields) {
    Row row = new Row(fields).deepCopy().freeze();
    RowKind kind = kindOf(row);
    io.infx.matrix.internal.RowSchema.validate(row, kind);
    return new MatrixRow(row, kind);
  }

  /** Wraps a finished internal row (frozen in place, not copied). */
  static MatrixRow wrap(Row row) {
    row.freeze();
    return new MatrixRow(row, kindOf(row));
  }

  /** The kind a generator-form row belongs to (by {@code prefill} and {@code scenario-type}). */
  public static RowKind kindOf(Map<String, ?> fields) {
    boolean agentic = "agentic-coding".equals(fields.get("scenario-type"));
    if (fields.get("prefill") != null) {
      return agentic ? RowKind.MULTI_NODE_AGENTIC : RowKind.MULTI_NODE;
    }
    return agentic ? RowKind.SINGLE_NODE_AGENTIC : RowKind.SINGLE_NODE;
  }

  /** A mutable deep copy for the internal pipeline. */
  Row toRow() {
    return ((Row) fields).deepCopy();
  }

  public RowKind kind() {
    return kind;
  }

  /** The row in generator form, keys in the reference's order (unmodifiable, nested maps too). */
  public Map<String, Object> fields() {
    return fields;
  }

  public Optional<Object> get(String key) {
    return Optional.ofNullable(fields.get(key));
  }

  public boolean has(String key) {
    return fields.containsKey(key);
  }

  public String image() {
    return (String) fields.get("image");
  }

  public String model() {
    return (String) fields.get("model");
  }

  public String modelPrefix() {
    return (String) fields.get("model-prefix");
  }

  public String precision() {
    return (String) fields.get("precision");
  }

  public String framework() {
    return (String) fields.get("framework");
  }

  /** The runner label or concrete runner name the job is scheduled on. */
  public String runner() {
    return (String) fields.get("runner");
  }

  public String expName() {
    return (String) fields.get("exp-name");
  }

  /** Concurrency points: one value for single-node rows, the list for multi-node rows. */
  @SuppressWarnings("unchecked")
  public List<Integer> conc() {
    Object c = fields.get("conc");
    return c instanceof List<?> l ? (List<Integer>) l : List.of((Integer) c);
  }

  /** Input sequence length, tokens (fixed-seq-len rows only). */
  public OptionalInt isl() {
    Object v = fields.get("isl");
    return v instanceof Integer i ? OptionalInt.of(i) : OptionalInt.empty();
  }

  /** Output sequence length, tokens (fixed-seq-len rows only). */
  public OptionalInt osl() {
    Object v = fields.get("osl");
    return v instanceof Integer i ? OptionalInt.of(i) : OptionalInt.empty();
  }

  /** Tensor parallel size (single-node rows only). */
  public OptionalInt tp() {
    Object v = fields.get("tp");
    return v instanceof Integer i ? OptionalInt.of(i) : OptionalInt.empty();
  }

  public boolean runEval() {
    return Boolean.TRUE.equals(fields.get("run-eval"));
  }

  public boolean evalOnly() {
    return Boolean.TRUE.equals(fields.get("eval-only"));
  }

  /** {@code 8k1k}, {@code 1k1k}, {@code <isl>_<osl>}; {@code agentic} for AgentX rows. */
  public String family() {
    if (kind.agentic()) {
      return "agentic";
    }
    return io.infx.matrix.config.SeqLen.family(isl().orElseThrow(), osl().orElseThrow());
  }

  /** Problems against the row kind's schema (rule V61); empty when valid. */
  public List<String> problems() {
    return RowSchema.problems(fields, kind);
  }

  /** {@code json.dumps(row)}: Python's default separators, ASCII-only. */
  public String toJson() {
    return PythonJson.dumpsValue(fields);
  }

  /**
   * The row re-serialised through its schema, as the planner prints rows: fields in schema order
   * ({@link RowKind#schemaFields()}), schema defaults written out ({@code require-power: false},
   * {@code eval-only: false}, multi-node {@code eval-all-concs: false}, worker
   * {@code additional-settings: []} and {@code pp/dcp-size/pcp-size: 1}), absent or null optional
   * fields omitted.
   */
  public Map<String, Object> schemaForm() {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String k : kind.schemaFields()) {
      Object v = fields.get(k);
      if (v == null) {
        v = schemaDefault(k);
      }
      if (v == null) {
        continue;
      }
      if ((k.equals("prefill") || k.equals("decode")) && v instanceof Map<?, ?> w) {
        Map<String, Object> worker = new LinkedHashMap<>();
        for (String f : RowKind.WORKER_FIELDS) {
          Object wv = w.get(f);
          if (wv == null) {
            wv = switch (f) {
              case "pp", "dcp-size", "pcp-size" -> 1;
              case "additional-settings" -> w.containsKey(f) ? null : List.of();
              default -> null;
            };
          }
          if (wv != null) {
            worker.put(f, wv);
          }
        }
        v = Collections.unmodifiableMap(worker);
      }
      out.put(k, v);
    }
    return Collections.unmodifiableMap(out);
  }

  private Object schemaDefault(String k) {
    return switch (kind) {
      case SINGLE_NODE -> k.equals("require-power") || k.equals("eval-only") ? Boolean.FALSE : null;
      case MULTI_NODE -> k.equals("require-power") || k.equals("eval-only") || k.equals("eval-all-concs")
          ? Boolean.FALSE : null;
      case SINGLE_NODE_AGENTIC -> k.equals("spec-decoding") ? "none" : null;
      case MULTI_NODE_AGENTIC -> null;
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MatrixRow r && r.fields.equals(fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fields);
  }

  @Override
  public String toString() {
    return toJson();
  }
}
