package io.infx.fleet;

import static io.infx.core.launch.LaunchVariable.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.fleet.MatrixRow.Shape;
import io.infx.fleet.internal.EnvValues;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Projects one matrix row, landed on one concrete runner, into the environment the reference's
 * workflow templates hand to a launcher (fleet spec §3): {@code benchmark-tmpl.yml} for single-node
 * rows, {@code benchmark-multinode-tmpl.yml} for multi-node rows. Pure and deterministic.
 *
 * <h2>Order</h2>
 * Values come out in this order (what {@code infx fleet env} prints):
 * <ol>
 *   <li>the row-derived variables in the order of the spec's tables — single-node: {@code EXP_NAME,
 *       RECIPE_FINGERPRINT, ISL, OSL, MAX_MODEL_LEN, IMAGE, MODEL, MODEL_PREFIX, PRECISION,
 *       FRAMEWORK, ROUTER_METADATA, KV_P2P_TRANSFER, TP, PP_SIZE, DCP_SIZE, PCP_SIZE, EP_SIZE,
 *       DP_ATTENTION, CONC, SPEC_DECODING, DISAGG, RUN_EVAL, EVAL_ONLY, SCENARIO_TYPE,
 *       SCENARIO_SUBDIR, IS_AGENTIC, KV_OFFLOADING, KV_OFFLOAD_BACKEND, KV_OFFLOAD_BACKEND_METADATA,
 *       TOTAL_CPU_DRAM_GB, DURATION, REQUIRE_POWER, AIPERF_EXPERIMENTAL_FAST, EVAL_LIMIT,
 *       SWEBENCH_GEN_MODE}; multi-node: {@code EXP_NAME, RECIPE_FINGERPRINT, IMAGE, MODEL,
 *       MODEL_PREFIX, FRAMEWORK, PRECISION, ISL, OSL, MAX_MODEL_LEN, SPEC_DECODING, DISAGG,
 *       ROUTER_METADATA, KV_P2P_TRANSFER, CONC_LIST, CONC, PREFILL_HARDWARE, DECODE_HARDWARE,
 *       PREFILL_NUM_WORKERS, PREFILL_TP, PREFILL_PP_SIZE, PREFILL_DCP_SIZE, PREFILL_PCP_SIZE,
 *       PREFILL_EP, PREFILL_DP_ATTN}, the same seven {@code DECODE_*}, then {@code RUN_EVAL,
 *       EVAL_ONLY, EVAL_CONC, EVAL_LIMIT, SWEBENCH_GEN_MODE, REQUIRE_POWER, POWER_PRODUCER_SHA,
 *       SCENARIO_TYPE, SCENARIO_SUBDIR, IS_AGENTIC, DURATION, AIPERF_EXPERIMENTAL_FAST, KV_OFFLOADING,
 *       KV_OFFLOAD_BACKEND, KV_OFFLOAD_BACKEND_METADATA, TOTAL_CPU_DRAM_GB};
 *   <li>every other row key, in row order, forwarded under its UPPER_SNAKE name ({@code srt-recipe}
 *       → {@code SRT_RECIPE}, {@code eval-srt-recipe} → {@code EVAL_SRT_RECIPE}, {@code node-count}
 *       → {@code NODE_COUNT}, {@code eval-framework} → {@code EVAL_FRAMEWORK}, {@code eval-suite} →
 *       {@code EVAL_SUITE}; objects and lists as JSON text);
 *   <li>the templates' constants — single-node: {@code RANDOM_RANGE_RATIO=0.8,
 *       HF_HUB_CACHE=/mnt/hf_hub_cache/, AIPERF_FAILED_REQUEST_THRESHOLD=0.10,
 *       RESULT_DIR=/workspace/results, PYTHONDONTWRITEBYTECODE=1, PYTHONPYCACHEPREFIX,
 *       SWEBENCH_USE_MODAL=true, SALLOC_EXCLUDE=b300-005,b300-006}; multi-node:
 *       {@code RANDOM_RANGE_RATIO, SWEBENCH_USE_MODAL, PYTHONDONTWRITEBYTECODE, PYTHONPYCACHEPREFIX};
 *   <li>the secrets given in the {@link RunContext} ({@code HF_TOKEN, MODAL_TOKEN_ID,
 *       MODAL_TOKEN_SECRET}), flagged as secret;
 *   <li>the launch-step additions: {@code RUNNER_NAME, RUNNER_TYPE, RESULT_FILENAME}, then
 *       single-node {@code GPU_COUNT} (= TP × PP_SIZE × PCP_SIZE; EP and DCP add no GPUs) and
 *       {@code IS_MULTINODE=false}, multi-node {@code IS_MULTINODE=true} followed by every
 *       {@code NAME=value} of {@code prefill.additional-settings} then
 *       {@code decode.additional-settings} (exported verbatim; a later one wins).
 * </ol>
 *
 * <h2>Rules worth knowing</h2>
 * <ul>
 *   <li>Values are strings: integers in decimal, booleans {@code true}/{@code false}, strings
 *       verbatim (a row saying {@code "False"} projects {@code False}), {@code router} and
 *       {@code kv-offload-backend} objects as JSON text, absent optional keys as {@code ""}.
 *   <li>Defaults: {@code pp}, {@code dcp-size}, {@code pcp-size} (also per worker) = 1;
 *       {@code duration} = 3600; single-node fixed-seq {@code TOTAL_CPU_DRAM_GB=0}; multi-node
 *       {@code TOTAL_CPU_DRAM_GB} = the row's or 600; empty {@code swebench-gen-mode} = {@code
 *       agentic}.
 *   <li>Agentic rows: {@code ISL=OSL=MAX_MODEL_LEN=0}, single-node {@code DISAGG=false}; multi-node
 *       {@code CONC} = the row's {@code eval-conc} on eval-only rows, else the first {@code conc}.
 *   <li>Bucket-fixed inputs are derived from the row: single-node fixed-seq rows pass their own
 *       {@code run-eval}; every other row kind runs evals only as an eval-only job, so
 *       {@code RUN_EVAL = EVAL_ONLY = eval-only}. Multi-node {@code EVAL_CONC} (eval-only rows) =
 *       all of {@code conc} space-separated when {@code eval-all-concs}, else {@code eval-conc}.
 *   <li>The dead single-node input {@code random-range-ratio} is not read; the constant
 *       {@code RANDOM_RANGE_RATIO=0.8} applies. {@code GITHUB_STEP_SUMMARY} is CI plumbing and not
 *       projected.
 * </ul>
 *
 * @see ResultNaming for {@code RESULT_FILENAME}
 */
