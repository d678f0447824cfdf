package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  private static String row(int conc, double tput, double ttftS, double tpotS) {
    return String.format(java.util.Locale.ROOT, """
        {"hw": "h200", "conc": %d, "image": "i", "model": "m", "infmax_model_prefix": "gptoss",
         "framework": "vllm", "precision": "fp4", "spec_decoding": "none", "disagg": false,
         "recipe_fingerprint": "", "isl": 1024, "osl": 8192, "is_multinode": false, "tp": 2,
         "pp": 1, "dcp_size": 1, "pcp_size": 1, "ep": 1, "dp_attention": "false",
         "tput_per_gpu": %s, "output_tput_per_gpu": %s, "input_tput_per_gpu": 1.0,
         "median_ttft": %s, "p90_ttft": %s, "p99_ttft": %s,
         "median_tpot": %s, "median_intvty": %s, "p90_tpot": %s, "p99_tpot": %s}
        """, conc, tput, tput / 2, ttftS, ttftS * 2, ttftS * 3, tpotS, 1 / tpotS, tpotS * 1.1, tpotS * 1.2);
  }

  @Test
  void writesTheReportNextToTheAggregatesAndPrintsItsPath() throws Exception {
    Path agg = tmp.resolve("results_bmk").resolve("agg_bmk.json");
    Files.createDirectories(agg.getParent());
    Files.writeString(agg, "[" + row(1, 500, 0.02, 0.004) + "," + row(4, 1500, 0.05, 0.006)
        + ", {\"conc\": 8}]");

    int rc = run("report", agg.toString(), "--out", tmp.resolve("rep").toString(), "--title", "GPT-OSS");

    assertThat(rc).as(err.toString()).isZero();
    Path html = tmp.resolve("rep").resolve("report.html");
    assertThat(out.toString().trim()).isEqualTo(html.toString());
    assertThat(Files.readString(html)).contains("<title>GPT-OSS</title>").contains("gptoss · 1k/8k")
        .contains("row 3");
    assertThat(tmp.resolve("rep/charts/gptoss-1k-8k-throughput-vs-interactivity.png")).exists();
    assertThat(tmp.resolve("rep/charts/gptoss-1k-8k-tpot-vs-concurrency.svg")).exists();
    assertThat(err.toString()).contains("not plotted").contains("row 3").contains("'tput_per_gpu'")
        .contains("report of 2 points, 3 charts");
  }

  @Test
  void defaultsToTheInputDirectory() throws Exception {
    Path agg = tmp.resolve("agg.json");
    Files.writeString(agg, row(2, 800, 0.03, 0.005));
    assertThat(run("report", agg.toString())).as(err.toString()).isZero();
    assertThat(tmp.resolve("report.html")).exists();
  }

  @Test
  void badInputIsOneClearErrorWithoutStackTrace() throws Exception {
    assertThat(run("report", tmp.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("is a directory").doesNotContain("Exception");
    Path bad = tmp.resolve("bad.json");
    Files.writeString(bad, "{\"conc\": ");
    assertThat(run("report", bad.toString())).isEqualTo(1);
    assertThat(err.toString()).contains(bad + ":").contains("not valid JSON");
    assertThat(tmp.resolve("report.html")).doesNotExist();
  }
}
