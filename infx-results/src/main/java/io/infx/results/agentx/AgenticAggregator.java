package io.infx.results.agentx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.results.agentx.internal.FloatRounding;
import io.infx.results.agentx.internal.KvCapacityLogs;
import io.infx.results.agentx.internal.ProfileRecords;
import io.infx.results.agentx.internal.RequestMetrics;
import io.infx.results.agentx.internal.AgenticIdentity;
import io.infx.results.agentx.internal.ServerMetricsSection;
import io.infx.results.agentx.internal.TraceMetadata;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns the exports of one AgentX replay (AIPerf's, or infx's own, which have the same shape) into
 * the {@code bmk_agentic_*} aggregate of InferenceX (spec §4; conformance cases
 * {@code shared/conformance/agentx}, kinds {@code aggregate} and {@code aggregate-error}).
 *
 * <p>Inputs, as the reference reads them:
 * <ul>
 *   <li>{@code <resultDir>/aiperf_artifacts/profile_export.jsonl} (or the first sub-directory of
 *       {@code aiperf_artifacts} holding one) — per-request records, required;
 *   <li>{@code profile_export_aiperf.json} beside it — AIPerf's aggregate (theoretical cache hit,
 *       dataset provenance, validity stamp), optional;
 *   <li>{@code server_metrics_export.json} beside it — Prometheus scrape summary, optional;
 *   <li>{@code <resultDir>/server.log} and {@code watchtower-*.out} in {@code resultDir} and its
 *       three nearest parents — engine logs stating the KV capacity;
 *   <li>the run's identity from environment variables ({@code MODEL}, {@code FRAMEWORK}, {@code TP},
 *       {@code CONC}, {@code KV_OFFLOADING} …, spec §4.2) and the Hugging Face cache
 *       ({@code HF_HUB_CACHE} …) for the recorded output lengths.
 * </ul>
 *
 * <p>Beyond the reference: the run's validity stamp ({@code metadata.submission_valid} and its
 * reasons) is carried into the aggregate as {@code submission_valid} and
 * {@code submission_invalid_reasons}, after the reference keys, when the export has one.
 *
 * <p>Units in the result: latencies in seconds, interactivity in tokens/s per user (reciprocal of
 * the latency statistic), throughput in tokens/s and tokens/s/GPU, every float rounded half-even to
 * 5 decimals.
 */
public final class AgenticAggregator {

  private static final ErrorKind KIND = ErrorKind.AGENTIC_AGGREGATE;

  /** Lenient like Python's json: NaN/Infinity accepted, duplicate keys resolved to the last. */
  private static final ObjectMapper READER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private AgenticAggregator() {}

  /**
   * Aggregates with relative paths (result directory, {@code HF_HUB_CACHE}) taken against the
   * current directory.
   *
   * @see #aggregate(Path, Map, Path)
   */
  public static AgenticAggregate aggregate(Path resultDir, Map<String, String> env) {
    return aggregate(resultDir, env, Path.of(""));
  }

