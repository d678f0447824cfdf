package io.infx.store.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference's pure normalizers (InferenceX-app {@code packages/db/src/etl/normalizers.ts}
 * @14da4753, {@code tpu-normalization.ts} @250052d4, {@code result-schema-version.ts}): hardware →
 * GPU key, model key resolution, framework aliases and disagg, precision, spec method, loosely typed
 * booleans and numbers, ISL/OSL from artifact names. Each mimics the JavaScript original exactly,
 * including its coercions ({@code parseFloat}, {@code parseInt}, {@code Math.round}); the ingest
 * conformance corpus checks them.
 */
public final class Normalizers {

  private Normalizers() {}

  /** Hardware keys the store accepts ({@code constants/src/gpu-keys.ts} @0c8d2792, in order). */
  public static final List<String> GPU_KEYS =
      List.of("h100", "h200", "b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x");

  private static final Set<String> GPU_KEY_SET = Set.copyOf(GPU_KEYS);

  /**
   * DB model key → display name ({@code constants/src/models.ts} @1127bd24), plus the keys the
   * newer reference tables point at that this stored version lacks (qwen3.8next, kimik2.7-code,
   * kimik3, minimaxm3, glm5.2, dsv41flash; see docs/decisions.md).
   */
  public static final Map<String, String> DB_MODEL_TO_DISPLAY = orderedMap(
      "dsr1", "DeepSeek-R1-0528",
      "gptoss120b", "gpt-oss-120b",
      "llama70b", "Llama-3.3-70B-Instruct-FP8",
      "qwen3.5", "Qwen-3.5-397B-A17B",
      "kimik2.5", "Kimi-K2.5",
      "kimik2.6", "Kimi-K2.5",
      "minimaxm2.5", "MiniMax-M2.5",
      "minimaxm2.7", "MiniMax-M2.5",
      "glm5", "GLM-5",
      "glm5.1", "GLM-5",
      "dsv4", "DeepSeek-V4-Pro",
      "qwen3.8next", "Qwen3.8-Flash-Next",
      "kimik2.7-code", "Kimi-K2.7-Code",
      "kimik3", "Kimi-K3",
      "minimaxm3", "MiniMax-M3",
      "glm5.2", "GLM-5.2",
      "dsv41flash", "DeepSeek-V4.1-Flash");

  private static final Map<String, String> PREFIX_ALIASES = orderedMap(
      "gptoss", "gptoss120b",
      "dsv4pro", "dsv4",
      "kimik2.7", "kimik2.7-code");

  private static final Pattern PRECISION_SUFFIX =
      Pattern.compile("-(?:fp4|fp8|mxfp4|nvfp4)(?:-.*)?$", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);

  /** Full model path/name → DB model key (normalizers.ts MODEL_TO_KEY), matched exactly. */
  public static final Map<String, String> MODEL_TO_KEY = orderedMap(
      "nvidia/DeepSeek-R1-0528-FP4-V2", "dsr1",
      "nvidia/DeepSeek-R1-0528-FP4-v2", "dsr1",
      "nvidia/DeepSeek-R1-0528-FP4", "dsr1",
      "deepseek-ai/DeepSeek-R1-0528", "dsr1",
      "deepseek-ai/DeepSeek-R1", "dsr1",
      "amd/DeepSeek-R1-0528-MXFP4", "dsr1",
      "amd/DeepSeek-R1-0528-MXFP4-Preview", "dsr1",
      "/mnt/lustre01/models/deepseek-r1-0528-fp4-v2", "dsr1",
      "/models/DeepSeek-R1", "dsr1",
      "/models/DeepSeek-R1-0528-MXFP4-Preview", "dsr1",
      "DeepSeek-R1-0528", "dsr1",
      "deepseek-r1-0528", "dsr1",
      "deepseek-r1-0528-fp4-v2", "dsr1",
      "deepseek-r1-0528-nvfp4-v2", "dsr1",
      "dsr1-0528-fp8", "dsr1",
      "dsr1-0528-nvfp4-v2", "dsr1",
      "dsr1-fp8", "dsr1",
      "openai/gpt-oss-120b", "gptoss120b",
      "/mnt/lustre01/models/gpt-oss-120b", "gptoss120b",
      "nvidia/Llama-3.3-70B-Instruct-FP8", "llama70b",
      "nvidia/Llama-3.3-70B-Instruct-FP4", "llama70b",
      "amd/Llama-3.3-70B-Instruct-FP8-KV", "llama70b",
      "amd/Llama-3.3-70B-Instruct-MXFP4-Preview", "llama70b",
      "Qwen/Qwen3.5-397B-A17B", "qwen3.5",
      "Qwen/Qwen3.5-397B-A17B-FP8", "qwen3.5",
      "Qwen/Qwen3.8-Flash-Next-FP8", "qwen3.8next",
      "RadixArk/Qwen3.8-Flash-Next-NVFP4", "qwen3.8next",
      "moonshotai/Kimi-K2.5", "kimik2.5",
      "moonshotai/Kimi-K2.6", "kimik2.6",
      "moonshotai/Kimi-K2.7-Code", "kimik2.7-code",
      "amd/Kimi-K2.7-Code-MXFP4", "kimik2.7-code",
      "moonshotai/Kimi-K3", "kimik3",
      "MiniMaxAI/MiniMax-M2.5", "minimaxm2.5",
      "MiniMaxAI/MiniMax-M3", "minimaxm3",
      "zai-org/GLM-5-FP8", "glm5",
      "amd/GLM-5.1-MXFP4", "glm5.1",
      "zai-org/GLM-5.2-FP8", "glm5.2",
      "deepseek-ai/DeepSeek-V4-Pro", "dsv4");