public final class EnvProjector {

  private static final EnvProjector STANDARD = new EnvProjector();

  private static final Set<String> SINGLE_CONSUMED = Set.of(
      "exp-name", "recipe-fingerprint", "isl", "osl", "max-model-len", "runner", "image", "model",
      "model-prefix", "precision", "framework", "router", "kv-p2p-transfer", "tp", "pp", "dcp-size",
      "pcp-size", "ep", "dp-attn", "conc", "spec-decoding", "disagg", "run-eval", "eval-only",
      "scenario-type", "kv-offloading", "kv-offload-backend", "total-cpu-dram-gb", "duration",
      "require-power", "random-range-ratio");

  private static final Set<String> MULTI_CONSUMED = Set.of(
      "exp-name", "recipe-fingerprint", "image", "model", "model-prefix", "framework", "precision",
      "isl", "osl", "max-model-len", "spec-decoding", "disagg", "router", "kv-p2p-transfer", "conc",
      "prefill", "decode", "run-eval", "eval-only", "eval-conc", "eval-all-concs", "require-power",
      "scenario-type", "duration", "kv-offloading", "kv-offload-backend", "total-cpu-dram-gb",
      "runner");

  private EnvProjector() {}

  /** The projection of the reference templates (the only one so far). */
  public static EnvProjector standard() {
    return STANDARD;
  }

