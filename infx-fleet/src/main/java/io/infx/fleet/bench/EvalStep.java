package io.infx.fleet.bench;

import static io.infx.core.launch.LaunchVariable.DCP_SIZE;
import static io.infx.core.launch.LaunchVariable.DECODE_DCP_SIZE;
import static io.infx.core.launch.LaunchVariable.DECODE_DP_ATTENTION;
import static io.infx.core.launch.LaunchVariable.DECODE_DP_ATTN;
import static io.infx.core.launch.LaunchVariable.DECODE_ENABLE_DP;
import static io.infx.core.launch.LaunchVariable.DECODE_ENABLE_EP;
import static io.infx.core.launch.LaunchVariable.DECODE_EP;
import static io.infx.core.launch.LaunchVariable.DECODE_NUM_WORKERS;
import static io.infx.core.launch.LaunchVariable.DECODE_PCP_SIZE;
import static io.infx.core.launch.LaunchVariable.DECODE_PP_SIZE;
import static io.infx.core.launch.LaunchVariable.DECODE_TP;
import static io.infx.core.launch.LaunchVariable.DECODE_TP_SIZE;
import static io.infx.core.launch.LaunchVariable.DP_ATTENTION;
import static io.infx.core.launch.LaunchVariable.EP;
import static io.infx.core.launch.LaunchVariable.EP_SIZE;
import static io.infx.core.launch.LaunchVariable.EVAL_LIMIT;
import static io.infx.core.launch.LaunchVariable.FRAMEWORK;
import static io.infx.core.launch.LaunchVariable.ISL;
import static io.infx.core.launch.LaunchVariable.IS_MULTINODE;
import static io.infx.core.launch.LaunchVariable.MODEL;
import static io.infx.core.launch.LaunchVariable.MODEL_NAME;
import static io.infx.core.launch.LaunchVariable.MODEL_PREFIX;
import static io.infx.core.launch.LaunchVariable.OSL;
import static io.infx.core.launch.LaunchVariable.PCP_SIZE;
import static io.infx.core.launch.LaunchVariable.PORT;
import static io.infx.core.launch.LaunchVariable.PP_SIZE;
import static io.infx.core.launch.LaunchVariable.PRECISION;
import static io.infx.core.launch.LaunchVariable.PREFILL_DCP_SIZE;
import static io.infx.core.launch.LaunchVariable.PREFILL_DP_ATTENTION;
import static io.infx.core.launch.LaunchVariable.PREFILL_DP_ATTN;
import static io.infx.core.launch.LaunchVariable.PREFILL_ENABLE_DP;
import static io.infx.core.launch.LaunchVariable.PREFILL_ENABLE_EP;
import static io.infx.core.launch.LaunchVariable.PREFILL_EP;
import static io.infx.core.launch.LaunchVariable.PREFILL_NUM_WORKERS;
import static io.infx.core.launch.LaunchVariable.PREFILL_PCP_SIZE;
import static io.infx.core.launch.LaunchVariable.PREFILL_PP_SIZE;
import static io.infx.core.launch.LaunchVariable.PREFILL_TP;
import static io.infx.core.launch.LaunchVariable.PREFILL_TP_SIZE;
import static io.infx.core.launch.LaunchVariable.RECIPE_FINGERPRINT;
import static io.infx.core.launch.LaunchVariable.RESULT_FILENAME;
import static io.infx.core.launch.LaunchVariable.RUNNER_TYPE;
import static io.infx.core.launch.LaunchVariable.SPEC_DECODING;
import static io.infx.core.launch.LaunchVariable.TP;
import static io.infx.core.launch.LaunchVariable.xP;
import static io.infx.core.launch.LaunchVariable.yD;

import io.infx.core.launch.LaunchVariable;
import io.infx.core.io.AtomicFiles;
import io.infx.core.python.PythonJson;
import io.infx.fleet.spi.Lifecycle;
import io.infx.fleet.spi.LogSink;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The eval part of an eval point, as the reference's bench scripts run it (benchmark_lib.sh):
 * {@code run_lm_eval} against the server on {@code PORT}, then {@code _stage_lm_eval_artifacts}
 * (every {@code *.json}/{@code *.jsonl} the tool wrote under {@code EVAL_RESULT_DIR} moved flat
 * into the workspace as {@code <stem>_conc<N><ext>}, {@code _conc<N>_<k>} on a name clash, the
 * result directory removed) and {@code _write_lm_eval_meta_json} ({@code meta_env.json} with the
 * batch fields {@code eval_concs}, {@code completed_eval_concs}, {@code failed_eval_concs}). The
 * score gate ({@code validate_scores.py}) runs afterwards, outside the job.
 */
