package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {

  @TempDir Path tmp;
  private Path cfg;
  private StringWriter out;
  private StringWriter err;

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  @BeforeEach
  void config() throws Exception {
    cfg = tmp.resolve("tiny.yaml");
    Files.writeString(cfg, """
        tiny:
          image: img:1
          model: org/tiny
          model-prefix: tiny
          precision: fp8
          framework: sglang
          runner: h200
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 128
              osl: 8
              search-space:
              - { tp: 1, conc-list: [1, 2, 4] }
        """);
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, scheduler: slurm, slurm: {partition: p, exclusive: false}}
        """);
  }

  @Test
  void dryRunPrintsThePlanAndTheMatrixAndWritesNothing() throws Exception {
    Path dir = tmp.resolve("out");
    int rc = run("run", cfg.toString(), "--max-conc", "2", "--dry-run", "--out", dir.toString());

    assertThat(rc).as(err.toString()).isZero();
    String text = out.toString();
    assertThat(text).contains("2 matrix rows → 2 points on adapter 'local': 2 to run")
        .contains("tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc2_h200-x_0")
        .doesNotContain("_conc4_");
    JsonNode matrix = Json.mapper().readTree(text.substring(text.indexOf("\n[") + 1));
    assertThat(matrix).hasSize(2);
    assertThat(dir).doesNotExist();
  }

  @Test
  void runPrintsTheSummaryTableOnStdoutAndProgressOnStderr() throws Exception {
    Path dir = tmp.resolve("out");
    int rc = run("run", cfg.toString(), "--conc", "1", "2", "--config-keys", "tiny", "--out", dir.toString());

    assertThat(rc).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("SIMULATED infx-sim · h200 · tiny · 128/8 · sglang · fp8 · tp1 (1 GPU)")
        .contains("SIMULATED blocks come from infx's embedded simulator")
        .contains("TTFT p50")
        .contains("2 points: 2 succeeded, 0 resumed, 0 failed, 0 skipped")
        .contains("report:  " + dir.resolve("report.html"));
    assertThat(err.toString()).contains("infx: 2 matrix rows → 2 points to run").contains("] 2/2  done in");
    assertThat(out.toString()).doesNotContain("done in");
    assertThat(dir.resolve("results_bmk/agg_bmk.json")).exists();
    assertThat(dir.resolve("report.html")).exists();

    // again with --resume: nothing is launched, the table is the same
    int again = run("run", cfg.toString(), "--conc", "1", "2", "--config-keys", "tiny", "--out", dir.toString(), "--resume");
    assertThat(again).isZero();
    assertThat(out.toString()).contains("2 points: 0 succeeded, 2 resumed");
    assertThat(err.toString()).doesNotContain("done in");
  }

  @Test
  void userMistakesAreOneLineWithTheRightExitStatus() throws Exception {
    assertThat(run("run")).isEqualTo(2);
    assertThat(err.toString()).contains("give at least one master config file");

    assertThat(run("run", cfg.toString(), "--max-conc", "many")).isEqualTo(2);
    assertThat(err.toString()).contains("--max-conc");

    assertThat(run("run", cfg.toString(), "--duration", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--duration must be at least 1 second");

    assertThat(run("run", cfg.toString(), "--adapter", "k8s")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown adapter 'k8s'");

    Files.writeString(cfg, Files.readString(cfg).replace("osl: 8", "osl: eight"));
    assertThat(run("run", cfg.toString(), "--out", tmp.resolve("o").toString())).isEqualTo(1);
    assertThat(err.toString()).contains("tiny.yaml:").doesNotContain("at io.infx");
    assertThat(tmp.resolve("o")).doesNotExist();

    assertThat(run("run", tmp.resolve("missing.yaml").toString())).isEqualTo(1);
    assertThat(err.toString()).contains("missing.yaml").doesNotContain("Exception");
  }
}