  /**
   * Projects {@code row} on {@code runner}.
   *
   * @throws ValidationException kind {@code row-validation} listing every key the projection needs
   *     but the row lacks or holds in an unusable type, each with its JSON pointer and, for rows read
   *     from a file, line and column
   */
  public LaunchEnv project(MatrixRow row, RunnerName runner, RunContext ctx) {
    var b = new Builder(row);
    if (row.shape() == Shape.SINGLE_NODE) {
      single(b, row, ctx);
    } else {
      multi(b, row, ctx);
    }
    b.failIfInvalid();
    // Forwarded keys: everything the tables did not consume, in row order.
    Set<String> consumed = row.shape() == Shape.SINGLE_NODE ? SINGLE_CONSUMED : MULTI_CONSUMED;
    for (Iterator<String> it = row.node().fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (!consumed.contains(key)) {
        String name = EnvValues.upperSnake(key);
        if (!name.isEmpty() && !Character.isDigit(name.charAt(0)) && !b.values.containsKey(name)) {
          b.put(name, EnvValues.text(row.node().get(key)));
        }
      }
    }
    // Template constants.
    b.put("RANDOM_RANGE_RATIO", "0.8");
    if (row.shape() == Shape.SINGLE_NODE) {
      b.put("HF_HUB_CACHE", "/mnt/hf_hub_cache/");
      b.put("AIPERF_FAILED_REQUEST_THRESHOLD", "0.10");
      b.put("RESULT_DIR", "/workspace/results");
    }
    b.put("PYTHONDONTWRITEBYTECODE", "1");
    b.put("PYTHONPYCACHEPREFIX", ctx.pycachePrefix());
    b.put("SWEBENCH_USE_MODAL", "true");
    if (row.shape() == Shape.SINGLE_NODE) {
      b.put("SALLOC_EXCLUDE", "b300-005,b300-006");
    }
    ctx.secrets().forEach((k, v) -> {
      b.put(k, v);
      b.secrets.add(k);
    });
    // Launch-step additions.
    b.put("RUNNER_NAME", runner.name());
    b.put("RUNNER_TYPE", row.runnerLabel().orElse(""));
    b.put("RESULT_FILENAME", ResultNaming.fromProjected(b.values, row.shape(), runner, ctx.fingerprintPolicy()));
    if (row.shape() == Shape.SINGLE_NODE) {
      long gpus = Long.parseLong(b.values.get("TP")) * Long.parseLong(b.values.get("PP_SIZE"))
          * Long.parseLong(b.values.get("PCP_SIZE"));
      b.put("GPU_COUNT", Long.toString(gpus));
      b.put("IS_MULTINODE", "false");
    } else {
      b.put("IS_MULTINODE", "true");
      b.additionalSettings("prefill");
      b.additionalSettings("decode");
      b.failIfInvalid();
    }
    return new LaunchEnv(b.values, b.secrets, b.pointSettings);
  }

  private static void single(Builder b, MatrixRow row, RunContext ctx) {
    boolean agentic = row.isAgentic();
    b.put(EXP_NAME.name(), b.requiredText("exp-name"));
    b.put(RECIPE_FINGERPRINT.name(), b.optionalText("recipe-fingerprint"));
    b.put(ISL.name(), agentic ? "0" : b.requiredInt("isl"));
    b.put(OSL.name(), agentic ? "0" : b.requiredInt("osl"));
    b.put(MAX_MODEL_LEN.name(), agentic ? "0" : b.requiredInt("max-model-len"));
    b.put(IMAGE.name(), b.requiredText("image"));
    b.put(MODEL.name(), b.requiredText("model"));
    b.put(MODEL_PREFIX.name(), b.requiredText("model-prefix"));
    b.put(PRECISION.name(), b.requiredText("precision"));
    b.put(FRAMEWORK.name(), b.requiredText("framework"));
    b.put(ROUTER_METADATA.name(), b.optionalText("router"));
    b.put("KV_P2P_TRANSFER", b.optionalText("kv-p2p-transfer"));
    b.put(TP.name(), b.requiredInt("tp"));
    b.put(PP_SIZE.name(), b.positiveIntOr("pp", "1"));
    b.put(DCP_SIZE.name(), b.positiveIntOr("dcp-size", "1"));
    b.put(PCP_SIZE.name(), b.positiveIntOr("pcp-size", "1"));
    b.put(EP_SIZE.name(), b.requiredInt("ep"));
    b.put(DP_ATTENTION.name(), b.requiredBool("dp-attn"));
    b.put(CONC.name(), b.singleConc());
    b.put(SPEC_DECODING.name(), agentic ? b.optionalTextOr("spec-decoding", "none") : b.requiredText("spec-decoding"));
    b.put(DISAGG.name(), agentic ? "false" : b.requiredText("disagg"));
    boolean evalOnly = row.isEvalOnly();
    b.put("RUN_EVAL", bool(agentic ? evalOnly : row.runsEval()));
    b.put("EVAL_ONLY", bool(evalOnly));
    scenario(b, row);
    b.put(KV_OFFLOADING.name(), agentic ? b.requiredText("kv-offloading") : "");
    b.put(KV_OFFLOAD_BACKEND.name(), agentic ? b.nestedText("kv-offload-backend", "name") : "");
    b.put(KV_OFFLOAD_BACKEND_METADATA.name(), agentic ? b.optionalText("kv-offload-backend") : "");
    b.put(TOTAL_CPU_DRAM_GB.name(), agentic ? b.requiredInt("total-cpu-dram-gb") : "0");
    b.put("DURATION", duration(b, ctx));
    b.put(REQUIRE_POWER.name(), ctx.requirePower() || flag(row, "require-power") ? "1" : "0");
    b.put("AIPERF_EXPERIMENTAL_FAST", ctx.agentxFast() ? "1" : "0");
    b.put("EVAL_LIMIT", ctx.evalLimit());
    b.put("SWEBENCH_GEN_MODE", ctx.swebenchGenMode().isEmpty() ? "agentic" : ctx.swebenchGenMode());
  }

