package io.infx.matrix;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import io.infx.matrix.internal.JsonLocations;
import io.infx.matrix.internal.JsonValues;
import io.infx.matrix.internal.Row;
import io.infx.matrix.internal.RowRules;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One matrix row: one scheduled benchmark (or eval) job, as the reusable workflow of its
 * {@link RowKind} consumes it. Immutable and always valid against its kind's schema (the field
 * table {@link RowField}); sealed, one subclass per kind:
 *
 * <ul>
 *   <li>{@link SingleNode} — single-node fixed-seq-len ({@link FixedSeqLen}, {@link OnOneNode});
 *   <li>{@link MultiNode} — multi-node fixed-seq-len ({@link FixedSeqLen}, {@link OnManyNodes});
 *   <li>{@link SingleNodeAgentic} — single-node AgentX ({@link Agentic}, {@link OnOneNode});
 *   <li>{@link MultiNodeAgentic} — multi-node AgentX ({@link Agentic}, {@link OnManyNodes}).
 * </ul>
 *
 * An eval-only job is a row of any kind with {@link #evalOnly()} set.
 *
 * <p>{@link #fields()} holds the row in <em>generator form</em>: keys in exactly the order the
 * reference prints them (construction order; eval fields appended as they are set), values as JSON
 * types (String, Integer, Boolean, List, nested Map; {@code null} only where the input wrote one).
 * The typed accessors read the same values. {@link #toJson()} is the reference's {@code json.dumps}
 * text; {@link #schemaForm()} the planner's schema-ordered form with defaults written out;
 * {@link #parse}/{@link #read} read a row from JSON with located errors.
 */
public abstract sealed class MatrixRow permits MatrixRow.SingleNode, MatrixRow.MultiNode,
    MatrixRow.SingleNodeAgentic, MatrixRow.MultiNodeAgentic {

  // The facets read their fields here, once, for every kind they permit (the casts are safe: the
  // facets are sealed to MatrixRow's own subclasses); a kind overrides only where it differs.

  /** Rows that run one fixed input/output sequence length. */
  public sealed interface FixedSeqLen permits SingleNode, MultiNode {
    /** Input sequence length, tokens. */
    default int isl() {
      return ((MatrixRow) this).integer(RowField.ISL);
    }

    /** Output sequence length, tokens. */
    default int osl() {
      return ((MatrixRow) this).integer(RowField.OSL);
    }

    /** The engine's context limit, tokens. */
    default int maxModelLen() {
      return ((MatrixRow) this).integer(RowField.MAX_MODEL_LEN);
    }

    /** Whether power is sampled ({@code require-power}, default false). */
    default boolean requirePower() {
      return ((MatrixRow) this).flag(RowField.REQUIRE_POWER);
    }
  }

  /** AgentX rows: trace replay for a duration. */
  public sealed interface Agentic permits SingleNodeAgentic, MultiNodeAgentic {
    /** {@code kv-offloading}: {@code none} or {@code dram}. */
    default String kvOffloading() {
      return ((MatrixRow) this).text(RowField.KV_OFFLOADING);
    }

    /** {@code kv-offload-backend}, present exactly when offloading is on. */
    default Optional<RowComponent> kvOffloadBackend() {
      return ((MatrixRow) this).component(RowField.KV_OFFLOAD_BACKEND);
    }

    /** CPU DRAM budget for KV offload, GB ({@code >= 0}). */
    default int totalCpuDramGb() {
      return ((MatrixRow) this).integer(RowField.TOTAL_CPU_DRAM_GB);
    }

    /** Replay duration, seconds. */
    default int duration() {
      return ((MatrixRow) this).integer(RowField.DURATION);
    }

    /** {@code scenario-type}, {@code agentic-coding}. */
    default String scenarioType() {
      return ((MatrixRow) this).text(RowField.SCENARIO_TYPE);
    }
  }

  /** Rows served by one engine instance on one node. */
  public sealed interface OnOneNode permits SingleNode, SingleNodeAgentic {
    /** Tensor parallel size. */
    default int tp() {
      return ((MatrixRow) this).integer(RowField.TP);
    }

    /** Pipeline parallel size ({@code pp}, > 0). */
    default int pp() {
      return ((MatrixRow) this).integer(RowField.PP);
    }

    /** Decode context parallel size ({@code dcp-size}, > 0, divides {@code tp}). */
    default int dcpSize() {
      return ((MatrixRow) this).integer(RowField.DCP_SIZE);
    }

    /** Prefill context parallel size ({@code pcp-size}, > 0). */
    default int pcpSize() {
      return ((MatrixRow) this).integer(RowField.PCP_SIZE);
    }

    /** Expert parallel size ({@code ep}). */
    default int ep() {
      return ((MatrixRow) this).integer(RowField.EP);
    }

    /** Data-parallel attention ({@code dp-attn}). */
    default boolean dpAttn() {
      return ((MatrixRow) this).flag(RowField.DP_ATTN);
    }
  }

  /** Rows with prefill and decode workers over several nodes. */
  public sealed interface OnManyNodes permits MultiNode, MultiNodeAgentic {
    /** {@code node-count}, > 0. */
    default int nodeCount() {
      return ((MatrixRow) this).integer(RowField.NODE_COUNT);
    }

    default RowWorker prefill() {
      return ((MatrixRow) this).worker(RowField.PREFILL);
    }

    default RowWorker decode() {
      return ((MatrixRow) this).worker(RowField.DECODE);
    }

    /** Prefill/decode disaggregation ({@code disagg}). */
    default boolean disagg() {
      return ((MatrixRow) this).flag(RowField.DISAGG);
    }

    /** {@code kv-p2p-transfer}, the transfer engine (required when {@link #disagg()}). */
    default Optional<String> kvP2pTransfer() {
      return ((MatrixRow) this).optionalText(RowField.KV_P2P_TRANSFER);
    }

    /** {@code eval-conc}: the concurrency an eval-only job runs at. */
    default OptionalInt evalConc() {
      return ((MatrixRow) this).get(RowField.EVAL_CONC).map(v -> OptionalInt.of((Integer) v)).orElse(OptionalInt.empty());
    }

    /** {@code eval-all-concs}: an eval-only job evaluates every concurrency of the row. */
    boolean evalAllConcs();
  }

  /**
   * A {@code prefill} or {@code decode} worker ({@link RowField#WORKER}); {@code pp},
   * {@code dcp-size}, {@code pcp-size} default to 1, {@code additional-settings} to none.
   *
   * @param additionalSettings {@code NAME=value} settings exported for this worker, in order
   */
  public record RowWorker(int numWorker, int tp, int pp, int dcpSize, int pcpSize, int ep, boolean dpAttn,
      Optional<String> hardware, List<String> additionalSettings) {

    @SuppressWarnings("unchecked")
    static RowWorker of(Map<String, Object> w) {
      Object settings = w.get(RowField.ADDITIONAL_SETTINGS.key());
      return new RowWorker(intOr(w, RowField.NUM_WORKER, 0), intOr(w, RowField.TP, 0), intOr(w, RowField.PP, 1),
          intOr(w, RowField.DCP_SIZE, 1), intOr(w, RowField.PCP_SIZE, 1), intOr(w, RowField.EP, 0),
          Boolean.TRUE.equals(w.get(RowField.DP_ATTN.key())),
          Optional.ofNullable((String) w.get(RowField.HARDWARE.key())),
          settings == null ? List.of() : (List<String>) settings);
    }
  }

  /** A {@code router} or {@code kv-offload-backend} component: a name and maybe a version. */
  public static final class RowComponent {
    private final Map<String, Object> fields;

    RowComponent(Map<String, Object> fields) {
      this.fields = fields;
    }

    public String name() {
      return (String) fields.get(RowField.NAME.key());
    }

    public Optional<String> version() {
      return Optional.ofNullable((String) fields.get(RowField.VERSION.key()));
    }

    /** {@code json.dumps} of the object, keys in the row's order (the launch metadata form). */
    public String toJson() {
      return PythonJson.dumpsValue(fields);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof RowComponent c && c.fields.equals(fields);
    }

    @Override
    public int hashCode() {
      return fields.hashCode();
    }

    @Override
    public String toString() {
      return toJson();
    }
  }

  private final Row fields;
  private final JsonLocations locations;

  private MatrixRow(Row fields, JsonLocations locations) {
    this.fields = fields;
    this.locations = locations;
  }

  private static MatrixRow create(Row row, RowKind kind, JsonLocations locations) {
    return switch (kind) {
      case SINGLE_NODE -> new SingleNode(row, locations);
      case MULTI_NODE -> new MultiNode(row, locations);
      case SINGLE_NODE_AGENTIC -> new SingleNodeAgentic(row, locations);
      case MULTI_NODE_AGENTIC -> new MultiNodeAgentic(row, locations);
    };
  }

  private static final JsonLocations NO_LOCATIONS = JsonLocations.none("<row>");

  /**
   * A row from generator-form fields (deep-copied and frozen); its kind follows from its keys.
   *
   * @throws ValidationException kind {@code generation}, one violation per problem (rule
   *     {@code V61.<field>} or the invariant's id) when the fields are not a valid row of that kind
   *     (the generator's own output check)
   */
  public static MatrixRow of(Map<String, ?> fields) {
    Row row = new Row(fields).deepCopy().freeze();
    RowKind kind = kindOf(row);
    RowRules.validate(row, kind);
    return create(row, kind, NO_LOCATIONS);
  }

  /** Wraps a finished internal row (frozen in place, not copied). */
  static MatrixRow wrap(Row row) {
    row.freeze();
    return create(row, kindOf(row), NO_LOCATIONS);
  }

  /**
   * Parses one row object from JSON text (what {@code infx generate} prints per row, or a planner
   * bucket's row) and checks it against its kind's schema.
   *
   * @param source the name to use in error messages (a file name, or e.g. {@code <stdin>})
   * @throws InfxException kind {@code row} when the text is not one JSON object
   * @throws ValidationException kind {@code row-validation} listing every problem, each with its
   *     rule id ({@code V61.<field>}), JSON pointer and {@code source:line:column}
   */
  public static MatrixRow parse(String json, String source) {
    JsonNode tree;
    try {
      tree = Json.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      String where = loc == null || loc.getLineNr() < 1
          ? source
          : new Location(source, loc.getLineNr(), Math.max(1, loc.getColumnNr())).toString();
      throw new InfxException(ErrorKind.ROW, where + ": [matrix.row.json] not valid JSON: " + e.getOriginalMessage());
    }
    if (tree == null || tree.isMissingNode()) {
      throw new InfxException(ErrorKind.ROW, source + ": [matrix.row.json] empty input, expected one matrix row object");
    }
    if (tree.isArray()) {
      throw new InfxException(ErrorKind.ROW, source + ": [matrix.row.shape] holds a JSON array of "
          + tree.size() + " rows; pass exactly one row object (e.g. `jq '.[0]' " + source + "`)");
    }
    if (!tree.isObject()) {
      throw new InfxException(ErrorKind.ROW, source + ": [matrix.row.shape] expected one matrix row object, found "
          + tree.getNodeType().name().toLowerCase(Locale.ROOT));
    }
    Row row = ((Row) JsonValues.toJava(tree)).freeze();
    RowKind kind = kindOf(row);
    JsonLocations locations = JsonLocations.index(source, json);
    List<RowRules.Problem> problems = RowRules.check(row, kind);
    if (!problems.isEmpty()) {
      List<Violation> vs = new ArrayList<>();
      for (RowRules.Problem p : problems) {
        var b = Violation.builder().ruleId(p.ruleId()).pointer(p.pointer())
            .message(p.message() + " (" + kind.modelName() + ")");
        locations.locate(p.pointer()).ifPresent(b::location);
        vs.add(b.build());
      }
      throw new ValidationException(ErrorKind.ROW_VALIDATION, vs);
    }
    return create(row, kind, locations);
  }

  /**
   * Reads one row object from a file ({@code -} reads standard input); see {@link #parse}.
   *
   * @throws InfxException kind {@code file} when the file is missing or unreadable
   */
  public static MatrixRow read(Path file) {
    String text;
    try {
      if (file.toString().equals("-")) {
        try (InputStream in = System.in) {
          return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "<stdin>");
        }
      }
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new InfxException(ErrorKind.FILE, file + ": no such file");
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, file + ": cannot read: " + e.getMessage(), e);
    }
    return parse(text, file.toString());
  }

  /** The kind a generator-form row belongs to (by {@code prefill} and {@code scenario-type}). */
  public static RowKind kindOf(Map<String, ?> fields) {
    boolean agentic = "agentic-coding".equals(fields.get(RowField.SCENARIO_TYPE.key()));
    if (fields.get(RowField.PREFILL.key()) != null) {
      return agentic ? RowKind.MULTI_NODE_AGENTIC : RowKind.MULTI_NODE;
    }
    return agentic ? RowKind.SINGLE_NODE_AGENTIC : RowKind.SINGLE_NODE;
  }

  /** A mutable deep copy for the internal pipeline. */
  Row toRow() {
    return fields.deepCopy();
  }

  public abstract RowKind kind();

  /** The row in generator form, keys in the reference's order (unmodifiable, nested maps too). */
  public Map<String, Object> fields() {
    return fields;
  }

  /** The value of {@code field}, if the row holds it (and it is not {@code null}). */
  public Optional<Object> get(RowField field) {
    return Optional.ofNullable(fields.get(field.key()));
  }

  /** The value under a JSON name, if present and not {@code null}. */
  public Optional<Object> get(String key) {
    return Optional.ofNullable(fields.get(key));
  }

  public boolean has(String key) {
    return fields.containsKey(key);
  }

  /**
   * Where the value at a JSON pointer is in the file the row was {@linkplain #parse read} from (the
   * nearest existing parent for absent keys); empty for rows not read from text.
   */
  public Optional<Location> locate(String pointer) {
    return locations.locate(pointer);
  }

  public String image() {
    return text(RowField.IMAGE);
  }

  public String model() {
    return text(RowField.MODEL);
  }

  public String modelPrefix() {
    return text(RowField.MODEL_PREFIX);
  }

  public String precision() {
    return text(RowField.PRECISION);
  }

  public String framework() {
    return text(RowField.FRAMEWORK);
  }

  /** {@code spec-decoding}: {@code mtp}, {@code draft_model} or {@code none} (the default). */
  public String specDecoding() {
    Object v = fields.get(RowField.SPEC_DECODING.key());
    return v == null ? "none" : (String) v;
  }

  /** The runner label or concrete runner name the job is scheduled on. */
  public String runner() {
    return text(RowField.RUNNER);
  }

  public String expName() {
    return text(RowField.EXP_NAME);
  }

  /** Concurrency points: one value for single-node rows, the list for multi-node rows. */
  @SuppressWarnings("unchecked")
  public List<Integer> conc() {
    Object c = fields.get(RowField.CONC.key());
    return c instanceof List<?> l ? (List<Integer>) l : List.of((Integer) c);
  }

  /** {@code srt-recipe}: the srt-slurm recipe path, if any. */
  public Optional<String> srtRecipe() {
    return optionalText(RowField.SRT_RECIPE);
  }

  /** {@code eval-srt-recipe}, if any. */
  public Optional<String> evalSrtRecipe() {
    return optionalText(RowField.EVAL_SRT_RECIPE);
  }

  /** {@code recipe-fingerprint}: 64 hex digits, if the planner set one. */
  public Optional<String> recipeFingerprint() {
    return optionalText(RowField.RECIPE_FINGERPRINT);
  }

  /** {@code router}, if any. */
  public Optional<RowComponent> router() {
    return component(RowField.ROUTER);
  }

  /** {@code run-eval} ({@code false} when absent). */
  public boolean runEval() {
    return flag(RowField.RUN_EVAL);
  }

  /** {@code eval-only} ({@code false} when absent): the job runs only the eval. */
  public boolean evalOnly() {
    return flag(RowField.EVAL_ONLY);
  }

  /** {@code eval-framework}, if set. */
  public Optional<String> evalFramework() {
    return optionalText(RowField.EVAL_FRAMEWORK);
  }

  /** {@code eval-suite}, if set. */
  public Optional<String> evalSuite() {
    return optionalText(RowField.EVAL_SUITE);
  }

  /** Whether the row is an AgentX row ({@link Agentic}). */
  public boolean agentic() {
    return kind().agentic();
  }

  /** Whether the row has prefill/decode workers ({@link OnManyNodes}). */
  public boolean multiNode() {
    return kind().multiNode();
  }

  /** {@code 8k1k}, {@code 1k1k}, {@code <isl>_<osl>}; {@code agentic} for AgentX rows. */
  public String family() {
    if (this instanceof FixedSeqLen f) {
      return io.infx.matrix.config.SeqLen.family(f.isl(), f.osl());
    }
    return "agentic";
  }

  /** Problems against the row kind's schema (rule V61); always empty for a constructed row. */
  public List<String> problems() {
    return RowRules.check(fields, kind()).stream().map(RowRules.Problem::render).toList();
  }

  /** {@code json.dumps(row)}: Python's default separators, ASCII-only. */
  public String toJson() {
    return PythonJson.dumpsValue(fields);
  }

  /**
   * The row re-serialised through its schema, as the planner prints rows (rule V72): fields in
   * schema order ({@link RowKind#schemaFields()}), the table's defaults written out
   * ({@code require-power: false}, {@code eval-only: false}, multi-node {@code eval-all-concs: false},
   * agentic {@code spec-decoding: none}, worker {@code additional-settings: []} and
   * {@code pp/dcp-size/pcp-size: 1}), absent or null optional fields omitted.
   */
  public Map<String, Object> schemaForm() {
    return RowRules.schemaForm(fields, kind()).freeze();
  }

  // Typed reads of validated values (the schema guarantees the types).

  String text(RowField f) {
    return (String) fields.get(f.key());
  }

  Optional<String> optionalText(RowField f) {
    return Optional.ofNullable((String) fields.get(f.key()));
  }

  int integer(RowField f) {
    return (Integer) fields.get(f.key());
  }

  boolean flag(RowField f) {
    return Boolean.TRUE.equals(fields.get(f.key()));
  }

  @SuppressWarnings("unchecked")
  Optional<RowComponent> component(RowField f) {
    Object v = fields.get(f.key());
    return v == null ? Optional.empty() : Optional.of(new RowComponent((Map<String, Object>) v));
  }

  @SuppressWarnings("unchecked")
  RowWorker worker(RowField f) {
    return RowWorker.of((Map<String, Object>) fields.get(f.key()));
  }

  private static int intOr(Map<String, Object> m, RowField f, int dflt) {
    Object v = m.get(f.key());
    return v == null ? dflt : (Integer) v;
  }

  int intOr(RowField f, int dflt) {
    return intOr(fields, f, dflt);
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

  /** A single-node fixed-seq-len row ({@code SingleNodeMatrixEntry}, {@code benchmark-tmpl.yml}). */
  public static final class SingleNode extends MatrixRow implements FixedSeqLen, OnOneNode {
    private SingleNode(Row row, JsonLocations locations) {
      super(row, locations);
    }

    @Override
    public RowKind kind() {
      return RowKind.SINGLE_NODE;
    }
  }

  /** A multi-node fixed-seq-len row ({@code MultiNodeMatrixEntry}). */
  public static final class MultiNode extends MatrixRow implements FixedSeqLen, OnManyNodes {
    private MultiNode(Row row, JsonLocations locations) {
      super(row, locations);
    }

    @Override
    public RowKind kind() {
      return RowKind.MULTI_NODE;
    }

    @Override
    public boolean evalAllConcs() {
      return flag(RowField.EVAL_ALL_CONCS);
    }
  }

  /** A single-node AgentX row ({@code SingleNodeAgenticMatrixEntry}). */
  public static final class SingleNodeAgentic extends MatrixRow implements Agentic, OnOneNode {
    private SingleNodeAgentic(Row row, JsonLocations locations) {
      super(row, locations);
    }

    @Override
    public RowKind kind() {
      return RowKind.SINGLE_NODE_AGENTIC;
    }
  }

  /** A multi-node AgentX row ({@code MultiNodeAgenticMatrixEntry}). */
  public static final class MultiNodeAgentic extends MatrixRow implements Agentic, OnManyNodes {
    private MultiNodeAgentic(Row row, JsonLocations locations) {
      super(row, locations);
    }

    @Override
    public RowKind kind() {
      return RowKind.MULTI_NODE_AGENTIC;
    }

    /** Set by the generator's eval marking only (not a field of the reference model). */
    @Override
    public boolean evalAllConcs() {
      return flag(RowField.EVAL_ALL_CONCS);
    }
  }
}
