package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Success rate of a run: the benchmark points its matrix planned versus the aggregate rows it
 * produced, per runner label. The reference ({@code utils/calc_success_rate.py}) counts GitHub
 * Actions jobs through the hosted API; infx counts planned points from the matrix JSON (one per
 * concurrency, eval-only rows excluded) and matches them to result rows by identity, so it works
 * offline and on any fleet. Output has the reference's shape: {@code {hw: {n_success, total}}}.
 */
public final class SuccessRate {

  /** One planned benchmark point. */
  public record Point(String hw, String key, String label) {}

  /** Per runner label: points with a result / points planned. */
  public record Tally(int nSuccess, int total) {
    public double rate() {
      return total == 0 ? 0.0 : 100.0 * nSuccess / total;
    }
  }

  /** The result of a success-rate count. */
  public record Report(Map<String, Tally> byHardware, List<Point> missing, List<String> unexpected) {

    /** {@code {hw: {"n_success": n, "total": t}}}, hardware labels sorted. */
    public ObjectNode toJson() {
      ObjectNode o = Json.mapper().createObjectNode();
      byHardware.forEach((hw, s) -> {
        ObjectNode e = o.putObject(hw);
        e.put("n_success", s.nSuccess());
        e.put("total", s.total());
      });
      return o;
    }

    /** JSON text as written to {@code run_stats.json}. */
    public String toJsonText() {
      return PythonJson.dumps(toJson(), 2);
    }

    /** A Markdown table with the rate in percent, then the missing points. */
    public String toMarkdown() {
      StringBuilder sb = new StringBuilder("| hardware | succeeded | planned | rate |\n|---|---:|---:|---:|\n");
      byHardware.forEach((hw, s) -> sb.append("| ").append(hw).append(" | ").append(s.nSuccess())
          .append(" | ").append(s.total()).append(" | ")
          .append(String.format(Locale.ROOT, "%.1f%%", s.rate())).append(" |\n"));
      if (!missing.isEmpty()) {
        sb.append("\nMissing results:\n\n");
        missing.forEach(p -> sb.append("- ").append(p.hw()).append(": ").append(p.label()).append('\n'));
      }
      if (!unexpected.isEmpty()) {
        sb.append("\nResults the matrix did not plan:\n\n");
        unexpected.forEach(u -> sb.append("- ").append(u).append('\n'));
      }
      return sb.toString();
    }
  }

  private SuccessRate() {}

  /**
   * Counts planned vs produced points.
   *
   * @param matrix the matrix JSON: the generator's array of rows, or an object whose buckets hold
   *     rows (e.g. {@code single_node → 1k1k → [rows]})
   * @param resultRows aggregate rows found in the run (fixed-sequence or AgentX)
   */
  public static Report count(JsonNode matrix, List<JsonNode> resultRows) {
    List<Point> planned = new ArrayList<>();
    for (JsonNode row : rows(matrix)) {
      planned.addAll(points(row));
    }
    Map<String, Integer> produced = new LinkedHashMap<>();
    Map<String, String> producedLabel = new LinkedHashMap<>();
    for (JsonNode r : resultRows) {
      String k = resultKey(r);
      if (k != null) {
        produced.merge(k, 1, Integer::sum);
        producedLabel.putIfAbsent(k, r.path("hw").asText() + ": " + k);
      }
    }
    Map<String, int[]> counts = new TreeMap<>();
    List<Point> missing = new ArrayList<>();
    Set<String> plannedKeys = new LinkedHashSet<>();
    for (Point p : planned) {
      int[] c = counts.computeIfAbsent(p.hw(), x -> new int[2]);
      c[1]++;
      plannedKeys.add(p.key());
      if (produced.containsKey(p.key())) {
        c[0]++;
      } else {
        missing.add(p);
      }
    }
    Map<String, Tally> stats = new LinkedHashMap<>();
    counts.forEach((hw, c) -> stats.put(hw, new Tally(c[0], c[1])));
    List<String> unexpected = producedLabel.entrySet().stream()
        .filter(e -> !plannedKeys.contains(e.getKey())).map(Map.Entry::getValue)
        .collect(Collectors.toList());
    return new Report(stats, missing, unexpected);
  }