  private static void multi(Builder b, MatrixRow row, RunContext ctx) {
    boolean agentic = row.isAgentic();
    boolean evalOnly = row.isEvalOnly();
    b.put(EXP_NAME.name(), b.requiredText("exp-name"));
    b.put(RECIPE_FINGERPRINT.name(), b.optionalText("recipe-fingerprint"));
    b.put(IMAGE.name(), b.requiredText("image"));
    b.put(MODEL.name(), b.requiredText("model"));
    b.put(MODEL_PREFIX.name(), b.requiredText("model-prefix"));
    b.put(FRAMEWORK.name(), b.requiredText("framework"));
    b.put(PRECISION.name(), b.requiredText("precision"));
    b.put(ISL.name(), agentic ? "0" : b.requiredInt("isl"));
    b.put(OSL.name(), agentic ? "0" : b.requiredInt("osl"));
    b.put(MAX_MODEL_LEN.name(), agentic ? "0" : b.requiredInt("max-model-len"));
    b.put(SPEC_DECODING.name(), b.requiredText("spec-decoding"));
    b.put(DISAGG.name(), b.requiredText("disagg"));
    b.put(ROUTER_METADATA.name(), b.optionalText("router"));
    b.put("KV_P2P_TRANSFER", b.optionalText("kv-p2p-transfer"));
    List<String> concs = b.concList();
    b.put(CONC_LIST.name(), String.join(" ", concs));
    String conc = "";
    if (agentic) {
      conc = evalOnly && row.get("eval-conc").isPresent()
          ? b.requiredInt("eval-conc")
          : (concs.isEmpty() ? "" : concs.get(0));
    }
    b.put(CONC.name(), conc);
    b.put(PREFILL_HARDWARE.name(), b.nestedText("prefill", "hardware"));
    b.put(DECODE_HARDWARE.name(), b.nestedText("decode", "hardware"));
    for (String role : List.of("prefill", "decode")) {
      String p = role.toUpperCase(java.util.Locale.ROOT) + "_";
      b.put(p + "NUM_WORKERS", b.workerInt(role, "num-worker", null));
      b.put(p + "TP", b.workerInt(role, "tp", null));
      b.put(p + "PP_SIZE", b.workerInt(role, "pp", "1"));
      b.put(p + "DCP_SIZE", b.workerInt(role, "dcp-size", "1"));
      b.put(p + "PCP_SIZE", b.workerInt(role, "pcp-size", "1"));
      b.put(p + "EP", b.workerInt(role, "ep", null));
      b.put(p + "DP_ATTN", b.workerBool(role, "dp-attn"));
    }
    b.put("RUN_EVAL", bool(evalOnly));
    b.put("EVAL_ONLY", bool(evalOnly));
    String evalConc = "";
    if (evalOnly) {
      evalConc = flag(row, "eval-all-concs") ? String.join(" ", concs)
          : row.get("eval-conc").isPresent() ? b.requiredInt("eval-conc") : "";
    }
    b.put("EVAL_CONC", evalConc);
    b.put("EVAL_LIMIT", ctx.evalLimit());
    b.put("SWEBENCH_GEN_MODE", ctx.swebenchGenMode().isEmpty() ? "agentic" : ctx.swebenchGenMode());
    b.put(REQUIRE_POWER.name(), ctx.requirePower() || flag(row, "require-power") ? "1" : "0");
    b.put("POWER_PRODUCER_SHA", ctx.powerProducerSha());
    scenario(b, row);
    b.put("DURATION", duration(b, ctx));
    b.put("AIPERF_EXPERIMENTAL_FAST", ctx.agentxFast() ? "1" : "0");
    b.put(KV_OFFLOADING.name(), agentic ? b.requiredText("kv-offloading") : "");
    b.put(KV_OFFLOAD_BACKEND.name(), agentic ? b.nestedText("kv-offload-backend", "name") : "");
    b.put(KV_OFFLOAD_BACKEND_METADATA.name(), agentic ? b.optionalText("kv-offload-backend") : "");
    b.put(TOTAL_CPU_DRAM_GB.name(), row.get("total-cpu-dram-gb").isPresent() ? b.requiredInt("total-cpu-dram-gb") : "600");
  }

