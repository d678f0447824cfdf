package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DbCommandTest {

  @TempDir Path tmp;

  private StringWriter out = new StringWriter();
  private StringWriter err = new StringWriter();

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  private Path artifacts(boolean simulated) throws Exception {
    Path dir = tmp.resolve(simulated ? "sim" : "real");
    Files.createDirectories(dir.resolve("results_bmk"));
    ArrayNode rows = Json.mapper().createArrayNode();
    for (int conc : new int[] {4, 8}) {
      ObjectNode r = rows.addObject();
      r.put("hw", "h200-nv").put("infmax_model_prefix", "dsr1").put("framework", "sglang").put("precision", "fp8")
          .put("isl", 1024).put("osl", 8192).put("conc", conc).put("tp", 8).put("ep", 1).put("image", "img:1")
          .put("tput_per_gpu", 100.0 * conc).put("median_intvty", 10.5);
      if (simulated) {
        r.put("simulated", true).put("server_engine", "infx-sim");
      }
    }
    rows.addObject().put("hw", "h200-nv").put("infmax_model_prefix", "not-a-model").put("conc", 4).put("isl", 1).put("osl", 1);
    Files.writeString(dir.resolve("results_bmk/agg_bmk.json"), rows.toString());
    return dir;
  }

  @Test
  void ingestQueryHistoryRunsVerify() throws Exception {
    Path run = artifacts(false);
    String db = tmp.resolve("store").toString();
    assertThat(run("db", "ingest", run.toString(), "--db", db, "--run-id", "42", "--date", "2026-11-30")).isZero();
    assertThat(out.toString()).contains("run 42 attempt 1 2026-11-30 (new): benchmarks 2 new, 0 duplicate")
        .contains("skipped 1 (unmappedModel 1)").contains("\"models\":[\"not-a-model\"]");
    assertThat(run("db", "ingest", run.toString(), "--db", db, "--run-id", "42", "--date", "2026-11-30")).isZero();
    assertThat(out.toString()).contains("(known): benchmarks 0 new, 2 duplicate");

    assertThat(run("db", "query", "--db", db, "--model", "dsr1", "--format", "csv", "--metrics", "tput_per_gpu")).isZero();
    assertThat(out.toString()).isEqualTo(
        "hardware,framework,precision,spec,disagg,tp,ep,gpus,type,isl,osl,conc,date,run,tput_per_gpu\n"
            + "h200,sglang,fp8,none,false,8,1,8,single_turn,1024,8192,4,2026-11-30,42,400\n"
            + "h200,sglang,fp8,none,false,8,1,8,single_turn,1024,8192,8,2026-11-30,42,800\n");

    assertThat(run("db", "history", "--db", db, "--model", "dsr1", "--conc", "8", "--format", "json")).isZero();
    JsonNode h = Json.mapper().readTree(out.toString());
    assertThat(h).hasSize(1);
    assertThat(h.get(0).get("tput_per_gpu").asDouble()).isEqualTo(800.0);
    assertThat(h.get(0).get("latest").asBoolean()).isTrue();

    assertThat(run("db", "runs", "--db", db)).isZero();
    assertThat(out.toString()).contains("42").contains("2026-11-30");

    assertThat(run("db", "verify", "--db", db)).isZero();
    String first = out.toString();
    assertThat(first).contains("rows benchmark_results 2", "isl_osl 1024/8192=2");
    assertThat(run("db", "verify", "--db", db)).isZero();
    assertThat(out.toString()).isEqualTo(first);
    assertThat(run("db", "verify", "--db", db, "--min-rows", "3")).isEqualTo(1);
    assertThat(err.toString()).contains("successful benchmark rows 2 < 3");
  }

  @Test
  void simulatedRowsNeedAllowSimulated() throws Exception {
    Path run = artifacts(true);
    String db = tmp.resolve("s").toString();
    assertThat(run("db", "ingest", run.toString(), "--db", db)).isEqualTo(1);
    assertThat(err.toString()).contains("simulated").contains("--allow-simulated").doesNotContain("Exception");
    assertThat(run("db", "ingest", run.toString(), "--db", db, "--allow-simulated")).isZero();
    assertThat(out.toString()).contains("2 new").contains("2 simulated");
    assertThat(run("db", "query", "--db", db, "--model", "dsr1")).isZero();
    assertThat(out.toString().lines().count()).isEqualTo(1); // header only: simulated rows are not latest
  }

  @Test
  void badLocationsAndFormatsAreUsageErrors() {
    assertThat(run("db", "query", "--db", "jdbc:mysql://x/y", "--model", "dsr1")).isEqualTo(2);
    assertThat(err.toString()).contains("jdbc:postgresql:");
    assertThat(run("db", "query", "--db", tmp.resolve("q").toString(), "--model", "dsr1", "--format", "xml")).isEqualTo(2);
    assertThat(run("db", "ingest", tmp.resolve("missing").toString(), "--db", tmp.resolve("q").toString())).isEqualTo(1);
    assertThat(err.toString()).contains("no such file or directory");
  }
}
