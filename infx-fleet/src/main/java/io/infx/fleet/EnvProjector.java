package io.infx.fleet;

import static io.infx.core.launch.LaunchVariable.*;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.launch.LaunchVariable;
import io.infx.fleet.internal.EnvValues;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.RowField;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 *   <li>The row is the typed, validated {@link MatrixRow} of infx-matrix: its types are
 *       checked once, where it is built or read ({@link MatrixRow#parse}, rule V61), not here.
 *       Values are strings: integers in decimal, booleans {@code true}/{@code false}, strings
 *       verbatim, {@code router} and {@code kv-offload-backend} objects as JSON text, absent
 *       optional fields as {@code ""}. Names come from the catalogue {@link LaunchVariable}.
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

  /** Row fields the single-node table projects; every other field is forwarded. */
  private static final Set<RowField> SINGLE_CONSUMED = EnumSet.of(
      RowField.EXP_NAME, RowField.RECIPE_FINGERPRINT, RowField.ISL, RowField.OSL, RowField.MAX_MODEL_LEN,
      RowField.RUNNER, RowField.IMAGE, RowField.MODEL, RowField.MODEL_PREFIX, RowField.PRECISION,
      RowField.FRAMEWORK, RowField.ROUTER, RowField.KV_P2P_TRANSFER, RowField.TP, RowField.PP,
      RowField.DCP_SIZE, RowField.PCP_SIZE, RowField.EP, RowField.DP_ATTN, RowField.CONC,
      RowField.SPEC_DECODING, RowField.DISAGG, RowField.RUN_EVAL, RowField.EVAL_ONLY, RowField.SCENARIO_TYPE,
      RowField.KV_OFFLOADING, RowField.KV_OFFLOAD_BACKEND, RowField.TOTAL_CPU_DRAM_GB, RowField.DURATION,
      RowField.REQUIRE_POWER);

  /** Row fields the multi-node table projects; every other field is forwarded. */
  private static final Set<RowField> MULTI_CONSUMED = EnumSet.of(
      RowField.EXP_NAME, RowField.RECIPE_FINGERPRINT, RowField.IMAGE, RowField.MODEL, RowField.MODEL_PREFIX,
      RowField.FRAMEWORK, RowField.PRECISION, RowField.ISL, RowField.OSL, RowField.MAX_MODEL_LEN,
      RowField.SPEC_DECODING, RowField.DISAGG, RowField.ROUTER, RowField.KV_P2P_TRANSFER, RowField.CONC,
      RowField.PREFILL, RowField.DECODE, RowField.RUN_EVAL, RowField.EVAL_ONLY, RowField.EVAL_CONC,
      RowField.EVAL_ALL_CONCS, RowField.REQUIRE_POWER, RowField.SCENARIO_TYPE, RowField.DURATION,
      RowField.KV_OFFLOADING, RowField.KV_OFFLOAD_BACKEND, RowField.TOTAL_CPU_DRAM_GB, RowField.RUNNER);

  private EnvProjector() {}

  /** The projection of the reference templates (the only one so far). */
  public static EnvProjector standard() {
    return STANDARD;
  }

  /**
   * Projects {@code row} on {@code runner}.
   *
   * @throws ValidationException kind {@code row-validation} when a value the launch needs is
   *     unusable although the row's schema allows it (a single-node {@code conc} list of other than
   *     one value, an {@code additional-settings} item that is not {@code NAME=value}, a name that
   *     cannot become a file name), each with its JSON pointer and, for rows read from a file, line
   *     and column
   */
  public LaunchEnv project(MatrixRow row, RunnerName runner, RunContext ctx) {
    var b = new Builder(row);
    if (row instanceof MatrixRow.OnOneNode one) {
      single(b, row, one, ctx);
    } else {
      multi(b, row, (MatrixRow.OnManyNodes) row, ctx);
    }
    b.failIfInvalid();
    // Forwarded keys: everything the tables did not consume, in row order.
    Set<RowField> consumed = row.multiNode() ? MULTI_CONSUMED : SINGLE_CONSUMED;
    for (Map.Entry<String, Object> e : row.fields().entrySet()) {
      if (RowField.ofKey(e.getKey()).map(consumed::contains).orElse(false)) {
        continue;
      }
      String name = EnvValues.upperSnake(e.getKey());
      if (!name.isEmpty() && !Character.isDigit(name.charAt(0)) && !b.values.containsKey(name)) {
        b.values.put(name, EnvValues.text(e.getValue()));
      }
    }
    // Template constants.
    b.put(RANDOM_RANGE_RATIO, io.infx.client.ReferenceWorkload.RANDOM_RANGE_RATIO_TEXT);
    if (!row.multiNode()) {
      b.put(HF_HUB_CACHE, "/mnt/hf_hub_cache/");
      b.put(AIPERF_FAILED_REQUEST_THRESHOLD, "0.10");
      b.put(RESULT_DIR, "/workspace/results");
    }
    b.put(PYTHONDONTWRITEBYTECODE, "1");
    b.put(PYTHONPYCACHEPREFIX, ctx.pycachePrefix());
    b.put(SWEBENCH_USE_MODAL, "true");
    if (!row.multiNode()) {
      b.put(SALLOC_EXCLUDE, "b300-005,b300-006");
    }
    ctx.secrets().forEach((k, v) -> {
      b.values.put(k, v);
      b.secrets.add(k);
    });
    // Launch-step additions.
    b.put(RUNNER_NAME, runner.name());
    b.put(RUNNER_TYPE, row.runner());
    b.put(RESULT_FILENAME, ResultNaming.fromProjected(b.values, row.multiNode(), runner, ctx.fingerprintPolicy()));
    // Names that become file names are refused here, before a launch writes anything.
    fileName(b, "/exp-name", "exp-name", b.values.get(EXP_NAME.name()));
    fileName(b, "", "runner name", runner.name());
    fileName(b, "", RESULT_FILENAME.name(), b.values.get(RESULT_FILENAME.name()));
    b.failIfInvalid();
    if (row instanceof MatrixRow.OnOneNode one) {
      long gpus = (long) one.tp() * one.pp() * one.pcpSize();
      b.put(GPU_COUNT, Long.toString(gpus));
      b.put(IS_MULTINODE, "false");
    } else {
      var many = (MatrixRow.OnManyNodes) row;
      b.put(IS_MULTINODE, "true");
      b.additionalSettings("prefill", many.prefill());
      b.additionalSettings("decode", many.decode());
      b.failIfInvalid();
    }
    return new LaunchEnv(b.values, b.secrets, b.pointSettings);
  }

  private static void single(Builder b, MatrixRow row, MatrixRow.OnOneNode one, RunContext ctx) {
    boolean agentic = row.agentic();
    var fixed = row instanceof MatrixRow.FixedSeqLen f ? f : null;
    var agent = row instanceof MatrixRow.Agentic a ? a : null;
    b.put(EXP_NAME, row.expName());
    b.put(RECIPE_FINGERPRINT, row.recipeFingerprint().orElse(""));
    b.put(ISL, fixed == null ? "0" : Integer.toString(fixed.isl()));
    b.put(OSL, fixed == null ? "0" : Integer.toString(fixed.osl()));
    b.put(MAX_MODEL_LEN, fixed == null ? "0" : Integer.toString(fixed.maxModelLen()));
    b.put(IMAGE, row.image());
    b.put(MODEL, row.model());
    b.put(MODEL_PREFIX, row.modelPrefix());
    b.put(PRECISION, row.precision());
    b.put(FRAMEWORK, row.framework());
    b.put(ROUTER_METADATA, row.router().map(MatrixRow.RowComponent::toJson).orElse(""));
    b.put(KV_P2P_TRANSFER, ""); // single-node rows carry no transfer engine
    b.put(TP, Integer.toString(one.tp()));
    b.put(PP_SIZE, Integer.toString(one.pp()));
    b.put(DCP_SIZE, Integer.toString(one.dcpSize()));
    b.put(PCP_SIZE, Integer.toString(one.pcpSize()));
    b.put(EP_SIZE, Integer.toString(one.ep()));
    b.put(DP_ATTENTION, bool(one.dpAttn()));
    b.put(CONC, b.singleConc());
    b.put(SPEC_DECODING, row.specDecoding());
    b.put(DISAGG, "false"); // single-node rows are never disaggregated (schema: Literal[False])
    boolean evalOnly = row.evalOnly();
    b.put(RUN_EVAL, bool(agentic ? evalOnly : row.runEval()));
    b.put(EVAL_ONLY, bool(evalOnly));
    scenario(b, row);
    b.put(KV_OFFLOADING, agent == null ? "" : agent.kvOffloading());
    b.put(KV_OFFLOAD_BACKEND, agent == null ? "" : agent.kvOffloadBackend().map(MatrixRow.RowComponent::name).orElse(""));
    b.put(KV_OFFLOAD_BACKEND_METADATA, agent == null ? ""
        : agent.kvOffloadBackend().map(MatrixRow.RowComponent::toJson).orElse(""));
    b.put(TOTAL_CPU_DRAM_GB, agent == null ? "0" : Integer.toString(agent.totalCpuDramGb()));
    b.put(DURATION, duration(row, ctx));
    b.put(REQUIRE_POWER, ctx.requirePower() || (fixed != null && fixed.requirePower()) ? "1" : "0");
    b.put(AIPERF_EXPERIMENTAL_FAST, ctx.agentxFast() ? "1" : "0");
    b.put(EVAL_LIMIT, ctx.evalLimit());
    b.put(SWEBENCH_GEN_MODE, ctx.swebenchGenMode().isEmpty() ? "agentic" : ctx.swebenchGenMode());
  }

  private static void multi(Builder b, MatrixRow row, MatrixRow.OnManyNodes many, RunContext ctx) {
    boolean agentic = row.agentic();
    boolean evalOnly = row.evalOnly();
    var fixed = row instanceof MatrixRow.FixedSeqLen f ? f : null;
    var agent = row instanceof MatrixRow.Agentic a ? a : null;
    b.put(EXP_NAME, row.expName());
    b.put(RECIPE_FINGERPRINT, row.recipeFingerprint().orElse(""));
    b.put(IMAGE, row.image());
    b.put(MODEL, row.model());
    b.put(MODEL_PREFIX, row.modelPrefix());
    b.put(FRAMEWORK, row.framework());
    b.put(PRECISION, row.precision());
    b.put(ISL, fixed == null ? "0" : Integer.toString(fixed.isl()));
    b.put(OSL, fixed == null ? "0" : Integer.toString(fixed.osl()));
    b.put(MAX_MODEL_LEN, fixed == null ? "0" : Integer.toString(fixed.maxModelLen()));
    b.put(SPEC_DECODING, row.specDecoding());
    b.put(DISAGG, bool(many.disagg()));
    b.put(ROUTER_METADATA, row.router().map(MatrixRow.RowComponent::toJson).orElse(""));
    b.put(KV_P2P_TRANSFER, many.kvP2pTransfer().orElse(""));
    List<String> concs = b.concList();
    b.put(CONC_LIST, String.join(" ", concs));
    String conc = "";
    if (agentic) {
      conc = evalOnly && many.evalConc().isPresent()
          ? Integer.toString(many.evalConc().getAsInt())
          : (concs.isEmpty() ? "" : concs.get(0));
    }
    b.put(CONC, conc);
    b.put(PREFILL_HARDWARE, many.prefill().hardware().orElse(""));
    b.put(DECODE_HARDWARE, many.decode().hardware().orElse(""));
    for (String side : List.of("PREFILL", "DECODE")) {
      MatrixRow.RowWorker w = side.equals("PREFILL") ? many.prefill() : many.decode();
      List<LaunchVariable> vars = LaunchVariable.role(side);
      int[] values = {w.numWorker(), w.tp(), w.pp(), w.dcpSize(), w.pcpSize(), w.ep()};
      for (int i = 0; i < values.length; i++) {
        b.put(vars.get(i), Integer.toString(values[i]));
      }
      b.put(vars.get(6), bool(w.dpAttn()));
    }
    b.put(RUN_EVAL, bool(evalOnly));
    b.put(EVAL_ONLY, bool(evalOnly));
    String evalConc = "";
    if (evalOnly) {
      evalConc = many.evalAllConcs() ? String.join(" ", concs)
          : many.evalConc().isPresent() ? Integer.toString(many.evalConc().getAsInt()) : "";
    }
    b.put(EVAL_CONC, evalConc);
    b.put(EVAL_LIMIT, ctx.evalLimit());
    b.put(SWEBENCH_GEN_MODE, ctx.swebenchGenMode().isEmpty() ? "agentic" : ctx.swebenchGenMode());
    b.put(REQUIRE_POWER, ctx.requirePower() || (fixed != null && fixed.requirePower()) ? "1" : "0");
    b.put(POWER_PRODUCER_SHA, ctx.powerProducerSha());
    scenario(b, row);
    b.put(DURATION, duration(row, ctx));
    b.put(AIPERF_EXPERIMENTAL_FAST, ctx.agentxFast() ? "1" : "0");
    b.put(KV_OFFLOADING, agent == null ? "" : agent.kvOffloading());
    b.put(KV_OFFLOAD_BACKEND, agent == null ? "" : agent.kvOffloadBackend().map(MatrixRow.RowComponent::name).orElse(""));
    b.put(KV_OFFLOAD_BACKEND_METADATA, agent == null ? ""
        : agent.kvOffloadBackend().map(MatrixRow.RowComponent::toJson).orElse(""));
    // Multi-node fixed-seq rows have no DRAM budget field; the multi-node template defaults it.
    b.put(TOTAL_CPU_DRAM_GB, agent == null ? "600" : Integer.toString(agent.totalCpuDramGb()));
  }

  private static void scenario(Builder b, MatrixRow row) {
    boolean agentic = row.agentic();
    b.put(SCENARIO_TYPE, agentic ? "agentic-coding" : "fixed-seq-len");
    b.put(SCENARIO_SUBDIR, agentic ? "agentic/" : "fixed_seq_len/");
    b.put(IS_AGENTIC, agentic ? "1" : "0");
  }

  private static String duration(MatrixRow row, RunContext ctx) {
    if (ctx.durationOverride().isPresent()) {
      return Integer.toString(ctx.durationOverride().getAsInt());
    }
    return row instanceof MatrixRow.Agentic a ? Integer.toString(a.duration()) : "3600";
  }

  private static void fileName(Builder b, String pointer, String what, String value) {
    if (value == null || value.isEmpty()) {
      return;
    }
    io.infx.core.io.FileNames.problem(value).ifPresent(p -> b.violation(
        "fleet.row.file-name", pointer, what + " '" + value + "' " + p));
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

    void put(LaunchVariable variable, String value) {
      values.put(variable.name(), value);
    }

    void violation(String ruleId, String pointer, String message) {
      var v = Violation.builder().ruleId(ruleId).pointer(pointer).message(message);
      row.locate(pointer).ifPresent(v::location);
      violations.add(v.build());
    }

    void failIfInvalid() {
      if (!violations.isEmpty()) {
        throw new ValidationException(ErrorKind.ROW_VALIDATION, violations);
      }
    }

    String singleConc() {
      List<Integer> conc = row.conc();
      // The schema accepts a one-element list here (never produced by the generator).
      if (conc.size() != 1) {
        violation("fleet.row.conc", "/conc",
            "a single-node row runs one concurrency; 'conc' holds " + conc.size() + " values");
        return "0";
      }
      return Integer.toString(conc.get(0));
    }

    List<String> concList() {
      List<String> out = new ArrayList<>();
      row.conc().forEach(c -> out.add(Integer.toString(c)));
      if (out.isEmpty()) {
        violation("fleet.row.conc", "/conc", "a multi-node row's 'conc' must be a non-empty list of integers");
      }
      return out;
    }

    void additionalSettings(String role, MatrixRow.RowWorker worker) {
      String pointer = "/" + role + "/additional-settings";
      List<String> list = worker.additionalSettings();
      for (int i = 0; i < list.size(); i++) {
        String text = list.get(i);
        int eq = text.indexOf('=');
        String name = eq <= 0 ? null : text.substring(0, eq);
        if (name == null || !isEnvName(name)) {
          violation("fleet.row.setting", pointer + "/" + i,
              "additional setting must look like NAME=value with NAME a valid environment name, found "
                  + EnvValues.json(text));
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