public final class EvalStep {

  /** The message of a point whose eval tool is not installed. */
  public static final String LM_EVAL_MISSING = "the eval tool is not installed: `python3 -m lm_eval` is "
      + "not available (install it yourself, e.g. pip install 'lm_eval[api]'), or give an eval command "
      + "(infx run --eval-cmd), or leave evals out (--no-evals)";

  private EvalStep() {}

  /**
   * How the eval ended.
   *
   * @param exitCode the tool's exit status (-1 when it could not start)
   * @param staged files moved into the workspace, in staging order
   * @param failure why the eval failed, if it did
   */
  public record Outcome(int exitCode, List<Path> staged, Optional<String> failure) {
    public boolean ok() {
      return failure.isEmpty();
    }
  }

  /**
   * Runs the eval at concurrency {@code conc} against the server at {@code base} (e.g.
   * {@code http://127.0.0.1:8000}), stages its output and writes {@code meta_env.json}. Never
   * throws for a failed eval.
   */
  public static Outcome run(Map<String, String> pointEnv, java.net.URI base, int conc, Path workspace,
      EvalSettings settings, Lifecycle life, LogSink log) {
    Map<String, String> env = evalEnv(pointEnv, base, conc, workspace, settings);
    Optional<String> missing = missingTool(settings, env, workspace);
    if (missing.isPresent()) {
      writeMeta(workspace, pointEnv, conc, false);
      return new Outcome(-1, List.of(), missing);
    }
    Path resultsDir = Path.of(env.get("EVAL_RESULT_DIR"));
    int rc;
    try {
      deleteTree(resultsDir);
      Files.createDirectories(resultsDir);
      String command = settings.command().orElseGet(() -> defaultCommand(env));
      log.line("eval", "running: " + command);
      rc = runCommand(command, env, workspace, life, log);
    } catch (IOException e) {
      writeMeta(workspace, pointEnv, conc, false);
      return new Outcome(-1, List.of(), Optional.of("eval could not start: " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      writeMeta(workspace, pointEnv, conc, false);
      return new Outcome(-1, List.of(), Optional.of("eval interrupted"));
    }
    List<Path> staged;
    try {
      staged = stage(resultsDir, conc, workspace);
    } catch (IOException e) {
      writeMeta(workspace, pointEnv, conc, false);
      return new Outcome(rc, List.of(), Optional.of("eval output could not be staged: " + e.getMessage()));
    }
    boolean completed = rc == 0 && !staged.isEmpty();
    writeMeta(workspace, pointEnv, conc, completed);
    if (rc != 0) {
      return new Outcome(rc, staged, Optional.of("eval command exited with status " + rc + " (see the point log)"));
    }
    if (staged.isEmpty()) {
      return new Outcome(rc, staged, Optional.of("no eval artifacts were produced for concurrency " + conc
          + " (the eval command wrote no *.json under EVAL_RESULT_DIR)"));
    }
    return new Outcome(rc, staged, Optional.empty());
  }

  /** The environment the eval tool runs with (see {@link EvalSettings}). */
  static Map<String, String> evalEnv(Map<String, String> pointEnv, java.net.URI base, int conc, Path workspace,
      EvalSettings settings) {
    Map<String, String> env = new LinkedHashMap<>(pointEnv);
    String root = base.toString().replaceAll("/+$", "");
    env.put(PORT.name(), Integer.toString(base.getPort()));
    env.put(MODEL_NAME.name(), MODEL_NAME.in(pointEnv).orElse(pointEnv.getOrDefault(MODEL.name(), "")));
    env.putIfAbsent("OPENAI_API_KEY", "EMPTY");
    env.put("OPENAI_BASE_URL", root + "/v1");
    env.put("EVAL_RESULT_DIR", workspace.toAbsolutePath().resolve("eval_out").toString());
    env.put("EVAL_TASKS_DIR", settings.tasks());
    env.put("EVAL_CONCURRENT_REQUESTS", Integer.toString(conc));
    // setup_eval_context: ISL + OSL + 256 (the model's native maximum is not known here)
    int isl = ISL.intIn(pointEnv).orElse(0);
    int osl = OSL.intIn(pointEnv).orElse(0);
    int context = isl + osl > 0 ? isl + osl + 256 : 16384;
    env.put("EVAL_MAX_MODEL_LEN", Integer.toString(context));
    int maxOutput = Math.min(16384, context > 4096 ? context - 4096 : context / 2);
    env.put("EVAL_MAX_OUTPUT_TOKENS", Integer.toString(maxOutput));
    if (settings.limit().isPresent()) {
      env.put(EVAL_LIMIT.name(), Integer.toString(settings.limit().getAsInt()));
    }
    return env;
  }

  /** run_lm_eval's invocation, against 127.0.0.1. */
  static String defaultCommand(Map<String, String> env) {
    String modelArgs = "model=" + env.get(MODEL_NAME.name()) + ",base_url=" + env.get("OPENAI_BASE_URL")
        + "/chat/completions,api_key=" + "${OPENAI_API_KEY}" + ",eos_string=</s>,max_retries=5,num_concurrent="
        + env.get("EVAL_CONCURRENT_REQUESTS") + ",timeout=1800,tokenized_requests=False,max_length="
        + env.get("EVAL_MAX_MODEL_LEN");
    String limit = EVAL_LIMIT.in(env).map(l -> " --limit " + shellQuote(l)).orElse("");
    return "python3 -m lm_eval --model local-chat-completions --apply_chat_template --tasks "
        + shellQuote(env.get("EVAL_TASKS_DIR")) + " --output_path \"$EVAL_RESULT_DIR\" --log_samples"
        + " --model_args \"" + modelArgs.replace("\"", "\\\"") + "\""
        + " --gen_kwargs max_tokens=" + env.get("EVAL_MAX_OUTPUT_TOKENS") + ",temperature=0,top_p=1" + limit;
  }

  /** Why the eval tool cannot run, if it cannot. */
  private static Optional<String> missingTool(EvalSettings settings, Map<String, String> env, Path workspace) {
    String probe;
    String message;
    if (settings.command().isEmpty()) {
      probe = "python3 -c 'import lm_eval' >/dev/null 2>&1";
      message = LM_EVAL_MISSING;
    } else {
      String first = firstWord(settings.command().get());
      if (first.isEmpty()) {
        return Optional.empty(); // env assignments or shell syntax first: let the shell report it
      }
      probe = "command -v " + shellQuote(first) + " >/dev/null 2>&1";
      message = "the eval command's program '" + first + "' was not found (the eval tool is yours to "
          + "install; check PATH or the --eval-cmd value)";
    }
    try {
      ProcessBuilder pb = new ProcessBuilder("bash", "-c", probe).directory(workspace.toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().clear();
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return Optional.of(message + " (the check timed out)");
      }
      return p.exitValue() == 0 ? Optional.empty() : Optional.of(message);
    } catch (IOException e) {
      return Optional.of(message + " (" + e.getMessage() + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of("interrupted while looking for the eval tool");
    }
  }

  private static final Pattern WORD = Pattern.compile("^\\s*([A-Za-z0-9_./+-]+)(?:\\s|$)");

  private static String firstWord(String command) {
    Matcher m = WORD.matcher(command);
    return m.find() ? m.group(1) : "";
  }

  private static int runCommand(String command, Map<String, String> env, Path workspace, Lifecycle life,
      LogSink log) throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(workspace.toFile())
        .redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    life.onClose("stop eval", () -> {
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
    });
    Thread pump = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          log.line("eval", line);
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "infx-eval-log");
    pump.setDaemon(true);
    pump.start();
    try {
      int rc = p.waitFor();
      pump.join(5000);
      return rc;
    } catch (InterruptedException e) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw e;
    }
  }

