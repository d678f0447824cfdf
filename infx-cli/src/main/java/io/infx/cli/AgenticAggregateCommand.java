package io.infx.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.results.agentx.AgenticAggregate;
import io.infx.results.agentx.AgenticAggregator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code infx results agentic-aggregate}: the {@code bmk_agentic_*} aggregate of an AgentX replay,
 * environment-driven like InferenceX's {@code process_agentic_result.py}.
 */
@Command(
    name = "agentic-aggregate",
    mixinStandardHelpOptions = true,
    description = {
        "Aggregate an AgentX replay's exports (aiperf_artifacts/profile_export.jsonl, "
            + "profile_export_aiperf.json, server_metrics_export.json, server logs) into the "
            + "bmk_agentic aggregate JSON.",
        "Reads the run identity from the environment like the reference. Required (unset or empty "
            + "fails, naming each, and nothing is written): MODEL, FRAMEWORK, CONC (users, >= 1), "
            + "KV_OFFLOADING, and TP on one node or PREFILL_NUM_WORKERS, PREFILL_TP, "
            + "DECODE_NUM_WORKERS, DECODE_TP with IS_MULTINODE=true. Optional, with the reference's "
            + "defaults: RUNNER_TYPE, IMAGE, MODEL_PREFIX, PRECISION (empty), SPEC_DECODING (none), "
            + "EP_SIZE, PP_SIZE, DCP_SIZE, PCP_SIZE (1), DP_ATTENTION (false), KV_OFFLOAD_BACKEND[_METADATA], "
            + "TOTAL_CPU_DRAM_GB (0), ROUTER_METADATA, KV_P2P_TRANSFER.",
        "RESULT_DIR (default 'results'), RESULT_FILENAME and AGENTIC_OUTPUT_DIR (default '.') name "
            + "the output '<AGENTIC_OUTPUT_DIR>/<RESULT_FILENAME>.json' unless --out is given.",
        "The replay's validity stamp (submission_valid and its reasons) is carried into the aggregate.",
        "The summary goes to stderr; stdout carries the aggregate only with --out -."})
public final class AgenticAggregateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", paramLabel = "FILE",
      description = "Write the aggregate here (atomically); '-' prints it to stdout.")
  Path out;

  @Option(names = "--result-dir", paramLabel = "DIR",
      description = "The replay's result directory (default: $RESULT_DIR, else 'results').")
  Path resultDir;

  @Option(names = "--env-file", paramLabel = "FILE",
      description = "Take the run's variables from this file (a JSON object or KEY=VALUE lines) "
          + "instead of the process environment.")
  Path envFile;

  @Override
  public Integer call() {
    Map<String, String> env = envFile == null ? System.getenv() : readEnvFile(envFile);
    Path dir = resultDir != null ? resultDir : Path.of(env.getOrDefault(io.infx.core.launch.LaunchVariable.RESULT_DIR.name(), "results"));
    Path target = out;
    if (target == null) {
      String name = env.getOrDefault(io.infx.core.launch.LaunchVariable.RESULT_FILENAME.name(), "");
      if (name.isEmpty()) {
        throw new InfxException(ErrorKind.AGENTIC_AGGREGATE, "RESULT_FILENAME env var not set (or pass --out FILE)");
      }
      target = Path.of(env.getOrDefault(io.infx.core.launch.LaunchVariable.AGENTIC_OUTPUT_DIR.name(), ".")).resolve(name + ".json");
    }
    AgenticAggregate agg = AgenticAggregator.aggregate(dir, env);
    PrintWriter err = spec.commandLine().getErr();
    if (target.toString().equals("-")) {
      spec.commandLine().getOut().print(agg.toPrettyString());
    } else {
      agg.writeTo(target);
      err.println("Saved aggregated agentic result to " + target);
    }
    JsonNode json = agg.toJson();
    JsonNode acc = json.path("request_accounting");
    err.println("  Requests: " + agg.numRequestsSuccessful() + " successful / " + agg.numRequestsTotal()
        + " total (" + acc.path("records_warmup_dropped").asLong() + " warmup, "
        + acc.path("records_error_dropped").asLong() + " error dropped)");
    agg.totalTokensPerSecondPerGpu().ifPresent(t ->
        err.println("  Throughput per GPU: " + Math.round(t) + " tok/s"));
    if (agg.submissionValid().filter(valid -> !valid).isPresent()) {
      err.println("  Not a valid submission: " + String.join(", ", agg.submissionInvalidReasons()));
    }
    return 0;
  }

  /** A JSON object of strings, or {@code KEY=VALUE} lines ({@code #} comments, optional quotes). */
  static Map<String, String> readEnvFile(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
    Map<String, String> env = new LinkedHashMap<>();
    if (text.stripLeading().startsWith("{")) {
      try {
        JsonNode n = new ObjectMapper().readTree(text);
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
          Map.Entry<String, JsonNode> e = it.next();
          env.put(e.getKey(), e.getValue().isTextual() ? e.getValue().textValue() : e.getValue().toString());
        }
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, file + ": not a JSON object of variables: " + e.getMessage(), e);
      }
      return env;
    }
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("export ")) {
        line = line.substring("export ".length()).strip();
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new InfxException(ErrorKind.FILE, file + ":" + (i + 1) + ":1: expected KEY=VALUE");
      }
      String value = line.substring(eq + 1).strip();
      if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
          || value.startsWith("'") && value.endsWith("'"))) {
        value = value.substring(1, value.length() - 1);
      }
      env.put(line.substring(0, eq).strip(), value);
    }
    return env;
  }
}
