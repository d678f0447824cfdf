package io.infx.results;

import static io.infx.results.NormalizerTest.assertKind;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.json.Json;
import io.infx.results.power.PowerSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File-level normalization: classified errors, nothing half-written, power stage and sidecar. */
class ResultProcessorTest {

  private static final String RF = "dsr1_1k1k_fp8_vllm_tp2-conc4_h200-cw_00";

  @TempDir Path dir;

  static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("RUNNER_TYPE", "h200");
    env.put("FRAMEWORK", "vllm");
    env.put("PRECISION", "fp8");
    env.put("SPEC_DECODING", "none");
    env.put("RESULT_FILENAME", RF);
    env.put("ISL", "1024");
    env.put("OSL", "1024");
    env.put("DISAGG", "false");
    env.put("MODEL_PREFIX", "dsr1");
    env.put("IMAGE", "vllm/vllm-openai:v0.27.1");
    env.put("TP", "2");
    env.put("EP_SIZE", "1");
    env.put("DP_ATTENTION", "false");
    return env;
  }

  static String raw(double start, double end) {
    return "{\"model_id\": \"m\", \"max_concurrency\": 4, \"duration\": " + (end - start)
        + ", \"benchmark_start_time_unix\": " + start + ", \"benchmark_end_time_unix\": " + end
        + ", \"completed\": 10, \"total_input_tokens\": 1000, \"total_output_tokens\": 2000,"
        + " \"total_token_throughput\": 300.0, \"output_throughput\": 200.0,"
        + " \"mean_ttft_ms\": 50.0, \"mean_tpot_ms\": 10.0}";
  }

  private Set<String> files() throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  private void writeRaw(String text) throws IOException {
    Files.writeString(dir.resolve(RF + ".json"), text);
  }

  @Test
  void writesTheAggregateAndPowerSidecarAndReturnsWhatItPrints() throws IOException {
    writeRaw(raw(1000.0, 1010.0));
    ProcessedResult r = ResultProcessor.processEnvironment(env(), dir);
    assertThat(files()).containsExactlyInAnyOrder(RF + ".json", "agg_" + RF + ".json",
        "power_validation_" + RF + ".json");
    assertThat(Files.readString(dir.resolve("agg_" + RF + ".json"))).isEqualTo(r.aggregateText());
    JsonNode agg = Json.mapper().readTree(r.aggregateText());
    assertThat(agg.get("tput_per_gpu").doubleValue()).isEqualTo(150.0);
    assertThat(agg.get("power_metric_schema_version").intValue()).isEqualTo(2);
    assertThat(agg.get("power_valid").intValue()).isZero();
    JsonNode sidecar = Json.mapper().readTree(dir.resolve("power_validation_" + RF + ".json").toFile());
    assertThat(sidecar.get("reasons").get(0).textValue()).isEqualTo("telemetry_file_missing");
    assertThat(sidecar.get("expected_gpu_count").intValue()).isEqualTo(2);
  }

  @Test
  void missingTruncatedEmptyOrDuplicateKeyedRawFilesAreClassifiedAndWriteNothing() throws IOException {
    assertKind(() -> ResultProcessor.processEnvironment(env(), dir),
        ErrorKind.RAW_FILE_MISSING, RF + ".json");
    writeRaw("{\"model_id\": \"m\", \"max_concurrency\": 4, \"total_token");
    assertKind(() -> ResultProcessor.processEnvironment(env(), dir),
        ErrorKind.INVALID_RAW_JSON, ".json:1:");
    writeRaw("");
    assertKind(() -> ResultProcessor.processEnvironment(env(), dir),
        ErrorKind.INVALID_RAW_JSON, "empty");
    writeRaw("{\"model_id\": \"m\", \"model_id\": \"n\"}");
    assertKind(() -> ResultProcessor.processEnvironment(env(), dir),
        ErrorKind.INVALID_RAW_JSON, "Duplicate");
    writeRaw("{} {}");
    assertKind(() -> ResultProcessor.processEnvironment(env(), dir),
        ErrorKind.INVALID_RAW_JSON, "not valid JSON");
    assertThat(files()).containsExactly(RF + ".json");
  }

  @Test
  void missingEnvironmentListsEveryBaseVariableInReferenceOrder() {
    assertKind(() -> ResultProcessor.processEnvironment(Map.of(), dir), ErrorKind.MISSING_ENV,
        "Missing required environment variables: RUNNER_TYPE, FRAMEWORK, PRECISION, "
            + "SPEC_DECODING, RESULT_FILENAME, ISL, OSL, DISAGG, MODEL_PREFIX, IMAGE");
    Map<String, String> env = env();
    env.remove("EP_SIZE");
    env.remove("DP_ATTENTION");
    assertKind(() -> {
      writeRaw(raw(1, 2));
      ResultProcessor.processEnvironment(env, dir);
    }, ErrorKind.MISSING_ENV, "Missing required environment variables: EP_SIZE, DP_ATTENTION");
  }

  @Test
  void errorsSurfaceInTheReferenceOrder() throws IOException {
    // null concurrency is read before ISL is parsed, as in the reference
    writeRaw("{\"model_id\": \"m\", \"max_concurrency\": null}");
    Map<String, String> env = env();
    env.put("ISL", "");
    assertKind(() -> ResultProcessor.processEnvironment(env, dir),
        ErrorKind.INVALID_RAW_VALUE, "max_concurrency");
    writeRaw(raw(1, 2));
    assertKind(() -> ResultProcessor.processEnvironment(env, dir),
        ErrorKind.INVALID_ENV_VALUE, "ISL");
    env.put("ISL", "1024");
    env.put("TP", "eight");
    assertKind(() -> ResultProcessor.processEnvironment(env, dir),
        ErrorKind.INVALID_ENV_VALUE, "invalid literal for int() with base 10: 'eight'");
    env.put("TP", "8");
    env.put("ROUTER_METADATA", "{\"name\": \"r\", \"version\": \"1\", \"extra\": 1}");
    assertKind(() -> ResultProcessor.processEnvironment(env, dir),
        ErrorKind.INVALID_COMPONENT_METADATA, "exactly 'name' and 'version'");
    env.put("RESULT_FILENAME", "../escape");
    assertKind(() -> ResultProcessor.processEnvironment(env, dir),
        ErrorKind.INVALID_ENV_VALUE, "plain file name");
  }

  @Test
  void aFailedRunLeavesAPreviousAggregateUntouched() throws IOException {
    Path agg = dir.resolve("agg_" + RF + ".json");
    Files.writeString(agg, "previous");
    writeRaw("{\"model_id\": \"m\", \"max_concurrency\": 4, \"total_token_throughput\": 1,"
        + " \"output_throughput\": 1, \"mean_tpot_ms\": 0}");
    assertKind(() -> ResultProcessor.processEnvironment(env(), dir),
        ErrorKind.DIVISION_BY_ZERO, "division by zero");
    assertThat(Files.readString(agg)).isEqualTo("previous");
    assertThat(files()).containsExactlyInAnyOrder(RF + ".json", "agg_" + RF + ".json");
  }

  @Test
  void requirePowerFailsAfterWritingTheAggregate() throws IOException {
    writeRaw(raw(1000.0, 1010.0));
    Map<String, String> env = env();
    env.put("REQUIRE_POWER", "yes");
    PowerRequiredException e = catchThrowableOfType(PowerRequiredException.class,
        () -> ResultProcessor.processEnvironment(env, dir));
    assertThat(e).isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.POWER_REQUIRED);
    assertThat(e.getMessage()).contains("Power validation failed").contains("telemetry_file_missing");
    assertThat(e.result().aggregateFile()).exists();
    assertThat(e.result().row().power().orElseThrow().valid()).isFalse();
  }

  /** Two GPUs at constant 100 W and 200 W, sampled every second around a 10 s window. */
  @Test
  void integratesSingleNodeTelemetryOverTheBenchmarkWindow() throws IOException {
    StringBuilder csv = new StringBuilder("timestamp, index, power.draw [W], power.limit [W]\n");
    for (int t = 995; t <= 1015; t++) {
      csv.append(t).append(", 0, 100.00 W, 700.00 W\n");
      csv.append(t).append(", 1, 200.00 W, 700.00 W\n");
    }
    Files.writeString(dir.resolve("gpu_metrics.csv"), csv.toString(), StandardCharsets.UTF_8);
    writeRaw(raw(1000.0, 1010.0));
    Map<String, String> env = env();
    env.put("REQUIRE_POWER", "1");
    AggregateRow row = ResultProcessor.processEnvironment(env, dir).row();
    PowerFields p = row.power().orElseThrow();
    assertThat(p.valid()).isTrue();
    // 10 s × (100 W + 200 W) = 3000 J; 300 W in all, 150 W per GPU
    assertThat(p.metrics()).containsEntry("total_gpu_energy_j", 3000.0)
        .containsEntry("avg_total_gpu_power_w", 300.0)
        .containsEntry("avg_power_w", 150.0)
        .containsEntry("joules_per_successful_query", 300.0)
        .containsEntry("joules_per_input_token", 3.0)
        .containsEntry("joules_per_output_token", 1.5)
        .containsEntry("joules_per_total_token", 1.0);
    assertThat(p.metrics().keySet()).containsExactlyElementsOf(PowerFields.METRIC_KEYS);
  }

  /** Power rising linearly (P = t − 900 W): trapezoids with interpolated edges are exact. */
  @Test
  void interpolatesPowerAtTheWindowEdges() throws IOException {
    StringBuilder csv = new StringBuilder("time,gpu,power\n");
    for (int t = 995; t <= 1015; t++) {
      csv.append(t).append(",0,").append(t - 900).append('\n');
    }
    Files.writeString(dir.resolve("telemetry.csv"), csv.toString());
    writeRaw(raw(1000.5, 1009.5));
    Map<String, String> env = env();
    env.put("TP", "1");
    env.put("GPU_METRICS_CSV", "telemetry.csv");
    PowerFields p = ResultProcessor.processEnvironment(env, dir).row().power().orElseThrow();
    // ∫ (t − 900) dt from 1000.5 to 1009.5 = (109.5² − 100.5²) / 2 = 945 J
    assertThat(p.metrics().get("total_gpu_energy_j")).isEqualTo(945.0);
    assertThat(p.metrics().get("avg_power_w")).isEqualTo(105.0);
  }

  @Test
  void sparseTelemetryIsInvalidWithItsReasonInTheSidecar() throws IOException {
    StringBuilder csv = new StringBuilder("timestamp,index,power.draw [W]\n");
    for (int t = 990; t <= 1020; t += 5) {
      csv.append(t).append(",0,100\n").append(t).append(",1,100\n");
    }
    Files.writeString(dir.resolve("gpu_metrics.csv"), csv.toString());
    writeRaw(raw(1000.0, 1010.0));
    ProcessedResult r = ResultProcessor.processEnvironment(env(), dir);
    assertThat(r.row().power().orElseThrow().valid()).isFalse();
    assertThat(r.power().orElseThrow().validation().reasons()).containsExactly("sampling_gap_exceeded");
  }

  @Test
  void typedRequestNeedsNoEnvironment() throws IOException {
    writeRaw(raw(1000.0, 1010.0));
    ProcessedResult r = ResultProcessor.process(ProcessRequest.builder()
        .workDir(dir)
        .resultFilename(RF)
        .identity(NormalizerTest.singleNode(2, 1, 1))
        .options(NormalizerOptions.reference().withPowerFields(NormalizerOptions.PowerFieldsMode.NONE))
        .power(PowerSettings.defaults())
        .build());
    assertThat(r.row().power()).isEmpty();
    assertThat(r.power()).isEmpty();
    assertThat(files()).containsExactlyInAnyOrder(RF + ".json", "agg_" + RF + ".json");
    assertThat(Json.mapper().readTree(r.aggregateText()).has("power_valid")).isFalse();
    assertThat(List.of(r.exitCode())).containsExactly(0);
  }

  @Test
  void emptyIdentityValuesPassAsInTheReferenceButAreReported() throws IOException {
    writeRaw(raw(1000.0, 1010.0));
    Map<String, String> env = env();
    env.put("IMAGE", "");
    env.put("FRAMEWORK", "");
    ProcessedResult r = ResultProcessor.processEnvironment(env, dir);
    assertThat(Json.mapper().readTree(r.aggregateText()).get("image").textValue()).isEmpty();
    assertThat(r.warnings()).containsExactly(
        "FRAMEWORK is empty; the aggregate publishes an empty identity value",
        "IMAGE is empty; the aggregate publishes an empty identity value");
  }
}
