package io.infx.results;

import static io.infx.core.launch.LaunchVariable.*;

import io.infx.core.ErrorKind;
import io.infx.core.launch.LaunchVariable;
import io.infx.core.python.PythonNumbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The environment contract of the reference normalizer ({@code utils/process_result.py}): which
 * variables it reads, in which order it checks them, and how it parses them. All values are
 * strings; "required" means defined — an empty value passes the presence check and fails later
 * (e.g. in integer parsing) or is published as an empty string.
 */
public final class ReferenceEnvironment {

  /** The base variables, in the order the reference checks (and reports) them. */
  public static final List<String> BASE_VARIABLES = LaunchVariable.names(
      RUNNER_TYPE, FRAMEWORK, PRECISION, SPEC_DECODING, RESULT_FILENAME,
      ISL, OSL, DISAGG, MODEL_PREFIX, IMAGE);

  /** Required for single-node results. */
  public static final List<String> SINGLE_NODE_VARIABLES = LaunchVariable.names(TP, EP_SIZE, DP_ATTENTION);

  /** Required for multi-node results ({@code IS_MULTINODE=true}). */
  public static final List<String> MULTI_NODE_VARIABLES = LaunchVariable.names(
      PREFILL_GPUS, DECODE_GPUS, PREFILL_NUM_WORKERS, PREFILL_TP, PREFILL_EP,
      PREFILL_DP_ATTN, DECODE_NUM_WORKERS, DECODE_TP, DECODE_EP, DECODE_DP_ATTN);

  private ReferenceEnvironment() {}

  /**
   * Fails unless every name is defined in {@code env}.
   *
   * @throws ResultsException kind {@code missing_env}: {@code Missing required environment
   *     variables: A, B} (names in the order given)
   */
  public static void require(Map<String, String> env, List<String> names) {
    List<String> missing = new ArrayList<>();
    for (String name : names) {
      if (env.get(name) == null) {
        missing.add(name);
      }
    }
    if (!missing.isEmpty()) {
      throw new ResultsException(ErrorKind.MISSING_ENV,
          "Missing required environment variables: " + String.join(", ", missing));
    }
  }

  /** {@code RESULT_FILENAME}, after checking all base variables. */
  public static String resultFilename(Map<String, String> env) {
    require(env, BASE_VARIABLES);
    return env.get(RESULT_FILENAME.name());
  }

  /** {@code value.lower() == "true"}, the reference's boolean test ({@link LaunchVariable#isTrue}). */
  public static boolean isTrue(String value) {
    return LaunchVariable.isTrue(value);
  }

  /** {@code IS_MULTINODE} (default {@code false}). */
  public static boolean isMultinode(Map<String, String> env) {
    return isTrue(env.getOrDefault(IS_MULTINODE.name(), "false"));
  }

  /** {@code REQUIRE_POWER} is {@code 1}, {@code true} or {@code yes} (any case). */
  public static boolean requirePower(Map<String, String> env) {
    String v = env.getOrDefault(REQUIRE_POWER.name(), "").toLowerCase(Locale.ROOT);
    return v.equals("1") || v.equals("true") || v.equals("yes");
  }

  /** The identity, checked and parsed in the reference order (see {@link RunIdentity#fromEnvironment}). */
  static RunIdentity identity(Map<String, String> env, NormalizerOptions options) {
    require(env, BASE_VARIABLES);
    boolean disagg = isTrue(env.get(DISAGG.name()));
    ImmutableRunIdentity.Builder b = RunIdentity.builder()
        .hw(env.get(RUNNER_TYPE.name()))
        .image(env.get(IMAGE.name()))
        .modelPrefix(env.get(MODEL_PREFIX.name()))
        .framework(env.get(FRAMEWORK.name()))
        .precision(env.get(PRECISION.name()))
        .specDecoding(env.get(SPEC_DECODING.name()))
        .disagg(disagg)
        .recipeFingerprint(env.getOrDefault(RECIPE_FINGERPRINT.name(), ""))
        .isl(intVar(env, ISL.name()))
        .osl(intVar(env, OSL.name()));
    ComponentMetadata.parse(ROUTER_METADATA.name(), env.get(ROUTER_METADATA.name())).ifPresent(b::router);
    String kv = env.get(KV_P2P_TRANSFER.name());
    if (kv != null && !kv.isEmpty()) {
      b.kvP2pTransfer(kv);
    }
    b.topology(isMultinode(env) ? multiNode(env, disagg, options) : singleNode(env, disagg));
    return b.build();
  }

