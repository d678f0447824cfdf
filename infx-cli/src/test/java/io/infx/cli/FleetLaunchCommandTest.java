package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetLaunchCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path dir;

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  private Path row() throws Exception {
    Path p = dir.resolve("row.json");
    Files.writeString(p, """
        {"image": "vllm/vllm-openai:v0.27.1", "model": "Qwen/Qwen3-0.6B", "model-prefix": "qwen3",
         "precision": "bf16", "framework": "vllm", "runner": "h200", "isl": 1024, "osl": 128,
         "tp": 1, "pp": 1, "dcp-size": 1, "pcp-size": 1, "conc": 2, "max-model-len": 1408, "ep": 1,
         "dp-attn": false, "spec-decoding": "none", "exp-name": "qwen3_1k128", "disagg": false,
         "run-eval": false}
        """);
    return p;
  }

  @Test
  void launchPrintsTheRawAndAggregatePathsAndStreamsLogsToStderr() throws Exception {
    Path o = dir.resolve("out");
    int rc = run("fleet", "launch", "--row", row().toString(), "--runner", "local_0", "--out", o.toString(),
        "--num-prompts", "4");
    assertThat(rc).as(err.toString()).isZero();
    String rf = "qwen3_1k128_bf16_vllm_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc2_local_0";
    assertThat(out.toString()).isEqualTo(o.resolve(rf + ".json") + "\n" + o.resolve("agg_" + rf + ".json") + "\n");
    assertThat(err.toString()).contains("[server] infx simulator serving Qwen/Qwen3-0.6B");
    assertThat(o.resolve("job_event.json")).exists();
  }

  @Test
  void failedLaunchExitsWithTheStageAndReason() throws Exception {
    int rc = run("fleet", "launch", "--row", row().toString(), "--runner", "local_0", "--out",
        dir.resolve("o").toString(), "--server-cmd", "exit 3", "-q");
    assertThat(rc).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("infx: error: readiness: server process exited with code 3")
        .contains(" failed (exit 1); see ").doesNotContain("\tat ");
  }

  @Test
  void unknownAdapterAndOptionAreUsageErrors() throws Exception {
    assertThat(run("fleet", "launch", "--row", row().toString(), "--runner", "x_1", "--out",
        dir.resolve("o").toString(), "--adapter", "k8s")).isEqualTo(2);
    assertThat(err.toString()).contains("no fleet adapter 'k8s' (registered: container, dryrun, local, slurm, submit-only)");
    assertThat(run("fleet", "launch", "--row", row().toString(), "--runner", "x_1", "--out",
        dir.resolve("o").toString(), "--adapter", "slurm", "-o", "slurm.partitoin=debug")).isEqualTo(2);
    assertThat(err.toString()).contains("unknown adapter option 'slurm.partitoin'");
  }

  @Test
  void checkReportsRunnersWithoutAdapter() throws Exception {
    Path f = dir.resolve("runners.yaml");
    Files.writeString(f, """
        labels:
          h200: [h200-cw_00, b300-cw_00]
          cluster:x: [h200-cw_00, b300-cw_00]
        clusters:
          x: {gpus-per-node: 8, arch: x86_64, scheduler: slurm, slurm: {partition: p, exclusive: false}}
        """);
    assertThat(run("fleet", "check", "--runner-config", f.toString(), "--routing", "prefix")).isEqualTo(1);
    assertThat(out.toString()).contains("runner without adapter: b300-cw_00")
        .contains("2 runners, 1 without adapter");
    out.getBuffer().setLength(0);
    assertThat(run("fleet", "check", "--runner-config", f.toString())).isZero();
    assertThat(out.toString()).contains("2 runners, 0 without adapter");
  }

  @Test
  void checkLocatesAClusterRecordNamingAnUnregisteredAdapter() throws Exception {
    Path f = dir.resolve("runners.yaml");
    Files.writeString(f, """
        labels:
          cluster:x: [x_0]
          cluster:y: [y_0]
        clusters:
          x: {gpus-per-node: 8, arch: x86_64, adapter: local}
          y: {gpus-per-node: 8, arch: x86_64, adapter: k8s}
        """);
    assertThat(run("fleet", "check", "--runner-config", f.toString())).isEqualTo(1);
    assertThat(out.toString()).contains(f + ":6:48: [V46.adapter-registered] /clusters/y/adapter: cluster 'y' "
            + "names adapter 'k8s', which is not registered")
        .contains("runner without adapter: y_0 (adapter 'k8s' is not registered)")
        .contains("2 runners, 1 without adapter");
  }
}
