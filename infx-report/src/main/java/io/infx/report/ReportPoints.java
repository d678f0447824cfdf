package io.infx.report;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import io.infx.report.internal.RowReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Report points read from aggregate rows: the fixed-sequence rows of
 * {@code utils/process_result.py} ({@code tput_per_gpu}, {@code median_intvty}, {@code *_ttft} in
 * seconds …) and the AgentX rows of the agentic aggregate ({@code request_metrics.throughput.per_gpu},
 * {@code request_metrics.latency.*}), as collected into {@code agg_bmk.json}.
 *
 * <p>Rows that cannot be plotted (no concurrency, no per-GPU throughput, not an object) are kept
 * in {@link #skipped()} with the reason, never dropped silently.
 *
 * @param points plottable points, in input order
 * @param skipped rows that were not plotted, with the reason
 */
public record ReportPoints(List<ReportPoint> points, List<ReportProblem> skipped) {

  public ReportPoints {
    points = List.copyOf(points);
    skipped = List.copyOf(skipped);
  }

  /**
   * Points from one aggregate row, an array of rows, or a collected {@code agg_bmk.json} array
   * (where a file that held a list is one nested array element; nested arrays are flattened).
   * Sources are named {@code row N} (1-based, in flattened order).
   */
  public static ReportPoints fromAggregates(JsonNode rows) {
    List<JsonNode> flat = new ArrayList<>();
    flatten(rows, flat);
    List<String> sources = new ArrayList<>();
    for (int i = 0; i < flat.size(); i++) {
      sources.add("row " + (i + 1));
    }
    return RowReader.points(flat, sources);
  }

  /**
   * Reads a JSON file of aggregate rows (e.g. {@code results_bmk/agg_bmk.json} or one
   * {@code agg_<RESULT_FILENAME>.json}).
   *
   * @throws InfxException kind {@code file} when the file is missing, unreadable or not JSON
   */
  public static ReportPoints read(Path file) {
    JsonNode node;
    try {
      node = Json.mapper().readTree(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      throw new InfxException(ErrorKind.FILE, "aggregate file not found: " + file, e);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      String where = e.getLocation() == null ? ""
          : ":" + e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr();
      // Jackson's "start marker at [Source: REDACTED …; line: 1, …]" without the source part
      String why = e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[");
      throw new InfxException(ErrorKind.FILE, file + where + ": not valid JSON: " + why, e);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
    if (node == null || node.isMissingNode()) {
      throw new InfxException(ErrorKind.FILE, file + ": the file is empty (expected aggregate rows)");
    }
    return fromAggregates(node);
  }

  private static void flatten(JsonNode node, List<JsonNode> out) {
    if (node.isArray()) {
      node.forEach(n -> flatten(n, out));
    } else {
      out.add(node);
    }
  }
}