  /** Framework aliases: canonical name and, for some, an intrinsic disagg flag. */
  private record FrameworkAlias(String canonical, Boolean disagg) {}

  private static final Map<String, FrameworkAlias> FRAMEWORK_ALIASES = Map.of(
      "atom-disagg", new FrameworkAlias("mooncake-atom", true),
      "sglang-disagg", new FrameworkAlias("mori-sglang", true),
      "trtllm", new FrameworkAlias("trt", null),
      "dynamo-trtllm", new FrameworkAlias("dynamo-trt", null));

  private static final Map<String, String> PRECISION_ALIASES = Map.of("nvfp4", "fp4", "mxfp4", "fp4");

  /**
   * Precisions the store knows; the reference's {@code precision-keys.ts} is not public, so this is
   * the set the matrix configs use. Others are recorded as unmapped precisions (never skipped).
   */
  public static final Set<String> PRECISION_KEYS = Set.of("fp4", "fp8", "bf16", "fp16", "int8", "int4");

  private static final Pattern ISL_OSL = Pattern.compile("[_-](\\d+)k(\\d+)k[_\\-.]", Pattern.CASE_INSENSITIVE);
  private static final Pattern POSITIVE_DECIMAL = Pattern.compile("^[1-9]\\d*$");

  /** Canonical framework and the disaggregated-inference flag derived with it. */
  public record Framework(String framework, boolean disagg) {}

  /** Sequence lengths in tokens. */
  public record IslOsl(long isl, long osl) {}

  /**
   * Hardware → GPU key: lower-case, drop everything up to the last {@code :}, take the first
   * {@code -} segment; only a known key is returned.
   *
   * @return the key, or empty for unknown hardware (the row is then skipped as unmappedHw)
   */
  public static Optional<String> hwToGpuKey(String hw) {
    String lower = hw.toLowerCase(Locale.ROOT);
    String last = lower.substring(lower.lastIndexOf(':') + 1);
    int dash = last.indexOf('-');
    String base = dash < 0 ? last : last.substring(0, dash);
    return GPU_KEY_SET.contains(base) ? Optional.of(base) : Optional.empty();
  }

  private static String resolvePrefixToKey(String prefix) {
    String lower = prefix.toLowerCase(Locale.ROOT);
    if (DB_MODEL_TO_DISPLAY.containsKey(lower)) {
      return lower;
    }
    if (PREFIX_ALIASES.containsKey(lower)) {
      return PREFIX_ALIASES.get(lower);
    }
    String stripped = PRECISION_SUFFIX.matcher(lower).replaceFirst("");
    if (DB_MODEL_TO_DISPLAY.containsKey(stripped)) {
      return stripped;
    }
    return PREFIX_ALIASES.get(stripped);
  }

  /**
   * DB model key of a raw row: {@code infmax_model_prefix} (or an eval row's {@code model_prefix})
   * through known keys, aliases and precision-suffix stripping; else the exact {@code model} path.
   */
  public static Optional<String> resolveModelKey(JsonNode row) {
    JsonNode prefix = Js.coalesce(Js.get(row, "infmax_model_prefix"), Js.get(row, "model_prefix"));
    if (Js.truthy(prefix)) {
      String k = resolvePrefixToKey(Js.string(prefix));
      if (k != null) {
        return Optional.of(k);
      }
    }
    JsonNode model = Js.get(row, "model");
    return Js.truthy(model) ? Optional.ofNullable(MODEL_TO_KEY.get(Js.string(model))) : Optional.empty();
  }

  /**
   * Canonical framework and disagg flag: aliases first; {@code mori-*} is always disaggregated; an
   * explicit disagg value wins otherwise; legacy {@code dynamo-*} without one is disaggregated.
   */
  public static Framework normalizeFramework(String fw, JsonNode disaggField) {
    String lower = fw.toLowerCase(Locale.ROOT);
    FrameworkAlias alias = FRAMEWORK_ALIASES.get(lower);
    String canonical = alias != null ? alias.canonical() : lower;
    Boolean explicit = parseOptionalBool(disaggField);
    boolean disagg;
    if (alias != null && alias.disagg() != null) {
      disagg = alias.disagg();
    } else if (canonical.startsWith("mori-")) {
      disagg = true;
    } else {
      disagg = explicit != null ? explicit : canonical.startsWith("dynamo-");
    }
    return new Framework(canonical, disagg);
  }

