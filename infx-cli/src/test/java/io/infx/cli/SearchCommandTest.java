package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx search}: the plan, located SLO errors, options shared with {@code infx run}, a search on the simulator. */
class SearchCommandTest {

  @TempDir Path tmp;
  private Path cfg;
  private final CliHarness cli = new CliHarness();

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
            - isl: 64
              osl: 8
              search-space:
              - { tp: 1, conc-list: [1, 2, 4] }
              - { tp: 2, conc-list: [1, 8] }
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
  void dryRunPrintsEachConfigurationWithItsRangeAndWritesNothing() {
    Path dir = tmp.resolve("out");
    int rc = cli.run("search", cfg.toString(), "--slo", "ttft.p99<=2s", "--dry-run", "--out", dir.toString());
    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out()).contains("5 matrix rows → 2 configurations to search on adapter 'local'")
        .contains("tiny_64_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc*_h200-x_0  conc 1..4 step 1 (4 loads)")
        .contains("_tp2-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc*_h200-x_0  conc 1..8 step 1 (8 loads)");
    assertThat(dir).doesNotExist();
    // generate's filters narrow the configurations, --range replaces the matrix's concurrencies
    assertThat(cli.run("search", cfg.toString(), "--slo", "ttft.p99<=2s", "--max-tp", "1", "--range", "2:64",
        "--dry-run")).isZero();
    assertThat(cli.out()).contains("1 configuration to search").contains("conc 2..64 step 1 (63 loads)");
  }

  @Test
  void aBadSloIsOneLocatedMessageAndExitStatus2() {
    int rc = cli.run("search", cfg.toString(), "--slo", "ttft.p99<=2000,tpot.p50<=50ms", "--dry-run");
    assertThat(rc).isEqualTo(2);
    assertThat(cli.err()).startsWith("infx: error: --slo:1:15: [slo.unit] a latency bound needs a unit")
        .contains("  ttft.p99<=2000,tpot.p50<=50ms\n")
        .doesNotContain("Exception");
    assertThat(cli.run("search", cfg.toString(), "--dry-run")).isEqualTo(2);
    assertThat(cli.err()).contains("--slo");
    assertThat(cli.run("search", cfg.toString(), "--slo", "ttft.p99<=2s", "--range", "8:2", "--dry-run")).isEqualTo(2);
    assertThat(cli.err()).contains("--range LO:HI needs 1 <= LO <= HI");
    assertThat(cli.run("search", cfg.toString(), "--slo", "ttft.p99<=2s", "--adapter", "slurm", "--dry-run")).isEqualTo(2);
    assertThat(cli.err()).contains("keeps one server up").contains("--adapter local or container");
  }

  @Test
  void aSearchOnTheSimulatorPrintsOneLinePerConfigurationAndWritesTheSearchFile() throws Exception {
    Path dir = tmp.resolve("out");
    int rc = cli.run("search", cfg.toString(), "--max-tp", "1", "--slo", "tpot.p50<=1s,ttft.p99<=5s", "--out",
        dir.toString());
    assertThat(rc).as(cli.err()).isZero();
    // a generous SLO: the whole range (1..4) meets it in two probes (the first load, then the last)
    assertThat(cli.out()).contains("SLO: tpot.p50<=1s,ttft.p99<=5s")
        .contains("| tiny · 64/8 | SIMULATED h200 sglang fp8 TP1 | 4 |")
        .contains("| [4, —] | 2 | 2 | SLO met at the largest load searched |")
        .contains("SIMULATED: every probe was served by infx's embedded simulator")
        .contains("search:  " + dir.resolve("search.json"));
    assertThat(cli.err()).contains("starting its server (with the environment of conc 4)")
        .contains("conc 1 pass").contains("conc 4 pass");
    JsonNode record = Json.mapper().readTree(dir.resolve("search.json").toFile());
    assertThat(record.get("slo").asText()).isEqualTo("tpot.p50<=1s,ttft.p99<=5s");
    assertThat(record.get("configurations").get(0).get("best").asInt()).isEqualTo(4);
    assertThat(record.get("configurations").get(0).get("server_starts").asInt()).isEqualTo(1);
    assertThat(dir.resolve("report.html")).content().contains("SLO search");

    // --resume: nothing is measured again, the same table
    String first = cli.out();
    assertThat(cli.run("search", cfg.toString(), "--max-tp", "1", "--slo", "tpot.p50<=1s,ttft.p99<=5s", "--out",
        dir.toString(), "--resume")).as(cli.err()).isZero();
    assertThat(cli.err()).contains("(from an earlier run)").doesNotContain("starting its server");
    assertThat(cli.out()).contains("| [4, —] | 2 | 2 |");
    assertThat(cli.out().substring(cli.out().indexOf("| workload"), cli.out().indexOf("SIMULATED: every")))
        .isEqualTo(first.substring(first.indexOf("| workload"), first.indexOf("SIMULATED: every")));
  }

  @Test
  void runKeepsItsOwnOptionsBesideTheSharedOnes() {
    assertThat(cli.run("run", cfg.toString(), "--max-conc", "2", "--canary", "--repeat", "2", "--runner", "h200-x_0",
        "--dry-run")).as(cli.err()).isZero();
    assertThat(cli.run("search", cfg.toString(), "--slo", "ttft.p99<=2s", "--canary", "--dry-run")).isEqualTo(2);
    assertThat(cli.err()).contains("--canary");
  }
}
