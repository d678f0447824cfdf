package io.infx.matrix;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The matrix row's field table, declared once: every field a row (or a multi-node worker, or a
 * component object) may hold, its JSON name, and — per {@link RowKind} — its type, whether it is
 * required, defaulted or optional, its default, and its position in schema order. The rule id of
 * a field is {@code V61.<name>} (reference {@code validation.py} {@code *MatrixEntry} models at
 * {@code 07db303e}, spec matrix §5.1–5.5).
 *
 * <p>Everything that knows the row's shape is driven by this table: the generator's output
 * validation (rule V61, {@link MatrixRow#problems()}), the planner's schema re-serialization
 * (rule V72: schema order, defaults written out, {@link MatrixRow#schemaForm()}), JSON reading
 * ({@link MatrixRow#parse}) and the typed accessors of {@link MatrixRow} that fleet projects into
 * launch variables.
 */
public enum RowField {
  IMAGE("image"),
  SRT_RECIPE("srt-recipe"),
  EVAL_SRT_RECIPE("eval-srt-recipe"),
  MODEL("model"),
  MODEL_PREFIX("model-prefix"),
  PRECISION("precision"),
  FRAMEWORK("framework"),
  SPEC_DECODING("spec-decoding"),
  RUNNER("runner"),
  NODE_COUNT("node-count"),
  ISL("isl"),
  OSL("osl"),
  REQUIRE_POWER("require-power"),
  TP("tp"),
  PP("pp"),
  DCP_SIZE("dcp-size"),
  PCP_SIZE("pcp-size"),
  EP("ep"),
  DP_ATTN("dp-attn"),
  PREFILL("prefill"),
  DECODE("decode"),
  CONC("conc"),
  MAX_MODEL_LEN("max-model-len"),
  KV_OFFLOADING("kv-offloading"),
  KV_OFFLOAD_BACKEND("kv-offload-backend"),
  ROUTER("router"),
  KV_P2P_TRANSFER("kv-p2p-transfer"),
  TOTAL_CPU_DRAM_GB("total-cpu-dram-gb"),
  DURATION("duration"),
  EXP_NAME("exp-name"),
  DISAGG("disagg"),
  SCENARIO_TYPE("scenario-type"),
  RUN_EVAL("run-eval"),
  EVAL_ONLY("eval-only"),
  EVAL_CONC("eval-conc"),
  EVAL_ALL_CONCS("eval-all-concs"),
  EVAL_FRAMEWORK("eval-framework"),
  EVAL_SUITE("eval-suite"),
  RECIPE_FINGERPRINT("recipe-fingerprint"),
  // Worker objects (prefill/decode) only.
  NUM_WORKER("num-worker"),
  HARDWARE("hardware"),
  ADDITIONAL_SETTINGS("additional-settings"),
  // Component objects (router, kv-offload-backend) only.
  NAME("name"),
  VERSION("version");

  /** The value types of the table (pydantic's types in the reference models). */
  public enum Type {
    /** {@code str}. */
    TEXT,
    /** {@code str} with {@code min_length=1}. */
    NON_EMPTY_TEXT,
    /** {@code int} (32-bit here). */
    INT,
    /** {@code int}, {@code gt=0}. */
    POSITIVE_INT,
    /** {@code int}, {@code ge=0}. */
    NON_NEGATIVE_INT,
    /** {@code bool}. */
    BOOL,
    /** {@code Literal[False]} (single-node {@code disagg}). */
    FALSE,
    /** {@code Literal['mtp', 'draft_model', 'none']}. */
    SPEC_DECODING,
    /** {@code Literal['none', 'dram']}. */
    KV_OFFLOADING,
    /** {@code str} matching {@code ^[0-9a-f]{64}$}. */
    HEX64,
    /** {@code int | list[int]}. */
    INT_OR_INT_LIST,
    /** {@code list[int]}. */
    INT_LIST,
    /** {@code list[str] | None}. */
    TEXT_LIST_OR_NULL,
    /** A worker object ({@link RowField#WORKER}). */
    WORKER,
    /** A component object with a required version ({@link RowField#COMPONENT}). */
    COMPONENT,
    /** A component object with an optional version ({@link RowField#BACKEND}). */
    BACKEND
  }

  /** Whether a field must be present, takes a default, or may be left out. */
  public enum Presence {
    REQUIRED,
    DEFAULTED,
    OPTIONAL,
    /**
     * Not a field of the reference's model, but one its generator adds to rows of this kind after
     * the output check (eval marking): allowed in generator form, refused by the planner's
     * re-serialization (V72) and left out of the schema form.
     */
    GENERATOR_ONLY
  }

  /**
   * One row of the table: {@code field} in one object layout, with its type, presence and default
   * ({@code null} unless {@link Presence#DEFAULTED}). Position in the layout list = schema order.
   */
  public record Slot(RowField field, Type type, Presence presence, Object defaultValue) {

    /** The field's JSON name. */
    public String name() {
      return field.key;
    }

    /** The rule id problems with this field are reported under, e.g. {@code V61.tp}. */
    public String ruleId() {
      return field.ruleId();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The table. One list per object layout, in schema declaration order.
  // ---------------------------------------------------------------------------------------------

  /** {@code SingleNodeMatrixEntry}. */
  static final List<Slot> SINGLE_NODE_LAYOUT = List.of(
      req(IMAGE, Type.TEXT), opt(SRT_RECIPE, Type.NON_EMPTY_TEXT), opt(EVAL_SRT_RECIPE, Type.NON_EMPTY_TEXT),
      req(MODEL, Type.TEXT), req(MODEL_PREFIX, Type.TEXT), req(PRECISION, Type.TEXT),
      req(FRAMEWORK, Type.TEXT), req(SPEC_DECODING, Type.SPEC_DECODING), req(RUNNER, Type.TEXT),
      req(ISL, Type.INT), req(OSL, Type.INT), def(REQUIRE_POWER, Type.BOOL, false),
      req(TP, Type.INT), req(PP, Type.POSITIVE_INT), req(DCP_SIZE, Type.POSITIVE_INT),
      req(PCP_SIZE, Type.POSITIVE_INT), req(EP, Type.INT), req(DP_ATTN, Type.BOOL),
      req(CONC, Type.INT_OR_INT_LIST), req(MAX_MODEL_LEN, Type.INT), req(EXP_NAME, Type.TEXT),
      req(DISAGG, Type.FALSE), req(RUN_EVAL, Type.BOOL), def(EVAL_ONLY, Type.BOOL, false),
      opt(EVAL_FRAMEWORK, Type.TEXT), opt(EVAL_SUITE, Type.TEXT), opt(ROUTER, Type.COMPONENT),
      opt(RECIPE_FINGERPRINT, Type.HEX64));

  /** {@code MultiNodeMatrixEntry}. */
  static final List<Slot> MULTI_NODE_LAYOUT = List.of(
      opt(SRT_RECIPE, Type.NON_EMPTY_TEXT), opt(EVAL_SRT_RECIPE, Type.NON_EMPTY_TEXT),
      req(IMAGE, Type.TEXT), req(MODEL, Type.TEXT), req(MODEL_PREFIX, Type.TEXT),
      req(PRECISION, Type.TEXT), req(FRAMEWORK, Type.TEXT), req(SPEC_DECODING, Type.SPEC_DECODING),
      req(RUNNER, Type.TEXT), req(NODE_COUNT, Type.POSITIVE_INT), req(ISL, Type.INT), req(OSL, Type.INT),
      def(REQUIRE_POWER, Type.BOOL, false), req(PREFILL, Type.WORKER),
      req(DECODE, Type.WORKER), req(CONC, Type.INT_LIST), req(MAX_MODEL_LEN, Type.INT),
      req(EXP_NAME, Type.TEXT), req(DISAGG, Type.BOOL), req(RUN_EVAL, Type.BOOL),
      def(EVAL_ONLY, Type.BOOL, false), opt(EVAL_CONC, Type.INT),
      def(EVAL_ALL_CONCS, Type.BOOL, false), opt(EVAL_FRAMEWORK, Type.TEXT),
      opt(EVAL_SUITE, Type.TEXT), opt(ROUTER, Type.COMPONENT), opt(KV_P2P_TRANSFER, Type.NON_EMPTY_TEXT),
      opt(RECIPE_FINGERPRINT, Type.HEX64));

  /** {@code SingleNodeAgenticMatrixEntry}. */
  static final List<Slot> SINGLE_NODE_AGENTIC_LAYOUT = List.of(
      req(IMAGE, Type.TEXT), opt(SRT_RECIPE, Type.NON_EMPTY_TEXT), opt(EVAL_SRT_RECIPE, Type.NON_EMPTY_TEXT),
      req(MODEL, Type.TEXT), req(MODEL_PREFIX, Type.TEXT), req(PRECISION, Type.TEXT),
      req(FRAMEWORK, Type.TEXT), req(RUNNER, Type.TEXT), req(TP, Type.INT), req(PP, Type.POSITIVE_INT),
      req(DCP_SIZE, Type.POSITIVE_INT), req(PCP_SIZE, Type.POSITIVE_INT), req(EP, Type.INT),
      req(DP_ATTN, Type.BOOL), def(SPEC_DECODING, Type.SPEC_DECODING, "none"),
      req(CONC, Type.INT), req(KV_OFFLOADING, Type.KV_OFFLOADING), opt(KV_OFFLOAD_BACKEND, Type.BACKEND),
      opt(ROUTER, Type.COMPONENT), req(TOTAL_CPU_DRAM_GB, Type.NON_NEGATIVE_INT), req(DURATION, Type.INT),
      req(EXP_NAME, Type.TEXT), req(SCENARIO_TYPE, Type.TEXT), opt(RUN_EVAL, Type.BOOL),
      opt(EVAL_ONLY, Type.BOOL), opt(EVAL_FRAMEWORK, Type.TEXT), opt(EVAL_SUITE, Type.TEXT),
      opt(RECIPE_FINGERPRINT, Type.HEX64));

  /** {@code MultiNodeAgenticMatrixEntry}. */
  static final List<Slot> MULTI_NODE_AGENTIC_LAYOUT = List.of(
      opt(SRT_RECIPE, Type.NON_EMPTY_TEXT), opt(EVAL_SRT_RECIPE, Type.NON_EMPTY_TEXT),
      req(IMAGE, Type.TEXT), req(MODEL, Type.TEXT), req(MODEL_PREFIX, Type.TEXT),
      req(PRECISION, Type.TEXT), req(FRAMEWORK, Type.TEXT), req(SPEC_DECODING, Type.SPEC_DECODING),
      req(RUNNER, Type.TEXT), req(NODE_COUNT, Type.POSITIVE_INT), req(PREFILL, Type.WORKER),
      req(DECODE, Type.WORKER), req(CONC, Type.INT_LIST), req(KV_OFFLOADING, Type.KV_OFFLOADING),
      opt(KV_OFFLOAD_BACKEND, Type.BACKEND), opt(ROUTER, Type.COMPONENT),
      opt(KV_P2P_TRANSFER, Type.NON_EMPTY_TEXT), req(TOTAL_CPU_DRAM_GB, Type.NON_NEGATIVE_INT),
      req(DURATION, Type.INT), req(EXP_NAME, Type.TEXT), req(DISAGG, Type.BOOL),
      req(SCENARIO_TYPE, Type.TEXT), opt(RUN_EVAL, Type.BOOL), opt(EVAL_ONLY, Type.BOOL),
      opt(EVAL_CONC, Type.INT), opt(EVAL_FRAMEWORK, Type.TEXT), opt(EVAL_SUITE, Type.TEXT),
      opt(RECIPE_FINGERPRINT, Type.HEX64),
      new Slot(EVAL_ALL_CONCS, Type.BOOL, Presence.GENERATOR_ONLY, null));

  /** A {@code prefill}/{@code decode} worker object ({@code WorkerConfig}). */
  public static final List<Slot> WORKER = List.of(
      req(NUM_WORKER, Type.INT), req(TP, Type.INT), def(PP, Type.POSITIVE_INT, 1),
      def(DCP_SIZE, Type.POSITIVE_INT, 1), def(PCP_SIZE, Type.POSITIVE_INT, 1),
      req(EP, Type.INT), req(DP_ATTN, Type.BOOL), opt(HARDWARE, Type.NON_EMPTY_TEXT),
      def(ADDITIONAL_SETTINGS, Type.TEXT_LIST_OR_NULL, List.of()));

  /** A {@code router} component: name and version both required. */
  public static final List<Slot> COMPONENT = List.of(req(NAME, Type.NON_EMPTY_TEXT),
      req(VERSION, Type.NON_EMPTY_TEXT));

  /** A {@code kv-offload-backend} component: the version may be left out. */
  public static final List<Slot> BACKEND = List.of(req(NAME, Type.NON_EMPTY_TEXT),
      opt(VERSION, Type.NON_EMPTY_TEXT));

  private static final Map<String, RowField> BY_KEY = new HashMap<>();

  static {
    for (RowField f : values()) {
      BY_KEY.put(f.key, f);
    }
  }

  private final String key;

  RowField(String key) {
    this.key = key;
  }

  /** The field's JSON name, e.g. {@code model-prefix}. */
  public String key() {
    return key;
  }

  /** The rule id problems with this field are reported under: {@code V61.<name>}. */
  public String ruleId() {
    return "V61." + key;
  }

  /** The field of a JSON name, if the table has one. */
  public static Optional<RowField> ofKey(String key) {
    return Optional.ofNullable(BY_KEY.get(key));
  }

  private static Slot req(RowField f, Type t) {
    return new Slot(f, t, Presence.REQUIRED, null);
  }

  private static Slot opt(RowField f, Type t) {
    return new Slot(f, t, Presence.OPTIONAL, null);
  }

  private static Slot def(RowField f, Type t, Object d) {
    return new Slot(f, t, Presence.DEFAULTED, d);
  }
}
