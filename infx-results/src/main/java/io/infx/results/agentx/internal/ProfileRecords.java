package io.infx.results.agentx.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-request records of an AIPerf {@code profile_export.jsonl}, read with the reference's
 * accounting rules (spec §3.2): a record is warmup when {@code metadata.benchmark_phase} is present
 * and not {@code "profiling"}; an error when its {@code error} is truthy (so {@code {}} and
 * {@code ""} are successes); only records that are neither are kept for metrics.
 *
 * <p>Only the fields the aggregate needs are retained per kept record, so a file of hundreds of
 * thousands of records is read in one streaming pass with little memory.
 */
public final class ProfileRecords {

  /** The values of one kept record; {@code null} where the record lacks a usable value. */
  public record Kept(
      String conversationId,
      Long turnIndex,
      boolean hasStart,
      long startNs,
      boolean hasEnd,
      long endNs,
      Double ttftMs,
      Double latencyMs,
      Double itlMs,
      Double fullResponseItlMs,
      Long inputTokens,
      Long outputTokens,
      Double outputTokensFloat) {}

  private final List<Kept> kept;
  private final long total;
  private final long warmupDropped;
  private final long errorDropped;
  private final Map<String, Long> errorCategories;

  private ProfileRecords(
      List<Kept> kept, long total, long warmupDropped, long errorDropped, Map<String, Long> categories) {
    this.kept = Collections.unmodifiableList(kept);
    this.total = total;
    this.warmupDropped = warmupDropped;
    this.errorDropped = errorDropped;
    this.errorCategories = Collections.unmodifiableMap(categories);
  }

  /**
   * Reads {@code jsonl}; blank lines are skipped, every other line is one record.
   *
   * @throws InfxException kind {@code agentic-aggregate} naming file, line and column when a line
   *     is not a JSON object, kind {@code file} when the file cannot be read
   */
  public static ProfileRecords load(Path jsonl, ObjectMapper mapper) {
    List<Kept> kept = new ArrayList<>();
    long total = 0;
    long warmup = 0;
    long errors = 0;
    Map<String, Long> categories = new LinkedHashMap<>();
    try (BufferedReader in = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
      String line;
      int lineNo = 0;
      while ((line = in.readLine()) != null) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode obj;
        try {
          obj = mapper.readTree(line);
        } catch (JsonProcessingException e) {
          int col = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getColumnNr());
          throw new InfxException(ErrorKind.AGENTIC_AGGREGATE,
              jsonl + ":" + lineNo + ":" + col + ": invalid JSON record: " + e.getOriginalMessage());
        }
        if (obj == null || !obj.isObject()) {
          throw new InfxException(ErrorKind.AGENTIC_AGGREGATE,
              jsonl + ":" + lineNo + ":1: a record must be a JSON object");
        }
        total++;
        JsonNode metadata = obj.get("metadata");
        JsonNode phase = JsonValues.member(metadata, "benchmark_phase");
        boolean isWarmup = phase != null && !phase.isNull()
            && !(phase.isTextual() && phase.textValue().equals("profiling"));
        JsonNode error = obj.get("error");
        boolean isError = JsonValues.truthy(error);
        if (isWarmup) {
          warmup++;
        }
        if (isError) {
          errors++;
          categories.merge(ErrorCategory.of(error), 1L, Long::sum);
        }
        if (!isWarmup && !isError) {
          kept.add(keep(metadata, obj.get("metrics")));
        }
      }
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + jsonl + ": " + e.getMessage(), e);
    }
    return new ProfileRecords(kept, total, warmup, errors, categories);
  }

  private static Kept keep(JsonNode metadata, JsonNode metrics) {
    JsonNode conv = JsonValues.member(metadata, "conversation_id");
    JsonNode turn = JsonValues.member(metadata, "turn_index");
    JsonNode start = JsonValues.member(metadata, "request_start_ns");
    JsonNode end = JsonValues.member(metadata, "request_end_ns");
    Long startNs = JsonValues.truthy(start) ? JsonValues.toInt(start) : null;
    Long endNs = JsonValues.truthy(end) ? JsonValues.toInt(end) : null;
    JsonNode osl = metric(metrics, "output_sequence_length");
    return new Kept(
        conv != null && conv.isTextual() ? conv.textValue() : null,
        turn != null && turn.isIntegralNumber() && turn.canConvertToLong() ? turn.longValue() : null,
        startNs != null,
        startNs == null ? 0 : startNs,
        endNs != null,
        endNs == null ? 0 : endNs,
        JsonValues.toFloat(metric(metrics, "time_to_first_token")),
        JsonValues.toFloat(metric(metrics, "request_latency")),
        JsonValues.toFloat(metric(metrics, "inter_token_latency")),
        JsonValues.toFloat(metric(metrics, "full_response_inter_token_latency")),
        JsonValues.toInt(metric(metrics, "input_sequence_length")),
        JsonValues.toInt(osl),
        JsonValues.toFloat(osl));
  }

  private static JsonNode metric(JsonNode metrics, String key) {
    return JsonValues.metricValue(JsonValues.member(metrics, key));
  }

  /** Records kept for metrics (profiling phase, no error), in file order. */
  public List<Kept> kept() {
    return kept;
  }

  /** Every non-blank line. */
  public long total() {
    return total;
  }

  public long warmupDropped() {
    return warmupDropped;
  }

  public long errorDropped() {
    return errorDropped;
  }

  /** Error category → count, in order of first appearance. */
  public Map<String, Long> errorCategories() {
    return errorCategories;
  }
}
