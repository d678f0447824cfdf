package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx results summarize | compare | success-rate} in-process. */
class ResultsReportCommandsTest {

  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(status, out.toString(), err.toString());
  }

  private static String row(String hw, int conc, double tput) {
    return "{\"hw\": \"" + hw + "\", \"conc\": " + conc + ", \"image\": \"i\", \"model\": \"m\","
        + " \"infmax_model_prefix\": \"dsr1\", \"framework\": \"vllm\", \"precision\": \"fp8\","
        + " \"spec_decoding\": \"none\", \"disagg\": false, \"recipe_fingerprint\": \"\","
        + " \"isl\": 1024, \"osl\": 1024, \"is_multinode\": false, \"tp\": 8, \"pp\": 1,"
        + " \"dcp_size\": 1, \"pcp_size\": 1, \"ep\": 1, \"dp_attention\": \"false\","
        + " \"tput_per_gpu\": " + tput + ", \"output_tput_per_gpu\": " + (tput / 2)
        + ", \"input_tput_per_gpu\": " + (tput / 2) + ", \"mean_ttft\": 0.25, \"median_intvty\": 50.0,"
        + " \"power_metric_schema_version\": 2, \"power_valid\": 0}";
  }

  @Test
  void summarizesACollectedFileAsMarkdownAndCsv() throws Exception {
    Path file = tmp.resolve("agg_bmk.json");
    Files.writeString(file, "[" + row("h200", 8, 300.0) + ", " + row("h200", 4, 200.0)
        + ", {\"hw\": \"h200\", \"conc\": 2, \"scenario_type\": \"agentic-coding\"}]");
    Run table = run("results", "summarize", file.toString());
    assertThat(table.status()).as(table.err()).isZero();
    assertThat(table.out()).contains("h200 · dsr1 · 1024/1024 · vllm · fp8 · tp8 (8 GPUs)");
    assertThat(table.out().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
    assertThat(table.err()).contains("AgentX row");
    Run md = run("results", "summarize", "--format", "md", file.toString());
    assertThat(md.out().lines().toList()).hasSize(6);
    assertThat(md.out().lines().toList().get(0)).contains("median (p50) and p99");
    // tput, output tput, interactivity 50; the rows publish no median TTFT (only a mean)
    assertThat(md.out().lines().toList().get(4)).contains("| 4 | 200.0 | 100.0 | 50.0 | — |");
    Run csv = run("results", "summarize", "--format", "csv", file.toString());
    assertThat(csv.out()).contains("h200,dsr1,1024/1024,vllm,fp8,none,tp8,8,4,200.0,100.0,50.0,,,,,");
    Run json = run("results", "summarize", "--format", "json", file.toString());
    assertThat(json.out()).contains("\"interactivity\": 50.0").contains("\"median_ttft_ms\": null");
    assertThat(run("results", "summarize", "--format", "html", file.toString()).status()).isEqualTo(2);
  }

  @Test
  void comparesTwoRunsAndFailsStrictlyOnUnverifiedPoints() throws Exception {
    Path a = Files.createDirectories(tmp.resolve("a"));
    Path b = Files.createDirectories(tmp.resolve("b"));
    Files.writeString(a.resolve("agg_x.json"), row("h200", 4, 200.0));
    Files.writeString(b.resolve("agg_x.json"), row("h200", 4, 250.0));
    Run r = run("results", "compare", a.toString(), b.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("| 250.00 (+25.0% ▲) |");
    assertThat(r.err()).contains("1 matched points (0 not comparable, 1 unverified)");
    Run strict = run("results", "compare", "--strict", a.toString(), b.toString());
    assertThat(strict.status()).isEqualTo(1);
    Run json = run("results", "compare", "--format", "json", a.toString(), b.toString());
    JsonNode parsed = Json.mapper().readTree(json.out());
    assertThat(parsed.get("pairs").get(0).get("metrics").get("tput_per_gpu").get("ratio").doubleValue())
        .isEqualTo(1.25);
    assertThat(run("results", "compare", "--metrics", "bogus", a.toString(), b.toString()).status())
        .isEqualTo(2);
  }

  @Test
  void successRateWritesRunStats() throws Exception {
    Path runDir = Files.createDirectories(tmp.resolve("run"));
    Files.writeString(runDir.resolve("matrix.json"), "[{\"image\": \"i\", \"model\": \"m\","
        + " \"model-prefix\": \"dsr1\", \"precision\": \"fp8\", \"framework\": \"vllm\","
        + " \"runner\": \"h200\", \"spec-decoding\": \"none\", \"isl\": 1024, \"osl\": 1024, \"tp\": 8,"
        + " \"pp\": 1, \"dcp-size\": 1, \"pcp-size\": 1, \"ep\": 1, \"dp-attn\": false, \"conc\": 4,"
        + " \"max-model-len\": 2048, \"exp-name\": \"dsr1_1k1k\", \"disagg\": false, \"run-eval\": false}]");
    Files.createDirectories(runDir.resolve("bmk_x"));
    Files.writeString(runDir.resolve("bmk_x/agg_x.json"), row("h200", 4, 200.0));
    Run r = run("results", "success-rate", runDir.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).contains("| h200 | 1 | 1 | 100.0% |");
    JsonNode stats = Json.mapper().readTree(runDir.resolve("run_stats.json").toFile());
    assertThat(stats.get("h200").get("n_success").intValue()).isEqualTo(1);
    assertThat(run("results", "success-rate", tmp.toString()).status()).isEqualTo(2);
  }
}