  /** Lower-case precision; {@code nvfp4}/{@code mxfp4} → {@code fp4}. */
  public static String normalizePrecision(String raw) {
    String lower = raw.toLowerCase(Locale.ROOT);
    return PRECISION_ALIASES.getOrDefault(lower, lower);
  }

  /** Lower-case spec-decoding method; absent, empty, false or 0 → {@code none}. */
  public static String normalizeSpecMethod(JsonNode spec) {
    if (!Js.truthy(spec)) {
      return "none";
    }
    return Js.string(spec).toLowerCase(Locale.ROOT);
  }

  /** {@code true}/'true'/'True' → true; {@code false}/'false'/'False' → false; else null. */
  public static Boolean parseOptionalBool(JsonNode v) {
    if (v == null) {
      return null;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isTextual()) {
      return switch (v.textValue()) {
        case "true", "True" -> Boolean.TRUE;
        case "false", "False" -> Boolean.FALSE;
        default -> null;
      };
    }
    return null;
  }

  /** A loosely typed boolean: true only for {@code true}, 'true', 'True'. */
  public static boolean parseBool(JsonNode v) {
    return Boolean.TRUE.equals(parseOptionalBool(v));
  }

  /**
   * A loosely typed number: strings through JavaScript {@code parseFloat} ('42abc' → 42), other
   * values through {@code Number()} (true → 1); null, undefined and NaN → empty. Infinity is kept.
   */
  public static OptionalDouble parseNum(JsonNode v) {
    if (Js.isNullish(v)) {
      return OptionalDouble.empty();
    }
    double n = v.isTextual() ? Js.parseFloat(v.textValue()) : Js.number(v);
    return Double.isNaN(n) ? OptionalDouble.empty() : OptionalDouble.of(n);
  }

  /**
   * A loosely typed integer: strings through {@code parseInt(s, 10)} ('3.7' → 3), numbers through
   * {@code Math.round} (3.7 → 4); null, undefined and NaN → empty.
   */
  public static OptionalDouble parseInt2(JsonNode v) {
    if (Js.isNullish(v)) {
      return OptionalDouble.empty();
    }
    double n = v.isTextual() ? Js.parseInt(v.textValue()) : Js.round(Js.number(v));
    return Double.isNaN(n) ? OptionalDouble.empty() : OptionalDouble.of(n);
  }

  /** {@link #parseInt2} as a long, or null. */
  static Long parseIntOrNull(JsonNode v) {
    OptionalDouble d = parseInt2(v);
    return d.isPresent() ? (long) d.getAsDouble() : null;
  }

  /** ISL/OSL in tokens from a name carrying {@code <n>k<m>k} ({@code 1k8k} → 1024/8192). */
  public static Optional<IslOsl> parseIslOsl(String name) {
    Matcher m = ISL_OSL.matcher(name);
    if (!m.find()) {
      return Optional.empty();
    }
    return Optional.of(new IslOsl((long) Js.parseInt(m.group(1)) * 1024, (long) Js.parseInt(m.group(2)) * 1024));
  }

  /**
   * A positive physical-chip count: numbers, or strings of the form {@code [1-9]\d*}, that are safe
   * integers above 0 ({@code tpu-normalization.ts}); anything else → empty.
   */
  public static OptionalLong physicalChipCount(JsonNode value) {
    if (value == null || !(value.isNumber() || value.isTextual())) {
      return OptionalLong.empty();
    }
    double n;
    if (value.isTextual()) {
      if (!POSITIVE_DECIMAL.matcher(value.textValue()).matches()) {
        return OptionalLong.empty();
      }
      n = Js.stringToNumber(value.textValue());
    } else {
      n = value.doubleValue();
    }
    return Js.isSafeInteger(n) && n > 0 ? OptionalLong.of((long) n) : OptionalLong.empty();
  }

  /** {@link #physicalChipCount}, but an explicitly absent role (0 or '0') stays 0. */
  public static OptionalLong roleChipCount(JsonNode value) {
    if (value != null && ((value.isNumber() && value.doubleValue() == 0) || (value.isTextual() && value.textValue().equals("0")))) {
      return OptionalLong.of(0);
    }
    return physicalChipCount(value);
  }

  /** True when a row carries no {@code result_schema_version} or exactly the number 1. */
  public static boolean hasSupportedResultSchemaVersion(JsonNode row) {
    if (row == null || !row.isObject() || !row.has("result_schema_version")) {
      return true;
    }
    JsonNode v = row.get("result_schema_version");
    return v.isNumber() && v.doubleValue() == 1;
  }

  private static <V> Map<String, V> orderedMap(Object... kv) {
    Map<String, V> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      @SuppressWarnings("unchecked")
      V v = (V) kv[i + 1];
      m.put((String) kv[i], v);
    }
    return java.util.Collections.unmodifiableMap(m);
  }
}