  /**
   * Builds the aggregate of the replay whose results are in {@code resultDir}.
   *
   * @param resultDir the run's result directory ({@code RESULT_DIR} of the reference)
   * @param env the run's environment (identity, GPU shape, offload settings, HF cache location)
   * @param workingDirectory what relative paths in {@code resultDir} and {@code env} are relative to
   * @throws InfxException kind {@code agentic-aggregate} when a required variable is unset or
   *     empty ({@code MODEL}, {@code FRAMEWORK}, {@code CONC}, {@code KV_OFFLOADING}, and {@code TP}
   *     on one node or {@code PREFILL_/DECODE_NUM_WORKERS}, {@code PREFILL_/DECODE_TP} on several;
   *     the message names each, e.g. {@code Missing required environment variables: MODEL, CONC} —
   *     stricter than the reference, which requires only {@code KV_OFFLOADING}), {@code CONC} is
   *     not a positive integer, the environment is otherwise inconsistent (the reference's
   *     messages), the records are missing or malformed, or server metrics come from an
   *     unsupported engine
   */
  public static AgenticAggregate aggregate(Path resultDir, Map<String, String> env, Path workingDirectory) {
    Objects.requireNonNull(env, "env");
    // the environment first: a missing variable is named before any file is read
    AgenticIdentity identity = new AgenticIdentity(env);
    AgenticIdentity.Head head = identity.head();
    Path dir = workingDirectory.resolve(resultDir);
    Path artifacts = artifactDir(dir);
    Path jsonl = artifacts.resolve("profile_export.jsonl");
    if (!Files.exists(jsonl)) {
      throw new InfxException(KIND, resultDir.resolve(dir.relativize(jsonl)) + " not found");
    }
    ProfileRecords records = ProfileRecords.load(jsonl, READER);
    Path aggregatePath = artifacts.resolve("profile_export_aiperf.json");
    JsonNode aiperf = Files.exists(aggregatePath) ? readJson(aggregatePath) : JsonNodeFactory.instance.objectNode();
    if (!aiperf.isObject()) {
      throw new InfxException(KIND, aggregatePath + ": the AIPerf aggregate must be a JSON object");
    }
    Path serverPath = artifacts.resolve("server_metrics_export.json");
    JsonNode server = Files.exists(serverPath) ? readJson(serverPath) : null;
    List<Path> logs = KvCapacityLogs.discover(dir);

    ObjectNode agg = head.fields();
    agg.put("num_requests_total", records.total());
    agg.put("num_requests_successful", records.kept().size());
    ObjectNode accounting = agg.putObject("request_accounting");
    accounting.put("records_total", records.total());
    accounting.put("records_profiled", records.kept().size());
    accounting.put("records_dropped_total", records.total() - records.kept().size());
    accounting.put("records_warmup_dropped", records.warmupDropped());
    accounting.put("records_error_dropped", records.errorDropped());
    ObjectNode categories = accounting.putObject("error_categories");
    records.errorCategories().forEach(categories::put);
    agg.setAll(head.shapeFields());
    agg.setAll(identity.tail());
    JsonNode dataset = aiperf.path("metadata").path("dataset");
    if (dataset.isObject()) {
      agg.set("dataset", dataset.deepCopy());
    }

    TraceMetadata traces = TraceMetadata.load(TraceMetadata.hubCache(env, workingDirectory), READER);
    RequestMetrics request = RequestMetrics.compute(
        records.kept(), aiperf, traces.expectedOutputs(records.kept()));
    ServerMetricsSection.Result serverMetrics =
        ServerMetricsSection.compute(server, identity.framework(), records.kept(), logs);
    RequestMetrics.Throughput tput = request.throughput();
    if (tput != null && head.numGpus() > 0) {
      ObjectNode perGpu = (ObjectNode) request.json().path("throughput").path("per_gpu");
      perGpu.put("total_tput_tps", tput.totalTps() / head.numGpus());
      perGpu.put("output_tput_tps", tput.outputTps() / head.numGpus());
      perGpu.put("input_tput_tps", tput.inputTps() / head.numGpus());
    }
    agg.set("request_metrics", request.json());
    agg.set("server_metrics", serverMetrics.json());
    agg.set("kv_cache_pool_tokens", serverMetrics.json().path("kv_cache").path("gpu_total_tokens"));
    if (!serverMetrics.warnings().isEmpty()) {
      agg.set("warnings", JsonNodeFactory.instance.arrayNode().addAll(
          serverMetrics.warnings().stream().map(JsonNodeFactory.instance::textNode).toList()));
    }
    carrySubmissionValidity(aiperf, aggregatePath, agg);
    FloatRounding.roundFloats(agg);
    return new AgenticAggregate(agg);
  }

  /**
   * Appends the replay's validity stamp ({@code metadata.submission_valid} and
   * {@code submission_invalid_reasons} of the AIPerf aggregate, spec §1.8) after every reference
   * key, so a short, overridden, cancelled or stalled run cannot pass for a submission once
   * aggregated. The reference drops the stamp; an export without one (no scenario) adds nothing.
   */
  private static void carrySubmissionValidity(JsonNode aiperf, Path aggregatePath, ObjectNode agg) {
    JsonNode metadata = aiperf.path("metadata");
    JsonNode valid = metadata.get("submission_valid");
    if (valid == null || valid.isNull()) {
      return;
    }
    if (!valid.isBoolean()) {
      throw new InfxException(KIND, aggregatePath + ": metadata.submission_valid must be true or false, got " + valid);
    }
    agg.put("submission_valid", valid.booleanValue());
    var reasons = agg.putArray("submission_invalid_reasons");
    JsonNode given = metadata.path("submission_invalid_reasons");
    if (given.isArray()) {
      given.forEach(r -> reasons.add(r.isTextual() ? r.textValue() : r.toString()));
    }
  }

  /** {@code aiperf_artifacts}, or its first sub-directory (by name) holding the records. */
  static Path artifactDir(Path resultDir) {
    Path base = resultDir.resolve("aiperf_artifacts");
    if (Files.isRegularFile(base.resolve("profile_export.jsonl"))) {
      return base;
    }
    if (Files.isDirectory(base)) {
      List<Path> children = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(base)) {
        ds.forEach(children::add);
      } catch (IOException e) {
        return base;
      }
      children.sort(Comparator.comparing(p -> p.getFileName().toString()));
      for (Path child : children) {
        if (Files.isDirectory(child) && Files.isRegularFile(child.resolve("profile_export.jsonl"))) {
          return child;
        }
      }
    }
    return base;
  }

  private static JsonNode readJson(Path file) {
    try {
      JsonNode n = READER.readTree(file.toFile());
      return n == null ? JsonNodeFactory.instance.nullNode() : n;
    } catch (JsonProcessingException e) {
      var loc = e.getLocation();
      String where = loc == null ? "" : ":" + loc.getLineNr() + ":" + loc.getColumnNr();
      throw new InfxException(KIND, file + where + ": invalid JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }
}