  private static SingleNodeTopology singleNode(Map<String, String> env, boolean disagg) {
    if (disagg) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Disaggregated mode requires multinode setup.");
    }
    require(env, SINGLE_NODE_VARIABLES);
    int tp = intVar(env, TP.name());
    int ep = intVar(env, EP_SIZE.name());
    String dpAttention = env.get(DP_ATTENTION.name());
    Parallelism p = Parallelism.builder()
        .tp(tp)
        .pp(intVar(env, PP_SIZE.name(), "1"))
        .dcpSize(intVar(env, DCP_SIZE.name(), "1"))
        .pcpSize(intVar(env, PCP_SIZE.name(), "1"))
        .ep(ep)
        .build();
    return SingleNodeTopology.builder().parallelism(p).dpAttention(dpAttention).build();
  }

  private static MultiNodeTopology multiNode(
      Map<String, String> env, boolean disagg, NormalizerOptions options) {
    require(env, MULTI_NODE_VARIABLES);
    Optional<String> prefillHw = nonEmpty(env.get(PREFILL_HARDWARE.name()));
    Optional<String> decodeHw = nonEmpty(env.get(DECODE_HARDWARE.name()));
    if (prefillHw.isPresent() != decodeHw.isPresent()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "PREFILL_HARDWARE and DECODE_HARDWARE must be specified together.");
    }
    int prefillGpus = intVar(env, PREFILL_GPUS.name());
    int decodeGpus = intVar(env, DECODE_GPUS.name());
    int aggregateGpus = 0;
    if (options.readAggregateGpus()) {
      aggregateGpus = intVar(env, AGGREGATE_GPUS.name(), "0");
      if (aggregateGpus != 0 && (aggregateGpus < 0 || prefillGpus != 0 || decodeGpus != 0 || disagg)) {
        throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
            "Aggregate GPUs require non-disaggregated topology without role GPUs");
      }
    }
    int prefillWorkers = intVar(env, PREFILL_NUM_WORKERS.name());
    Parallelism prefill = role(env, "PREFILL_");
    String prefillDpa = env.get(PREFILL_DP_ATTN.name());
    int decodeWorkers = intVar(env, DECODE_NUM_WORKERS.name());
    Parallelism decode = role(env, "DECODE_");
    String decodeDpa = env.get(DECODE_DP_ATTN.name());
    return MultiNodeTopology.builder()
        .prefill(prefill)
        .prefillDpAttention(prefillDpa)
        .prefillNumWorkers(prefillWorkers)
        .decode(decode)
        .decodeDpAttention(decodeDpa)
        .decodeNumWorkers(decodeWorkers)
        .prefillGpus(prefillGpus)
        .decodeGpus(decodeGpus)
        .aggregateGpus(aggregateGpus)
        .prefillHardware(prefillHw)
        .decodeHardware(decodeHw)
        .build();
  }

  // Parse order of the reference: TP, PP, DCP, PCP, then EP.
  private static Parallelism role(Map<String, String> env, String prefix) {
    boolean prefill = prefix.startsWith("PREFILL");
    int tp = intVar(env, (prefill ? PREFILL_TP : DECODE_TP).name());
    int pp = intVar(env, (prefill ? PREFILL_PP_SIZE : DECODE_PP_SIZE).name(), "1");
    int dcp = intVar(env, (prefill ? PREFILL_DCP_SIZE : DECODE_DCP_SIZE).name(), "1");
    int pcp = intVar(env, (prefill ? PREFILL_PCP_SIZE : DECODE_PCP_SIZE).name(), "1");
    int ep = intVar(env, (prefill ? PREFILL_EP : DECODE_EP).name());
    return Parallelism.builder().tp(tp).pp(pp).dcpSize(dcp).pcpSize(pcp).ep(ep).build();
  }

  private static Optional<String> nonEmpty(String value) {
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }

  private static int intVar(Map<String, String> env, String name) {
    return intVar(env, name, null);
  }

  /**
   * Python {@code int(env.get(name, default))} for a base-10 integer variable.
   *
   * @throws ResultsException kind {@code invalid_env_value}
   */
  static int intVar(Map<String, String> env, String name, String defaultValue) {
    String value = env.getOrDefault(name, defaultValue);
    if (value == null) {
      throw new ResultsException(ErrorKind.MISSING_ENV,
          "Missing required environment variables: " + name);
    }
    PythonNumbers.Conversion<Integer> c = LaunchVariable.parseInt(value);
    if (!c.ok()) {
      throw new ResultsException(ErrorKind.INVALID_ENV_VALUE,
          "Environment variable " + name + " must be a base-10 integer: " + c.problem());
    }
    return c.value().get();
  }
}