  /**
   * Counts a run directory: the matrix file plus every JSON row below {@code runDir} (files
   * holding arrays, such as {@code agg_bmk.json}, contribute each element; raw results and power
   * sidecars are not rows and are ignored).
   */
  public static Report count(Path runDir, Path matrixFile) {
    JsonNode matrix = read(matrixFile);
    List<JsonNode> rows = new ArrayList<>();
    Path matrixAbs = matrixFile.toAbsolutePath().normalize();
    List<Path> files;
    try (Stream<Path> s = Files.walk(runDir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".json")).filter(Files::isRegularFile)
          .filter(p -> !p.toAbsolutePath().normalize().equals(matrixAbs)).sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot list " + runDir + ": " + e.getMessage(), e);
    }
    // A collected agg_bmk.json repeats the per-job files' rows; counting a point twice is harmless
    // because only presence matters.
    for (Path f : files) {
      JsonNode n;
      try {
        n = Json.mapper().readTree(f.toFile());
      } catch (IOException e) {
        continue; // not JSON (or a partial upload): it produced no row
      }
      if (n == null) {
        continue;
      }
      if (n.isArray()) {
        n.forEach(rows::add);
      } else {
        rows.add(n);
      }
    }
    return count(matrix, rows);
  }

  private static JsonNode read(Path file) {
    try {
      return Json.mapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read the matrix " + file + ": " + e.getMessage(), e);
    }
  }

  /** Matrix rows: array elements, or every object with a {@code runner} key inside buckets. */
  static List<JsonNode> rows(JsonNode matrix) {
    List<JsonNode> out = new ArrayList<>();
    if (matrix == null) {
      return out;
    }
    if (matrix.isObject() && matrix.has("runner")) {
      out.add(matrix);
    } else if (matrix.isArray() || matrix.isObject()) {
      matrix.fields().forEachRemaining(e -> {
        if (!e.getKey().equals("changelog_metadata")) {
          out.addAll(rows(e.getValue()));
        }
      });
      if (matrix.isArray()) {
        matrix.forEach(r -> out.addAll(rows(r)));
      }
    }
    return out;
  }

  /** The points a matrix row plans (none for eval-only rows). */
  static List<Point> points(JsonNode row) {
    if (row.path("eval-only").asBoolean(false)) {
      return List.of();
    }
    List<Integer> concs = new ArrayList<>();
    JsonNode conc = row.get("conc");
    if (conc != null && conc.isArray()) {
      conc.forEach(c -> concs.add(c.asInt()));
    } else if (conc != null) {
      concs.add(conc.asInt());
    }
    List<Point> out = new ArrayList<>();
    for (int c : concs) {
      String key = plannedKey(row, c);
      out.add(new Point(row.path("runner").asText(), key, key));
    }
    return out;
  }

  private static String plannedKey(JsonNode row, int conc) {
    List<String> parts = new ArrayList<>(List.of(
        row.path("runner").asText(), row.path("model-prefix").asText(), row.path("framework").asText(),
        row.path("precision").asText(), row.path("spec-decoding").asText("none")));
    if (row.has("scenario-type")) {
      parts.add("scenario=" + row.path("scenario-type").asText());
    } else {
      parts.add(row.path("isl").asText() + "/" + row.path("osl").asText());
    }
    if (row.has("prefill")) {
      parts.add(role("P", row.get("prefill"), true));
      JsonNode d = row.get("decode");
      parts.add(role("D", d, d.path("num-worker").asInt() > 0));
    } else {
      parts.add("tp" + row.path("tp").asInt() + "-pp" + row.path("pp").asInt(1) + "-dcp"
          + row.path("dcp-size").asInt(1) + "-pcp" + row.path("pcp-size").asInt(1) + "-ep"
          + row.path("ep").asInt() + "-dpa" + row.path("dp-attn").asBoolean());
    }
    parts.add("conc" + conc);
    return String.join(" ", parts);
  }

  private static String role(String name, JsonNode w, boolean withSizes) {
    String s = name + w.path("num-worker").asInt() + "x";
    if (withSizes) {
      s += "tp" + w.path("tp").asInt() + "-pp" + w.path("pp").asInt(1) + "-dcp"
          + w.path("dcp-size").asInt(1) + "-pcp" + w.path("pcp-size").asInt(1) + "-ep"
          + w.path("ep").asInt() + "-dpa" + w.path("dp-attn").asBoolean();
    }
    return s;
  }

  /** The same key, built from a produced aggregate row; null for anything that is not a row. */
  static String resultKey(JsonNode r) {
    if (r == null || !r.isObject() || !r.has("hw") || !r.has("conc")) {
      return null;
    }
    List<String> parts = new ArrayList<>(List.of(
        r.path("hw").asText(), r.path("infmax_model_prefix").asText(), r.path("framework").asText(),
        r.path("precision").asText(), r.path("spec_decoding").asText("none")));
    if (r.has("scenario_type")) {
      parts.add("scenario=" + r.path("scenario_type").asText());
    } else {
      parts.add(r.path("isl").asText() + "/" + r.path("osl").asText());
    }
    if (r.path("is_multinode").asBoolean(false)) {
      parts.add("P" + r.path("prefill_num_workers").asInt() + "x" + sizes(r, "prefill_"));
      int decodeWorkers = r.path("decode_num_workers").asInt();
      parts.add("D" + decodeWorkers + "x" + (decodeWorkers > 0 ? sizes(r, "decode_") : ""));
    } else {
      parts.add("tp" + r.path("tp").asInt() + "-pp" + r.path("pp").asInt(1) + "-dcp"
          + r.path("dcp_size").asInt(1) + "-pcp" + r.path("pcp_size").asInt(1) + "-ep"
          + r.path("ep").asInt() + "-dpa" + ReferenceEnvironment.isTrue(r.path("dp_attention").asText()));
    }
    parts.add("conc" + r.path("conc").asInt());
    return String.join(" ", parts);
  }

  private static String sizes(JsonNode r, String p) {
    return "tp" + r.path(p + "tp").asInt() + "-pp" + r.path(p + "pp").asInt(1) + "-dcp"
        + r.path(p + "dcp_size").asInt(1) + "-pcp" + r.path(p + "pcp_size").asInt(1) + "-ep"
        + r.path(p + "ep").asInt() + "-dpa" + ReferenceEnvironment.isTrue(r.path(p + "dp_attention").asText());
  }
}
