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

class ResultsCollectCommandTest {

  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(status, out.toString(), err.toString());
  }

  private static final String ROW = "{\"hw\": \"h200\", \"conc\": %d, \"image\": \"i\", \"model\": \"m\","
      + " \"infmax_model_prefix\": \"dsr1\", \"framework\": \"vllm\", \"precision\": \"fp8\","
      + " \"spec_decoding\": \"none\", \"disagg\": false, \"recipe_fingerprint\": \"\","
      + " \"isl\": 1024, \"osl\": 1024, \"is_multinode\": false, \"tp\": 8, \"pp\": 1,"
      + " \"dcp_size\": 1, \"pcp_size\": 1, \"ep\": 1, \"dp_attention\": \"%s\","
      + " \"tput_per_gpu\": 10.0, \"output_tput_per_gpu\": 5.0, \"input_tput_per_gpu\": 5.0,"
      + " \"median_ttft\": 0.1, \"power_metric_schema_version\": 2, \"power_valid\": 0}";

  private Path results() throws Exception {
    Path dir = tmp.resolve("results");
    Files.createDirectories(dir.resolve("bmk_a"));
    Files.createDirectories(dir.resolve("bmk_b"));
    Files.writeString(dir.resolve("bmk_a/agg_a.json"), String.format(ROW, 4, "false"));
    Files.writeString(dir.resolve("bmk_b/agg_b.json"), String.format(ROW, 8, "yes"));
    return dir;
  }

  @Test
  void writesEveryRowAndReportsInvalidOnesOnStderr() throws Exception {
    Path dir = results();
    Path out = tmp.resolve("agg_bmk.json");
    Run r = run("results", "collect", dir.toString(), "-o", out.toString());
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("invalid row bmk_b/agg_b.json").contains("/dp_attention")
        .contains("wrote 2 rows");
    JsonNode rows = Json.mapper().readTree(out.toFile());
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).get("conc").intValue()).isEqualTo(4);
  }

  @Test
  void strictWritesRejectsAndFails() throws Exception {
    Path dir = results();
    Path out = tmp.resolve("agg_bmk.json");
    Run r = run("results", "collect", dir.toString(), "-o", out.toString(), "--strict");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).contains("1 rejected rows/files written to");
    assertThat(Json.mapper().readTree(out.toFile())).hasSize(1);
    JsonNode rejects = Json.mapper().readTree(tmp.resolve("rejected_rows.json").toFile());
    assertThat(rejects.get(0).get("source").textValue()).isEqualTo("bmk_b/agg_b.json");
  }

  @Test
  void anEmptyDirectoryIsAnErrorAndWritesNothing() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("empty"));
    Path out = tmp.resolve("agg_bmk.json");
    Run r = run("results", "collect", dir.toString(), "-o", out.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).contains("No valid JSON results found under");
    assertThat(out).doesNotExist();
  }
}
