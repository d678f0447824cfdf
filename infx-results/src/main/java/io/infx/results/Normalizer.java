package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.python.PythonJson;
import io.infx.core.python.PythonNumbers;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import io.infx.client.RawResult;
import io.infx.client.ServeJob;
import io.infx.client.ServeMetrics;
import io.infx.core.provenance.ServerProvenance;

/**
 * Turns a raw fixed-sequence client result into an {@link AggregateRow}, the way the reference
 * {@code utils/process_result.py} does, without touching files or the environment.
 *
 * <p>Rules reproduced from the reference:
 * <ul>
 *   <li>{@code conc = int(max_concurrency)}, {@code model = model_id}; both required.</li>
 *   <li>Per-GPU throughput from {@code total_token_throughput} and {@code output_throughput}
 *       (tokens/s) over the topology's GPU counts (see {@link SingleNodeTopology},
 *       {@link MultiNodeTopology}); input throughput is their difference.</li>
 *   <li>Generic key rules over every raw key in file order: a key ending in {@code ms} becomes
 *       {@code key.replace("_ms", "") = value / 1000} (milliseconds → seconds); a key containing
 *       {@code tpot} also becomes {@code key.replace("_ms", "").replace("tpot", "intvty") =
 *       1000 / value} (interactivity, tokens/s per user). All other raw keys are dropped.</li>
 *   <li>A TPOT of 0 fails with {@code division_by_zero} (the reference crashes); with
 *       {@link NormalizerOptions#metricGuards()} the interactivity key is skipped instead.</li>
 * </ul>
 * infx's own addition: a raw result carrying {@code infx.server} (what answered, written by the
 * infx client) gives the row {@code server_engine}, {@code server_version} and {@code simulated};
 * without it the row is exactly the reference's.
 *
 * <p>Stricter than the reference (never publishing what Python's {@code json} would write as
 * non-standard {@code NaN}/{@code Infinity}, or silently truncated values): non-finite results,
 * fractional or boolean {@code max_concurrency}, a non-string {@code model_id} and converted keys
 * that would overwrite an identity key are refused with {@code invalid_raw_value}.
 */
public final class Normalizer {

  private final NormalizerOptions options;

  private Normalizer(NormalizerOptions options) {
    this.options = Objects.requireNonNull(options, "options");
  }

  /** A normalizer with the reference behaviour. */
  public static Normalizer reference() {
    return new Normalizer(NormalizerOptions.reference());
  }

  /** A normalizer with the given options (NullPointerException if null). */
  public static Normalizer of(NormalizerOptions options) {
    return new Normalizer(options);
  }

  /** The options this normalizer applies. */
  public NormalizerOptions options() {
    return options;
  }

  /**
   * Normalizes one raw result.
   *
   * @param raw the parsed raw result (a JSON object, keys in file order)
   * @param identity the run's identity
   * @return the aggregate row, without power fields (the power stage adds them); throughputs in
   *     tok/s/GPU, latency metrics in seconds
   * @throws ResultsException {@code missing_raw_field}, {@code invalid_raw_value} (also for a
   *     non-finite per-GPU throughput) or {@code division_by_zero}
   */
  public AggregateRow normalize(JsonNode raw, RunIdentity identity) {
    int conc = concurrency(raw);
    String model = model(raw);
    Optional<BenchmarkOutcome> outcome = options.checkBenchmarkOutcome() && raw.has("benchmark_outcome")
        ? Optional.of(checkedOutcome(raw)) : Optional.empty();
    double total = requiredFloat(raw, "total_token_throughput");
    double output = requiredFloat(raw, "output_throughput");
    if (options.requireOutputTokens()) {
      requireOutputTokens(raw, output);
    }
    return assemble(identity, conc, model, outcome, total, output, () -> server(raw), () -> metrics(raw));
  }

