package io.infx.core.launch;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.python.PythonNumbers;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The catalogue of launch variables: the environment a benchmark point is launched with (the
 * reference's workflow templates and launch scripts), which the fleet projects from a matrix row
 * and the result stages read back (the normalizer's {@code process_result.py} variables, the
 * AgentX aggregate's identity). Each constant's name is the variable's name; it declares its
 * type, the matrix-row field it is projected from (a JSON pointer into the generator's row, empty
 * for values the launch step adds), the launcher's default when the row leaves the field out,
 * and whether the value is a secret.
 *
 * <p>The parse rules live here once: {@link #parseInt} is Python's {@code int()} (so
 * {@code 1__2}, {@code _1} and {@code 1_} are refused), {@link #isTrue} is the normalizer's
 * {@code value.lower() == "true"}, {@link #isFlagOn} the AgentX aggregate's
 * {@code 1/true/yes/on}. Readers take defaults of their own where the reference does
 * (see each reader).
 */
public enum LaunchVariable {
  EXP_NAME(Type.TEXT, "/exp-name", null),
  RECIPE_FINGERPRINT(Type.TEXT, "/recipe-fingerprint", ""),
  RUNNER_TYPE(Type.TEXT, "", null),
  RUNNER_NAME(Type.TEXT, "", null),
  RESULT_FILENAME(Type.TEXT, "", null),
  IMAGE(Type.TEXT, "/image", null),
  MODEL(Type.TEXT, "/model", null),
  MODEL_PREFIX(Type.TEXT, "/model-prefix", null),
  FRAMEWORK(Type.TEXT, "/framework", null),
  PRECISION(Type.TEXT, "/precision", null),
  SPEC_DECODING(Type.TEXT, "/spec-decoding", null),
  DISAGG(Type.BOOL, "/disagg", null),
  ISL(Type.INT, "/isl", null),
  OSL(Type.INT, "/osl", null),
  MAX_MODEL_LEN(Type.INT, "/max-model-len", null),
  CONC(Type.INT, "/conc", null),
  CONC_LIST(Type.INT_LIST, "/conc", null),
  ROUTER_METADATA(Type.JSON, "/router", ""),
  KV_P2P_TRANSFER(Type.TEXT, "/kv-p2p-transfer", ""),
  IS_MULTINODE(Type.BOOL, "", "false"),
  GPU_COUNT(Type.INT, "", null),
  TP(Type.INT, "/tp", null),
  PP_SIZE(Type.INT, "/pp", "1"),
  DCP_SIZE(Type.INT, "/dcp-size", "1"),
  PCP_SIZE(Type.INT, "/pcp-size", "1"),
  EP_SIZE(Type.INT, "/ep", null),
  DP_ATTENTION(Type.BOOL, "/dp-attn", null),
  PREFILL_HARDWARE(Type.TEXT, "/prefill/hardware", ""),
  PREFILL_NUM_WORKERS(Type.INT, "/prefill/num-worker", null),
  PREFILL_TP(Type.INT, "/prefill/tp", null),
  PREFILL_PP_SIZE(Type.INT, "/prefill/pp", "1"),
  PREFILL_DCP_SIZE(Type.INT, "/prefill/dcp-size", "1"),
  PREFILL_PCP_SIZE(Type.INT, "/prefill/pcp-size", "1"),
  PREFILL_EP(Type.INT, "/prefill/ep", null),
  PREFILL_DP_ATTN(Type.BOOL, "/prefill/dp-attn", null),
  PREFILL_GPUS(Type.INT, "", null),
  DECODE_HARDWARE(Type.TEXT, "/decode/hardware", ""),
  DECODE_NUM_WORKERS(Type.INT, "/decode/num-worker", null),
  DECODE_TP(Type.INT, "/decode/tp", null),
  DECODE_PP_SIZE(Type.INT, "/decode/pp", "1"),
  DECODE_DCP_SIZE(Type.INT, "/decode/dcp-size", "1"),
  DECODE_PCP_SIZE(Type.INT, "/decode/pcp-size", "1"),
  DECODE_EP(Type.INT, "/decode/ep", null),
  DECODE_DP_ATTN(Type.BOOL, "/decode/dp-attn", null),
  DECODE_GPUS(Type.INT, "", null),
  AGGREGATE_GPUS(Type.INT, "", "0"),
  // Set by the reference's multi-node launch scripts and recipes, not projected from the row: the
  // eval metadata (bridge_disagg_eval_metadata) falls back to them.
  MODEL_NAME(Type.TEXT, "", null),
  EP(Type.INT, "", null),
  PREFILL_TP_SIZE(Type.INT, "", null),
  PREFILL_ENABLE_EP(Type.FLAG, "", null),
  PREFILL_DP_ATTENTION(Type.FLAG, "", null),
  PREFILL_ENABLE_DP(Type.FLAG, "", null),
  DECODE_TP_SIZE(Type.INT, "", null),
  DECODE_ENABLE_EP(Type.FLAG, "", null),
  DECODE_DP_ATTENTION(Type.FLAG, "", null),
  DECODE_ENABLE_DP(Type.FLAG, "", null),
  /** Prefill workers, as the reference's multi-node scripts name them. */
  xP(Type.INT, "", null),
  /** Decode workers, as the reference's multi-node scripts name them. */
  yD(Type.INT, "", null),
  /** The server's port (benchmark_lib.sh); the launcher picks a free one when unset. */
  PORT(Type.INT, "", null),
  // The result stages' own inputs (process_result.py's power stage, the AgentX aggregate).
  GPU_METRICS_CSV(Type.TEXT, "", null),
  POWER_ARTIFACT_DIR(Type.TEXT, "", "LOGS/power"),
  POWER_RESULT_ROOT(Type.TEXT, "", "LOGS"),
  AGENTIC_OUTPUT_DIR(Type.TEXT, "", "."),
  KV_OFFLOADING(Type.TEXT, "/kv-offloading", ""),
  KV_OFFLOAD_BACKEND(Type.TEXT, "/kv-offload-backend/name", ""),
  KV_OFFLOAD_BACKEND_METADATA(Type.JSON, "/kv-offload-backend", ""),
  TOTAL_CPU_DRAM_GB(Type.INT, "/total-cpu-dram-gb", "0"),
  REQUIRE_POWER(Type.FLAG, "/require-power", "0"),
  RUN_EVAL(Type.BOOL, "/run-eval", "false"),
  EVAL_ONLY(Type.BOOL, "/eval-only", "false"),
  /** Multi-node eval-only jobs: {@code eval-conc}, or every {@code conc} when {@code eval-all-concs}. */
  EVAL_CONC(Type.INT_LIST, "/eval-conc", ""),
  EVAL_LIMIT(Type.TEXT, "", ""),
  SCENARIO_TYPE(Type.TEXT, "/scenario-type", "fixed-seq-len"),
  SCENARIO_SUBDIR(Type.TEXT, "", "fixed_seq_len/"),
  IS_AGENTIC(Type.FLAG, "", "0"),
  /** AgentX replay duration, seconds. */
  DURATION(Type.INT, "/duration", "3600"),
  AIPERF_EXPERIMENTAL_FAST(Type.FLAG, "", "0"),
  SWEBENCH_GEN_MODE(Type.TEXT, "", "agentic"),
  POWER_PRODUCER_SHA(Type.TEXT, "", ""),
  // Constants of the reference's workflow templates.
  RANDOM_RANGE_RATIO(Type.TEXT, "", "0.8"),
  HF_HUB_CACHE(Type.TEXT, "", "/mnt/hf_hub_cache/"),
  AIPERF_FAILED_REQUEST_THRESHOLD(Type.TEXT, "", "0.10"),
  RESULT_DIR(Type.TEXT, "", "/workspace/results"),
  PYTHONDONTWRITEBYTECODE(Type.FLAG, "", "1"),
  PYTHONPYCACHEPREFIX(Type.TEXT, "", null),
  SWEBENCH_USE_MODAL(Type.BOOL, "", "true"),
  SALLOC_EXCLUDE(Type.TEXT, "", ""),
  HF_TOKEN(Type.TEXT, "", null, true),
  MODAL_TOKEN_ID(Type.TEXT, "", null, true),
  MODAL_TOKEN_SECRET(Type.TEXT, "", null, true);

  /** How a value is written and read. */
  public enum Type {
    /** Free text. */
    TEXT,
    /** A base-10 integer, read with {@link LaunchVariable#parseInt}. */
    INT,
    /** Space-separated integers. */
    INT_LIST,
    /** {@code true}/{@code false}, read with {@link LaunchVariable#isTrue}. */
    BOOL,
    /** An on/off switch, read with {@link LaunchVariable#isFlagOn}. */
    FLAG,
    /** A JSON document ({@code ""} when absent). */
    JSON
  }

  private final Type type;
  private final String rowField;
  private final String launcherDefault;
  private final boolean secret;

  LaunchVariable(Type type, String rowField, String launcherDefault) {
    this(type, rowField, launcherDefault, false);
  }

  LaunchVariable(Type type, String rowField, String launcherDefault, boolean secret) {
    this.type = type;
    this.rowField = rowField;
    this.launcherDefault = launcherDefault;
    this.secret = secret;
  }

  public Type type() {
    return type;
  }

  /** JSON pointer of the matrix-row field projected into this variable; empty if none. */
  public Optional<String> rowField() {
    return rowField.isEmpty() ? Optional.empty() : Optional.of(rowField);
  }

  /** The value the launcher sets when the row leaves the field out; empty when it is required. */
  public Optional<String> launcherDefault() {
    return Optional.ofNullable(launcherDefault);
  }

  /** Whether the value must never reach a file or a log. */
  public boolean secret() {
    return secret;
  }

  /** The role-prefixed variables of a multi-node worker side, {@code "PREFILL"} or {@code "DECODE"}. */
  public static List<LaunchVariable> role(String side) {
    boolean prefill = side.equals("PREFILL");
    return prefill
        ? List.of(PREFILL_NUM_WORKERS, PREFILL_TP, PREFILL_PP_SIZE, PREFILL_DCP_SIZE,
            PREFILL_PCP_SIZE, PREFILL_EP, PREFILL_DP_ATTN)
        : List.of(DECODE_NUM_WORKERS, DECODE_TP, DECODE_PP_SIZE, DECODE_DCP_SIZE,
            DECODE_PCP_SIZE, DECODE_EP, DECODE_DP_ATTN);
  }

  /** The variables whose values must never reach a file or a log. */
  public static List<LaunchVariable> secrets() {
    return java.util.Arrays.stream(values()).filter(LaunchVariable::secret).toList();
  }

  /** The value in {@code env} when set and not empty (the shell's {@code ${NAME:-…}} test). */
  public Optional<String> in(Map<String, String> env) {
    String v = env.get(name());
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
  }

  /** {@code ${NAME:-fallback}}: the value in {@code env}, or {@code fallback} when unset or empty. */
  public String in(Map<String, String> env, String fallback) {
    return in(env).orElse(fallback);
  }

  /**
   * The value in {@code env} read with the integer rule ({@link #parseInt}); empty when unset or
   * empty.
   *
   * @throws InfxException kind {@code env}, naming the variable and the value, when it is not an
   *     integer
   */
  public OptionalInt intIn(Map<String, String> env) {
    Optional<String> v = in(env);
    if (v.isEmpty()) {
      return OptionalInt.empty();
    }
    PythonNumbers.Conversion<Integer> c = parseInt(v.get());
    if (!c.ok()) {
      throw new InfxException(ErrorKind.ENV, name() + " must be an integer, got '" + v.get() + "' (" + c.problem() + ")");
    }
    return OptionalInt.of(c.value().get());
  }

  /**
   * The value in {@code env} read with this variable's boolean rule: {@link #isTrue} for
   * {@link Type#BOOL}, {@link #isFlagOn} for {@link Type#FLAG}; unset is false.
   *
   * @throws IllegalStateException for a variable of another type
   */
  public boolean isOnIn(Map<String, String> env) {
    return switch (type) {
      case BOOL -> isTrue(env.get(name()));
      case FLAG -> isFlagOn(env.get(name()));
      default -> throw new IllegalStateException(name() + " is " + type + ", not a boolean");
    };
  }

  /** The names of {@code variables}, in order. */
  public static List<String> names(LaunchVariable... variables) {
    return java.util.Arrays.stream(variables).map(Enum::name).toList();
  }

  /**
   * The one integer rule: Python's {@code int(value)} in base 10 (surrounding whitespace, a sign,
   * single underscores between digits; {@code 1__2} is refused).
   */
  public static PythonNumbers.Conversion<Integer> parseInt(String value) {
    return PythonNumbers.parseInt(value);
  }

  /** The normalizer's boolean rule: {@code value.lower() == "true"}; {@code null} is false. */
  public static boolean isTrue(@Nullable String value) {
    return value != null && value.toLowerCase(Locale.ROOT).equals("true");
  }

  private static final Set<String> FLAG_ON = Set.of("1", "true", "yes", "on");

  /**
   * The AgentX aggregate's switch rule: {@code 1}, {@code true}, {@code yes} or {@code on} in any
   * case (spec agentx §4.2); {@code null} and {@code ""} are off.
   */
  public static boolean isFlagOn(@Nullable String value) {
    return value != null && FLAG_ON.contains(value.toLowerCase(Locale.ROOT));
  }
}
