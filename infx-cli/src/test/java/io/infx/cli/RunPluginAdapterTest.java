package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18 item 6: {@code infx run} launches on adapters registered only through ServiceLoader
 * (the test plugins in {@code io.infx.cli.plugin}, listed in this module's test
 * {@code META-INF/services}), routed by their runner-name prefix, and shows a submitted or
 * dry-run point as such — not as a failure for a missing result file.
 */
class RunPluginAdapterTest {

  @TempDir Path tmp;
  private final CliHarness cli = new CliHarness();
  private Path cfg;

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
              - { tp: 1, conc-list: [1, 2] }
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
  void aPluginAdapterIsChosenByItsRunnerNamePrefix() throws Exception {
    Path dir = tmp.resolve("out");
    int rc = cli.run("run", cfg.toString(), "--adapter", "auto", "--runner", "dryrun_0", "--out", dir.toString());

    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out()).contains("2 points: 0 succeeded, 0 resumed, 0 failed, 0 skipped, 2 dry run")
        .contains("  dry run  tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_dryrun_0: "
            + "would run tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_dryrun_0 on dryrun_0")
        .doesNotContain("failed  ");
    assertThat(cli.err()).contains("dry run (would run").doesNotContain("FAILED");

    Path point = dir.resolve("points").resolve(
        "tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_dryrun_0");
    JsonNode event = Json.mapper().readTree(Files.readAllBytes(point.resolve("job_event.json")));
    assertThat(event.toString()).contains("\"adapter\":\"dryrun\"").contains("\"routing\":\"prefix dryrun\"")
        .contains("\"dry_run\"");
    JsonNode runFile = Json.mapper().readTree(Files.readAllBytes(dir.resolve("run.json")));
    assertThat(runFile.path("points").get(0).path("status").asText()).isEqualTo("dry_run");
  }

  @Test
  void aSubmitOnlyPluginNamedByIdEndsSubmittedNotFailed() {
    int rc = cli.run("run", cfg.toString(), "--adapter", "submit-only", "--conc", "1", "--config-keys", "tiny",
        "--out", tmp.resolve("out").toString());

    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out()).contains("1 point: 0 succeeded, 0 resumed, 0 failed, 0 skipped, 1 submitted")
        .contains("  submitted  tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_h200-x_0: ticket ")
        .doesNotContain("SUCCEEDED (exit 1)");
  }

  @Test
  void aPluginAdapterIsChosenByTheRunnersYamlClusterRecord() throws Exception {
    // no --runner, no prefix claim: the default runner h200-x_0 is routed by its cluster record
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, adapter: dryrun}
        """);
    Path dir = tmp.resolve("out");
    int rc = cli.run("run", cfg.toString(), "--adapter", "auto", "--conc", "1", "--config-keys", "tiny",
        "--out", dir.toString());

    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out()).contains("1 point: 0 succeeded, 0 resumed, 0 failed, 0 skipped, 1 dry run")
        .contains(" on h200-x_0");
    Path point = dir.resolve("points").resolve(
        "tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_h200-x_0");
    JsonNode event = Json.mapper().readTree(Files.readAllBytes(point.resolve("job_event.json")));
    assertThat(event.toString()).contains("\"adapter\":\"dryrun\"")
        .contains("\"routing\":\"cluster:h200-x → adapter dryrun\"").contains("\"cluster\":\"h200-x\"");
  }

  @Test
  void aClusterRecordNamingAnUnregisteredAdapterStopsTheRunLocated() throws Exception {
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x:
            gpus-per-node: 8
            arch: x86_64
            adapter: dry-run
        """);
    Path dir = tmp.resolve("out");
    int rc = cli.run("run", cfg.toString(), "--adapter", "auto", "--out", dir.toString());

    assertThat(rc).isNotZero();
    assertThat(cli.err()).contains(tmp.resolve("runners.yaml") + ":8:14: [V46.adapter-registered] "
        + "/clusters/h200-x/adapter: cluster 'h200-x' names adapter 'dry-run', which is not registered "
        + "(registered: container, dryrun, local, slurm, submit-only); did you mean 'dryrun'?")
        .doesNotContain("Exception");
    assertThat(dir.resolve("points")).doesNotExist();
  }

  @Test
  void anUnknownAdapterNamesEveryRegisteredOne() {
    assertThat(cli.run("run", cfg.toString(), "--adapter", "k8s")).isEqualTo(2);
    assertThat(cli.err()).contains("unknown adapter 'k8s' (registered: container, dryrun, local, slurm, submit-only; "
        + "or auto: routed by runner name)");
  }

  @Test
  void withoutAdapterFlagEachPointGoesToItsClusterRecordsAdapterElseLocal() throws Exception {
    // h200-x's record names the dryrun plugin; mi300-y's names none (only a scheduler): that point
    // stays on the default, local
    Files.writeString(cfg, Files.readString(cfg).replace("conc-list: [1, 2]", "conc-list: [1]") + """
        tiny2:
          image: img:1
          model: org/tiny
          model-prefix: tiny2
          precision: fp8
          framework: sglang
          runner: mi300
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 128
              osl: 8
              search-space:
              - { tp: 1, conc-list: [1] }
        """);
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          mi300: [mi300-y_0]
          cluster:h200-x: [h200-x_0]
          cluster:mi300-y: [mi300-y_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, adapter: dryrun}
          mi300-y: {gpus-per-node: 8, arch: x86_64, scheduler: slurm, slurm: {partition: p, exclusive: false}}
        """);
    Path dir = tmp.resolve("out");
    int rc = cli.run("run", cfg.toString(), "--out", dir.toString());

    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.err()).contains("(adapter dryrun (runners.yaml), local)")
        .contains("infx: server: SIMULATED");
    assertThat(cli.out()).contains("2 points: 1 succeeded, 0 resumed, 0 failed, 0 skipped, 1 dry run");
    JsonNode runFile = Json.mapper().readTree(Files.readAllBytes(dir.resolve("run.json")));
    assertThat(runFile.path("adapter").asText()).isEqualTo("dryrun (runners.yaml), local");
    assertThat(runFile.path("points").findValuesAsText("adapter")).containsExactly("dryrun", "local");
    JsonNode event = Json.mapper().readTree(Files.readAllBytes(dir.resolve("points").resolve(
        "tiny_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_h200-x_0")
        .resolve("job_event.json")));
    assertThat(event.toString()).contains("\"adapter\":\"dryrun\"")
        .contains("\"routing\":\"cluster:h200-x → adapter dryrun\"");
    JsonNode local = Json.mapper().readTree(Files.readAllBytes(dir.resolve("points").resolve(
        "tiny2_128_8_fp8_sglang_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_mi300-y_0")
        .resolve("job_event.json")));
    assertThat(local.toString()).contains("\"adapter\":\"local\"");
  }

  @Test
  void anExplicitAdapterOverridesTheClusterRecord() throws Exception {
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, adapter: dryrun}
        """);
    Path dir = tmp.resolve("out");
    int rc = cli.run("run", cfg.toString(), "--adapter", "submit-only", "--conc", "1", "--config-keys", "tiny",
        "--out", dir.toString());

    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.err()).contains("(adapter submit-only)");
    assertThat(cli.out()).contains("1 point: 0 succeeded, 0 resumed, 0 failed, 0 skipped, 1 submitted");
  }

  @Test
  void noSimulatedMarkWhenNoPointRanOnTheSimulator() throws Exception {
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, adapter: dryrun}
        """);
    Path dir = tmp.resolve("out");
    int rc = cli.run("run", cfg.toString(), "--out", dir.toString());

    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out()).contains("2 points: 0 succeeded, 0 resumed, 0 failed, 0 skipped, 2 dry run");
    assertThat(cli.err()).contains("(adapter dryrun (runners.yaml))").doesNotContain("SIMULATED");
    assertThat(Files.readString(dir.resolve("report.html"))).doesNotContain("SIMULATED")
        .contains("none: no point was measured in this run, 2 dry run");
  }

  @Test
  void aMissingConfigIsReportedByNameBeforeTheRunnerFile() {
    Path missing = tmp.resolve("nowhere").resolve("nonexistent.yaml");
    int rc = cli.run("run", missing.toString(), "--out", tmp.resolve("out").toString());

    assertThat(rc).isNotZero();
    assertThat(cli.err()).contains("no such config file: " + missing)
        .doesNotContain("no runner file").doesNotContain("SIMULATED").doesNotContain("Exception");
  }
}
