package io.infx.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/** Builds InferenceX-shaped artifact directories for store tests. */
final class Fixtures {

  private Fixtures() {}

  static final JsonNodeFactory F = JsonNodeFactory.instance;

  /** A v1 single-node aggregate row, as infx's collector and InferenceX's process_result write it. */
  static ObjectNode row(String hw, String framework, int conc, double tputPerGpu, String image) {
    ObjectNode o = F.objectNode();
    o.put("hw", hw + "-nv").put("conc", conc).put("image", image).put("model", "deepseek-ai/DeepSeek-R1-0528")
        .put("infmax_model_prefix", "dsr1").put("framework", framework).put("precision", "fp8")
        .put("spec_decoding", "none").put("disagg", false).put("isl", 1024).put("osl", 1024)
        .put("is_multinode", false).put("tp", 8).put("ep", 1).put("dp_attention", false)
        .put("tput_per_gpu", tputPerGpu).put("output_tput_per_gpu", tputPerGpu / 2).put("input_tput_per_gpu", tputPerGpu / 2)
        .put("median_ttft", 0.25).put("p99_ttft", 0.9).put("median_tpot", 0.02).put("median_e2el", 20.5)
        .put("median_intvty", 50.0).put("median_itl", 0.02);
    return o;
  }

  /** A run directory: per-point bmk_* artifacts plus the same rows again in results_bmk/agg_bmk.json. */
  static Path artifactDir(Path dir, LocalDate date, boolean appendOnly, List<ObjectNode> rows) throws IOException {
    Files.createDirectories(dir);
    ArrayNode all = F.arrayNode();
    for (ObjectNode r : rows) {
      String name = "dsr1_1k1k_" + r.get("hw").asText() + "_" + r.get("framework").asText() + "_conc" + r.get("conc").asInt();
      Path bmk = dir.resolve("bmk_" + name);
      Files.createDirectories(bmk);
      Files.writeString(bmk.resolve("agg_" + name + ".json"), Json.pretty().writeValueAsString(r));
      all.add(r);
    }
    Path results = dir.resolve("results_bmk");
    Files.createDirectories(results);
    Files.writeString(results.resolve("agg_bmk.json"), Json.pretty().writeValueAsString(all));
    Path stats = dir.resolve("run-stats");
    Files.createDirectories(stats);
    ObjectNode s = F.objectNode();
    s.putObject("h200").put("n_success", rows.size()).put("total", rows.size());
    Files.writeString(stats.resolve("run_stats.json"), s.toString());
    if (appendOnly) {
      Path cl = dir.resolve("changelog-metadata");
      Files.createDirectories(cl);
      ObjectNode c = F.objectNode();
      c.put("base_ref", "main~1").put("head_ref", "main");
      ObjectNode e = c.putArray("entries").addObject();
      e.putArray("config-keys").add("dsr1-fp8-h200-sglang");
      e.put("description", "add conc points").put("append-only", true);
      Files.writeString(cl.resolve("changelog.json"), c.toString());
    }
    Path evals = dir.resolve("eval_results_all");
    Files.createDirectories(evals);
    ArrayNode ev = F.arrayNode();
    ev.addObject().put("infmax_model_prefix", "dsr1").put("hw", "h200-nv").put("framework", "sglang")
        .put("precision", "fp8").put("tp", 8).put("ep", 1).put("task", "gsm8k").put("em_strict", 0.95)
        .put("em_strict_se", 0.01).put("n_eff", 1319).put("conc", 64).put("source", "eval_dsr1_1k8k_1/results.json");
    Files.writeString(evals.resolve("agg_eval_all.json"), ev.toString());
    setDates(dir, date);
    return dir;
  }

  static void setDates(Path dir, LocalDate date) throws IOException {
    FileTime t = FileTime.from(date.atTime(12, 0).toInstant(ZoneOffset.UTC));
    try (var s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        Files.setLastModifiedTime(p, t);
      }
    }
  }
}