  private static void scenario(Builder b, MatrixRow row) {
    boolean agentic = row.isAgentic();
    b.put("SCENARIO_TYPE", agentic ? "agentic-coding" : b.optionalTextOr("scenario-type", "fixed-seq-len"));
    b.put("SCENARIO_SUBDIR", agentic ? "agentic/" : "fixed_seq_len/");
    b.put("IS_AGENTIC", agentic ? "1" : "0");
  }

  private static String duration(Builder b, RunContext ctx) {
    if (ctx.durationOverride().isPresent()) {
      return Integer.toString(ctx.durationOverride().getAsInt());
    }
    return b.row.get("duration").isPresent() ? b.requiredInt("duration") : "3600";
  }

  private static boolean flag(MatrixRow row, String key) {
    return row.get(key).map(v -> v.isBoolean() ? v.booleanValue() : "true".equalsIgnoreCase(v.asText()))
        .orElse(false);
  }

  private static String bool(boolean b) {
    return b ? "true" : "false";
  }

  /** Collects values and violations; one pass reports every problem of the row. */
  private static final class Builder {
    final MatrixRow row;
    final Map<String, String> values = new LinkedHashMap<>();
    final Set<String> secrets = new LinkedHashSet<>();
    final Set<String> pointSettings = new LinkedHashSet<>();
    final List<Violation> violations = new ArrayList<>();

    Builder(MatrixRow row) {
      this.row = row;
    }

    void put(String name, String value) {
      values.put(name, value);
    }

    void failIfInvalid() {
      if (!violations.isEmpty()) {
        throw new ValidationException("row-validation", violations);
      }
    }

    private String kind() {
      return (row.shape() == Shape.SINGLE_NODE ? "single-node" : "multi-node")
          + (row.isAgentic() ? " agentic" : "") + " row";
    }

