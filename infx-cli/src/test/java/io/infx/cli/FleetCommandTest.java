package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FleetCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path dir;

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  private static final String ROW = """
      {"image": "vllm/vllm-openai:v0.27.1", "model": "Qwen/Qwen3.5-397B-A17B-FP8", "model-prefix": "qwen3.5",
       "precision": "fp8", "framework": "vllm", "runner": "b200", "isl": 1024, "osl": 1024,
       "tp": 8, "pp": 1, "dcp-size": 1, "pcp-size": 1, "conc": 64, "max-model-len": 2304, "ep": 8,
       "dp-attn": true, "spec-decoding": "none", "exp-name": "qwen3.5_1k1k", "disagg": false,
       "run-eval": false}
      """;

  private Path row() throws Exception {
    Path p = dir.resolve("row.json");
    Files.writeString(p, ROW);
    return p;
  }

  @Test
  void resultNamePrintsOnlyTheName() throws Exception {
    // Same point as results corpus case 003 (RESULT_FILENAME taken from its env.json).
    assertThat(run("fleet", "result-name", "--row", row().toString(), "--runner", "b200-dgxc-slurm_2")).isZero();
    assertThat(out.toString()).isEqualTo(
        "qwen3.5_1k1k_fp8_vllm_tp8-pp1-dcp1-pcp1-ep8-dpatrue_disagg-false_spec-none_conc64_b200-dgxc-slurm_2\n");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void envPrintsKeyValueLinesInProjectionOrder() throws Exception {
    assertThat(run("fleet", "env", "--row", row().toString(), "--runner", "b200-dgxc-slurm_2")).isZero();
    String[] lines = out.toString().split("\n");
    assertThat(lines[0]).isEqualTo("EXP_NAME=qwen3.5_1k1k");
    assertThat(lines).contains("GPU_COUNT=8", "EP_SIZE=8", "DP_ATTENTION=true", "RUNNER_TYPE=b200",
        "RUNNER_NAME=b200-dgxc-slurm_2");
    assertThat(lines[lines.length - 1]).isEqualTo("IS_MULTINODE=false");
  }

  @Test
  void badRowIsAClearErrorWithoutStackTrace() throws Exception {
    Path p = dir.resolve("bad.json");
    Files.writeString(p, "{\"tp\": 8}");
    assertThat(run("fleet", "env", "--row", p.toString(), "--runner", "x_1")).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains(p + ":1:1: [V61.exp-name] /exp-name")
        .doesNotContain("\tat ");
  }

  @Test
  void missingRowFileAndBadPolicyAreReported() throws Exception {
    assertThat(run("fleet", "env", "--row", dir.resolve("nope.json").toString(), "--runner", "x_1")).isEqualTo(1);
    assertThat(err.toString()).contains("nope.json: no such file");
    assertThat(run("fleet", "env", "--row", row().toString(), "--runner", "x_1", "--fingerprint-policy", "odd"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--fingerprint-policy must be legacy or compact");
  }

  @Test
  void everyFleetSubcommandHasHelp() {
    for (String sub : new String[] {"env", "result-name", "launch", "check"}) {
      out.getBuffer().setLength(0);
      assertThat(run("fleet", sub, "--help")).as(sub).isZero();
      assertThat(out.toString()).contains("Usage: infx fleet " + sub);
    }
  }
}