  /**
   * {@code _stage_lm_eval_artifacts}: moves every {@code *.json} / {@code *.jsonl} under
   * {@code resultsDir} (any depth; {@code meta_env.json} excepted; path order) into
   * {@code workspace} as {@code <stem>_conc<N><ext>} ({@code _conc<N>_<k>} from k = 2 on a clash),
   * then removes {@code resultsDir}.
   */
  static List<Path> stage(Path resultsDir, int conc, Path workspace) throws IOException {
    List<Path> moved = new ArrayList<>();
    if (!Files.isDirectory(resultsDir)) {
      return moved;
    }
    List<Path> files;
    try (Stream<Path> s = Files.walk(resultsDir)) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    }
    for (Path f : files) {
      String base = f.getFileName().toString();
      String stem;
      String ext;
      if (base.equals("meta_env.json")) {
        continue;
      } else if (base.endsWith(".jsonl")) {
        stem = base.substring(0, base.length() - 6);
        ext = ".jsonl";
      } else if (base.endsWith(".json")) {
        stem = base.substring(0, base.length() - 5);
        ext = ".json";
      } else {
        continue;
      }
      Path target = workspace.resolve(stem + "_conc" + conc + ext);
      for (int k = 2; Files.exists(target); k++) {
        target = workspace.resolve(stem + "_conc" + conc + "_" + k + ext);
      }
      Files.move(f, target);
      moved.add(target);
    }
    deleteTree(resultsDir);
    return moved;
  }

  /**
   * {@code _write_lm_eval_meta_json} for a batch of one concurrency: the reference's key order and
   * layout, values from the point's environment after {@code bridge_disagg_eval_metadata}.
   */
  static void writeMeta(Path workspace, Map<String, String> pointEnv, int conc, boolean completed) {
    AtomicFiles.writeString(workspace.resolve("meta_env.json"), metaJson(pointEnv, conc, completed));
  }

  static String metaJson(Map<String, String> in, int conc, boolean completed) {
    Map<String, String> e = new LinkedHashMap<>(in);
    // bridge_disagg_eval_metadata
    String tp = or(e, PREFILL_TP, or(e, PREFILL_TP_SIZE, or(e, TP, "1")));
    e.put(TP.name(), tp);
    e.put(PREFILL_TP.name(), tp);
    String prefillEp = disaggEp(or(e, PREFILL_EP, or(e, EP_SIZE, or(e, EP, "1"))),
        or(e, PREFILL_ENABLE_EP, "false"), or(e, PREFILL_TP_SIZE, or(e, PREFILL_TP, "1")));
    e.put(PREFILL_EP.name(), prefillEp);
    e.put(EP_SIZE.name(), prefillEp);
    e.put(PREFILL_NUM_WORKERS.name(), or(e, PREFILL_NUM_WORKERS, or(e, xP, "1")));
    e.put(DECODE_TP.name(), or(e, DECODE_TP, or(e, DECODE_TP_SIZE, or(e, TP, "1"))));
    e.put(DECODE_EP.name(), disaggEp(or(e, DECODE_EP, or(e, EP_SIZE, or(e, EP, "1"))),
        or(e, DECODE_ENABLE_EP, "false"), or(e, DECODE_TP_SIZE, or(e, DECODE_TP, "1"))));
    e.put(DECODE_NUM_WORKERS.name(), or(e, DECODE_NUM_WORKERS, or(e, yD, "1")));
    String prefillDp = or(e, PREFILL_DP_ATTN, or(e, PREFILL_DP_ATTENTION, or(e, PREFILL_ENABLE_DP, "false")));
    String decodeDp = or(e, DECODE_DP_ATTN, or(e, DECODE_DP_ATTENTION, or(e, DECODE_ENABLE_DP, "false")));
    e.put(DP_ATTENTION.name(), boolJson(prefillDp));
    e.put(PREFILL_DP_ATTENTION.name(), boolJson(prefillDp));
    e.put(DECODE_DP_ATTENTION.name(), boolJson(decodeDp));

    String fw = or(e, FRAMEWORK, "");
    String prec = or(e, PRECISION, "");
    if ((fw.isEmpty() || prec.isEmpty()) && !or(e, RESULT_FILENAME, "").isEmpty()) {
      Matcher m = Pattern.compile(".*_([^_][^_]*)_([^_][^_]*)_tp.*").matcher(e.get(RESULT_FILENAME.name()));
      if (m.matches()) {
        prec = prec.isEmpty() ? m.group(1) : prec;
        fw = fw.isEmpty() ? m.group(2) : fw;
      }
    }
    String concs = "[" + conc + "]";
    StringBuilder sb = new StringBuilder("{\n");
    sb.append("  \"is_multinode\": ").append("true".equals(e.get(IS_MULTINODE.name())) ? "true" : "false").append(",\n");
    str(sb, "framework", fw.isEmpty() ? "unknown" : fw);
    str(sb, "precision", prec.isEmpty() ? "unknown" : prec);
    str(sb, "spec_decoding", or(e, SPEC_DECODING, ""));
    str(sb, "recipe_fingerprint", or(e, RECIPE_FINGERPRINT, ""));
    num(sb, "tp", or(e, TP, "1"));
    num(sb, "pp", or(e, PP_SIZE, "1"));
    num(sb, "dcp_size", or(e, DCP_SIZE, "1"));
    num(sb, "pcp_size", or(e, PCP_SIZE, "1"));
    num(sb, "conc", Integer.toString(conc));
    sb.append("  \"eval_concs\": ").append(concs).append(",\n");
    sb.append("  \"completed_eval_concs\": ").append(completed ? concs : "[]").append(",\n");
    sb.append("  \"failed_eval_concs\": ").append(completed ? "[]" : concs).append(",\n");
    num(sb, "ep", or(e, EP_SIZE, "1"));
    sb.append("  \"dp_attention\": ").append(boolJson(or(e, DP_ATTENTION, "false"))).append(",\n");
    num(sb, "prefill_tp", or(e, PREFILL_TP, or(e, TP, "1")));
    num(sb, "prefill_pp", or(e, PREFILL_PP_SIZE, or(e, PP_SIZE, "1")));
    num(sb, "prefill_dcp_size", or(e, PREFILL_DCP_SIZE, or(e, DCP_SIZE, "1")));
    num(sb, "prefill_pcp_size", or(e, PREFILL_PCP_SIZE, or(e, PCP_SIZE, "1")));
    num(sb, "prefill_ep", or(e, PREFILL_EP, or(e, EP_SIZE, "1")));
    sb.append("  \"prefill_dp_attention\": ")
        .append(boolJson(or(e, PREFILL_DP_ATTENTION, or(e, DP_ATTENTION, "false")))).append(",\n");
    num(sb, "prefill_num_workers", or(e, PREFILL_NUM_WORKERS, "1"));
    num(sb, "decode_tp", or(e, DECODE_TP, or(e, TP, "1")));
    num(sb, "decode_pp", or(e, DECODE_PP_SIZE, or(e, PP_SIZE, "1")));
    num(sb, "decode_dcp_size", or(e, DECODE_DCP_SIZE, or(e, DCP_SIZE, "1")));
    num(sb, "decode_pcp_size", or(e, DECODE_PCP_SIZE, or(e, PCP_SIZE, "1")));
    num(sb, "decode_ep", or(e, DECODE_EP, or(e, EP_SIZE, "1")));
    sb.append("  \"decode_dp_attention\": ")
        .append(boolJson(or(e, DECODE_DP_ATTENTION, or(e, DP_ATTENTION, "false")))).append(",\n");
    num(sb, "decode_num_workers", or(e, DECODE_NUM_WORKERS, "1"));
    str(sb, "model", or(e, MODEL_NAME, or(e, MODEL, "")));
    str(sb, "infmax_model_prefix", or(e, MODEL_PREFIX, "unknown"));
    str(sb, "hw", or(e, RUNNER_TYPE, "unknown"));
    str(sb, "isl", or(e, ISL, "0"));
    sb.append("  \"osl\": ");
    PythonJson.appendString(sb, or(e, OSL, "0"));
    sb.append("\n}\n");
    return sb.toString();
  }

  /** {@code ${NAME:-fallback}}: unset or empty takes the fallback. */
  private static String or(Map<String, String> env, LaunchVariable v, String fallback) {
    return v.in(env, fallback);
  }

  private static String disaggEp(String ep, String enable, String tp) {
    return ep.equals("1") && LaunchVariable.isFlagOn(enable) ? tp : ep;  // _env_is_true
  }


  private static String boolJson(String v) {
    return LaunchVariable.isFlagOn(v) ? "true" : "false";  // _env_is_true
  }

  // The reference pastes values into a heredoc; strings are JSON-escaped here so an odd value
  // cannot produce an invalid file, and a number that is not an integer is written as a string.
  private static void str(StringBuilder sb, String key, String value) {
    sb.append("  \"").append(key).append("\": ");
    PythonJson.appendString(sb, value);
    sb.append(",\n");
  }

  private static void num(StringBuilder sb, String key, String value) {
    sb.append("  \"").append(key).append("\": ");
    if (value.matches("-?[0-9]+")) {
      sb.append(value);
    } else {
      PythonJson.appendString(sb, value);
    }
    sb.append(",\n");
  }

  private static Optional<String> nonEmpty(String s) {
    return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
  }

  private static String shellQuote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