    String requiredText(String key) {
      Optional<JsonNode> v = row.get(key);
      if (v.isEmpty()) {
        violations.add(row.violation("fleet.row.required", "/" + key,
            "the " + kind() + " lacks required key '" + key + "'"));
        return "";
      }
      if (v.get().isContainerNode()) {
        violations.add(row.violation("fleet.row.type", "/" + key,
            "'" + key + "' must be a scalar, found " + v.get().getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        return "";
      }
      return EnvValues.text(v.get());
    }

    String optionalText(String key) {
      return row.get(key).map(EnvValues::text).orElse("");
    }

    String optionalTextOr(String key, String dflt) {
      return row.get(key).map(EnvValues::text).orElse(dflt);
    }

    String nestedText(String key, String field) {
      return row.get(key).map(o -> EnvValues.text(o.get(field))).orElse("");
    }

    String requiredInt(String key) {
      return intAt(row.get(key), "/" + key, key, null, false);
    }

    String positiveIntOr(String key, String dflt) {
      return intAt(row.get(key), "/" + key, key, dflt, true);
    }

    String requiredBool(String key) {
      return boolAt(row.get(key), "/" + key, key);
    }

    String workerInt(String role, String key, String dflt) {
      Optional<JsonNode> w = worker(role);
      return w.isEmpty() ? "" : intAt(Optional.ofNullable(w.get().get(key)).filter(n -> !n.isNull()),
          "/" + role + "/" + key, role + "." + key, dflt, dflt != null);
    }

    String workerBool(String role, String key) {
      Optional<JsonNode> w = worker(role);
      return w.isEmpty() ? "" : boolAt(Optional.ofNullable(w.get().get(key)).filter(n -> !n.isNull()),
          "/" + role + "/" + key, role + "." + key);
    }

    private final Set<String> reportedWorkers = new LinkedHashSet<>();

    private Optional<JsonNode> worker(String role) {
      Optional<JsonNode> w = row.get(role);
      if (w.isEmpty() || !w.get().isObject()) {
        if (reportedWorkers.add(role)) {
          violations.add(row.violation(w.isEmpty() ? "fleet.row.required" : "fleet.row.type", "/" + role,
              w.isEmpty() ? "the " + kind() + " lacks required worker object '" + role + "'"
                  : "'" + role + "' must be a worker object"));
        }
        return Optional.empty();
      }
      return w;
    }

    private String intAt(Optional<JsonNode> v, String pointer, String name, String dflt, boolean positive) {
      if (v.isEmpty()) {
        if (dflt != null) {
          return dflt;
        }
        violations.add(row.violation("fleet.row.required", pointer,
            "the " + kind() + " lacks required key '" + name + "'"));
        return "0";
      }
      JsonNode n = v.get();
      Long value = null;
      if (n.isIntegralNumber() && n.canConvertToLong()) {
        value = n.longValue();
      } else if (n.isTextual() && n.textValue().matches("-?[0-9]{1,18}")) {
        value = Long.parseLong(n.textValue());
      }
      if (value == null) {
        violations.add(row.violation("fleet.row.type", pointer,
            "'" + name + "' must be an integer, found " + EnvValues.json(n)));
        return "0";
      }
      if (positive && value <= 0) {
        violations.add(row.violation("fleet.row.range", pointer,
            "'" + name + "' must be an integer > 0, found " + value));
        return "1";
      }
      return Long.toString(value);
    }

    private String boolAt(Optional<JsonNode> v, String pointer, String name) {
      if (v.isEmpty()) {
        violations.add(row.violation("fleet.row.required", pointer,
            "the " + kind() + " lacks required key '" + name + "'"));
        return "false";
      }
      JsonNode n = v.get();
      if (n.isBoolean() || (n.isTextual() && (n.textValue().equalsIgnoreCase("true")
          || n.textValue().equalsIgnoreCase("false")))) {
        return EnvValues.text(n);
      }
      violations.add(row.violation("fleet.row.type", pointer,
          "'" + name + "' must be a boolean, found " + EnvValues.json(n)));
      return "false";
    }

    String singleConc() {
      Optional<JsonNode> v = row.get("conc");
      if (v.isPresent() && v.get().isArray()) {
        // The schema accepts a one-element list here (never produced by the generator).
        if (v.get().size() == 1) {
          return intAt(Optional.of(v.get().get(0)), "/conc/0", "conc", null, true);
        }
        violations.add(row.violation("fleet.row.type", "/conc",
            "a single-node row runs one concurrency; 'conc' holds " + v.get().size() + " values"));
        return "0";
      }
      return intAt(v, "/conc", "conc", null, true);
    }

    List<String> concList() {
      Optional<JsonNode> v = row.get("conc");
      List<String> out = new ArrayList<>();
      if (v.isEmpty()) {
        violations.add(row.violation("fleet.row.required", "/conc", "the " + kind() + " lacks required key 'conc'"));
        return out;
      }
      if (!v.get().isArray() || v.get().isEmpty()) {
        violations.add(row.violation("fleet.row.type", "/conc",
            "a multi-node row's 'conc' must be a non-empty list of integers, found " + EnvValues.json(v.get())));
        return out;
      }
      for (int i = 0; i < v.get().size(); i++) {
        out.add(intAt(Optional.of(v.get().get(i)), "/conc/" + i, "conc[" + i + "]", null, true));
      }
      return out;
    }

    void additionalSettings(String role) {
      Optional<JsonNode> w = row.get(role);
      if (w.isEmpty() || !w.get().isObject()) {
        return;
      }
      JsonNode list = w.get().get("additional-settings");
      if (list == null || list.isNull()) {
        return;
      }
      String pointer = "/" + role + "/additional-settings";
      if (!list.isArray()) {
        violations.add(row.violation("fleet.row.type", pointer,
            "'" + role + ".additional-settings' must be a list of NAME=value strings"));
        return;
      }
      for (int i = 0; i < list.size(); i++) {
        JsonNode item = list.get(i);
        String text = item.isTextual() ? item.textValue() : null;
        int eq = text == null ? -1 : text.indexOf('=');
        String name = eq <= 0 ? null : text.substring(0, eq);
        if (name == null || !isEnvName(name)) {
          violations.add(row.violation("fleet.row.setting", pointer + "/" + i,
              "additional setting must look like NAME=value with NAME a valid environment name, found "
                  + EnvValues.json(item)));
          continue;
        }
        values.remove(name); // exported last, so it lands at the end in export order
        values.put(name, text.substring(eq + 1));
        pointSettings.add(name);
      }
    }

    private static boolean isEnvName(String s) {
      if (!(Character.isLetter(s.charAt(0)) || s.charAt(0) == '_') || s.charAt(0) > 0x7f) {
        return false;
      }
      return s.chars().allMatch(c -> c == '_' || (c < 0x80 && Character.isLetterOrDigit(c)));
    }

  }
}