  /**
   * Normalizes an in-process serve run, with no raw JSON in between: the same rules as {@link
   * #normalize(JsonNode, RunIdentity)} over the values the raw file would hold ({@code
   * max_concurrency} of the run's load, {@code model_id} = {@link ServeJob.Outcome#modelId()},
   * {@code total_token_throughput}, {@code output_throughput} and {@code total_output_tokens} in
   * tokens and tok/s, the latency keys of {@link RawResult#latencyFields} in ms, the request counts
   * of {@code benchmark_outcome}, {@code infx.server}). The result equals normalizing the raw file
   * the same run saved (checked by tests over many runs), except that {@code --metadata} pairs are
   * never read as metrics here (the file route would convert a metadata key ending in {@code ms}).
   *
   * @param run what {@link ServeJob#run} returned
   * @param identity the run's identity (e.g. {@code io.infx.fleet.RunIdentities.of(row)})
   * @return the aggregate row, without power fields; throughputs in tok/s/GPU, latencies in seconds,
   *     interactivity in tok/s per user
   * @throws ResultsException {@code invalid_raw_value} for a run without a maximum concurrency (an
   *     open-loop run without {@code --max-concurrency}), without output tokens (with {@link
   *     NormalizerOptions#requireOutputTokens()}) or with a non-finite per-GPU throughput; {@code
   *     division_by_zero} for a TPOT of 0 (as the file route)
   */
  public AggregateRow normalize(ServeJob.Outcome run, RunIdentity identity) {
    Objects.requireNonNull(run, "run");
    Objects.requireNonNull(identity, "identity");
    ServeMetrics m = run.metrics();
    OptionalInt mc = run.result().benchmark().load().maxConcurrency();
    if (mc.isEmpty()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE, "the run has no maximum concurrency "
          + "(max_concurrency is null: was the client run without --max-concurrency?), so the row has no conc");
    }
    Optional<BenchmarkOutcome> outcome = Optional.empty();
    if (options.checkBenchmarkOutcome()) {
      try {
        outcome = Optional.of(BenchmarkOutcome.of(m.requested(), m.completed()));
      } catch (IllegalArgumentException e) {
        throw new ResultsException(ErrorKind.INVALID_RAW_VALUE, e.getMessage(), e);
      }
    }
    double output = m.outputThroughput();
    if (options.requireOutputTokens() && m.totalOutputTokens() == 0) {
      throw noOutputTokens("total_output_tokens is 0", " although " + m.completed() + " requests completed");
    }
    Map<String, Double> latency = RawResult.latencyFields(m, run.metricOptions());
    return assemble(identity, mc.getAsInt(), run.modelId(), outcome, m.totalTokenThroughput(), output,
        run::server, () -> {
          Map<String, Double> out = new LinkedHashMap<>();
          latency.forEach((key, value) -> applyKeyRules(out, key, value));
          return out;
        });
  }

  /** The rules every route shares: per-GPU throughputs over the topology, then provenance and metrics. */
  private AggregateRow assemble(RunIdentity identity, int conc, String model, Optional<BenchmarkOutcome> outcome,
      double total, double output, Supplier<Optional<ServerProvenance>> server,
      Supplier<Map<String, Double>> metrics) {
    ImmutableAggregateRow.Builder row = AggregateRow.builder()
        .identity(identity)
        .conc(conc)
        .model(model);
    outcome.ifPresent(row::benchmarkOutcome);
    Topology t = identity.topology();
    double tput;
    double outputTput;
    double inputTput;
    if (t instanceof MultiNodeTopology m) {
      int all = m.totalGpus();
      int prefill = m.effectivePrefillGpus();
      int outputDenominator = m.decodeGpus() > 0 ? m.decodeGpus() : all;
      tput = total / all;
      outputTput = output / outputDenominator;
      inputTput = (total - output) / prefill;
    } else {
      int gpus = t.totalGpus();
      tput = total / gpus;
      outputTput = output / gpus;
      inputTput = (total - output) / gpus;
    }
    finite("tput_per_gpu", tput);
    finite("output_tput_per_gpu", outputTput);
    finite("input_tput_per_gpu", inputTput);
    server.get().ifPresent(row::server);
    return row.tputPerGpu(tput)
        .outputTputPerGpu(outputTput)
        .inputTputPerGpu(inputTput)
        .metrics(metrics.get())
        .build();
  }

  /** {@code infx.server} of a raw result, if present. */
  private static Optional<ServerProvenance> server(JsonNode raw) {
    JsonNode server = raw.path("infx").get("server");
    if (server == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ServerProvenance.fromJson(server)
          .orElseThrow(() -> new IllegalArgumentException("infx.server must be an object with a string 'engine'")));
    } catch (IllegalArgumentException e) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE, "raw key 'infx.server': " + e.getMessage());
    }
  }

  /** The converted metrics of a raw result, in raw-file order (the generic key rules). */
  Map<String, Double> metrics(JsonNode raw) {
    Map<String, Double> out = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = raw.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      if (key.endsWith("ms") || key.contains("tpot")) {
        applyKeyRules(out, key, metricValue(key, e.getValue()));
      }
    }
    return out;
  }

  /**
   * The reference's generic key rules for one raw key: {@code *ms} → {@code key.replace("_ms", "")}
   * in seconds; {@code *tpot*} → {@code intvty} = 1000 / value.
   */
  private void applyKeyRules(Map<String, Double> out, String key, double value) {
    boolean msRule = key.endsWith("ms");
    boolean tpotRule = key.contains("tpot");
    if (msRule) {
      String name = key.replace("_ms", "");
      if (Double.isFinite(value)) {
        out.put(name, value / 1000.0);
      } else if (!options.metricGuards()) {
        throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
            "raw key '" + key + "' is " + PythonJson.floatRepr(value)
                + "; a non-finite metric cannot be published as JSON");
      }
    }
    if (tpotRule) {
      String name = key.replace("_ms", "").replace("tpot", "intvty");
      if (options.metricGuards()) {
        if (Double.isFinite(value) && value > 0) {
          out.put(name, 1000.0 / value);
        }
      } else if (value == 0.0) {
        throw new ResultsException(ErrorKind.DIVISION_BY_ZERO,
            "raw key '" + key + "' is 0, so interactivity (1000 / TPOT) is undefined: "
                + "float division by zero (did every request fail, or report no output tokens?)");
      } else {
        double intvty = 1000.0 / value;
        if (!Double.isFinite(intvty)) {
          throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
              "raw key '" + key + "' is " + PythonJson.floatRepr(value)
                  + "; interactivity 1000 / TPOT is not finite");
        }
        out.put(name, intvty);
      }
    }
  }

  private static double metricValue(String key, JsonNode value) {
    PythonNumbers.Conversion<Double> c = PythonNumbers.toFloat(value);
    if (!c.ok()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "raw key '" + key + "' must be a number: " + c.problem());
    }
    return c.value().get();
  }

  /** {@code int(raw["max_concurrency"])}, refusing null, booleans and fractions. */
  static int concurrency(JsonNode raw) {
    requireObject(raw);
    JsonNode node = raw.get("max_concurrency");
    if (node == null) {
      throw missing("max_concurrency");
    }
    if (node.isBoolean()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "raw key 'max_concurrency' must be an integer, got a boolean");
    }
    PythonNumbers.Conversion<Integer> c = PythonNumbers.toInt(node);
    if (!c.ok()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "raw key 'max_concurrency' must be an integer"
              + (node.isNull() ? " (it is null: was the client run without --max-concurrency?)" : "")
              + ": " + c.problem());
    }
    return c.value().get();
  }

  /** {@code raw["model_id"]}, which must be a string. */
  static String model(JsonNode raw) {
    requireObject(raw);
    JsonNode node = raw.get("model_id");
    if (node == null) {
      throw missing("model_id");
    }
    if (!node.isTextual()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "raw key 'model_id' must be a string, got " + PythonNumbers.typeName(node));
    }
    return node.textValue();
  }

  private static double requiredFloat(JsonNode raw, String key) {
    JsonNode node = raw.get(key);
    if (node == null) {
      throw missing(key);
    }
    PythonNumbers.Conversion<Double> c = PythonNumbers.toFloat(node);
    if (!c.ok()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "raw key '" + key + "' must be a number: " + c.problem());
    }
    return c.value().get();
  }

  /** See {@link NormalizerOptions#requireOutputTokens()}. */
  private static void requireOutputTokens(JsonNode raw, double outputThroughput) {
    JsonNode tokens = raw.get("total_output_tokens");
    boolean none = tokens != null && tokens.isNumber()
        ? tokens.doubleValue() == 0
        : outputThroughput == 0;
    if (none) {
      String which = tokens != null && tokens.isNumber() ? "total_output_tokens is 0" : "output_throughput is 0";
      String completed = raw.path("completed").isNumber()
          ? " although " + raw.get("completed").asText() + " requests completed" : "";
      throw noOutputTokens(which, completed);
    }
  }

  private static ResultsException noOutputTokens(String which, String completed) {
    return new ResultsException(ErrorKind.INVALID_RAW_VALUE, "the raw result has no output "
        + "tokens (" + which + ")" + completed + ": the server generated nothing (or its tokens "
        + "were not counted), so there is no decode to measure and the result is rejected");
  }

  private static void finite(String key, double value) {
    if (!Double.isFinite(value)) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          key + " is " + PythonJson.floatRepr(value) + "; throughputs in the raw result must be finite");
    }
  }

  private BenchmarkOutcome checkedOutcome(JsonNode raw) {
    JsonNode stored = raw.get("benchmark_outcome");
    String mismatch = "Benchmark outcome does not match the recorded request counts and gate";
    if (!stored.isObject() || !stored.path("requested").isIntegralNumber()
        || !stored.path("completed").isIntegralNumber()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "Benchmark request counts must satisfy 0 <= completed <= requested > 0");
    }
    BenchmarkOutcome expected;
    try {
      expected = BenchmarkOutcome.of(stored.get("requested").intValue(),
          stored.get("completed").intValue());
    } catch (IllegalArgumentException e) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE, e.getMessage(), e);
    }
    JsonNode recomputed = expected.toJson();
    if (!sameOutcome(stored, recomputed)
        || (raw.has("completed") && !numericEquals(raw.get("completed"), expected.completed()))
        || (raw.has("num_prompts") && !numericEquals(raw.get("num_prompts"), expected.requested()))) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE, mismatch);
    }
    return expected;
  }

  private static boolean sameOutcome(JsonNode stored, JsonNode expected) {
    if (stored.size() != expected.size()) {
      return false;
    }
    Iterator<Map.Entry<String, JsonNode>> it = expected.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode s = stored.get(e.getKey());
      if (s == null) {
        return false;
      }
      JsonNode x = e.getValue();
      boolean equal = x.isNumber()
          ? s.isNumber() && !s.isBoolean() && s.doubleValue() == x.doubleValue()
          : s.equals(x);
      if (!equal) {
        return false;
      }
    }
    return true;
  }

  private static boolean numericEquals(JsonNode node, int value) {
    return node.isNumber() && node.doubleValue() == value;
  }

  private static void requireObject(JsonNode raw) {
    if (raw == null || !raw.isObject()) {
      throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
          "the raw result must be a JSON object, got " + PythonNumbers.typeName(raw));
    }
  }

  private static ResultsException missing(String key) {
    return new ResultsException(ErrorKind.MISSING_RAW_FIELD,
        "the raw result lacks the required key '" + key + "'");
  }
}
