package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx run} with eval points: the eval options reach the eval step, the eval table is printed. */
class RunEvalCommandTest {

  @TempDir Path tmp;

  @Test
  void evalOnlyRowsRunTheEvalCommandAndPrintTheEvalTable() throws Exception {
    Path cfg = tmp.resolve("evals.yaml");
    Files.writeString(cfg, """
        glm5-eval:
          image: img:1
          model: zai-org/GLM-5-FP8
          model-prefix: glm5
          precision: fp8
          framework: sglang
          runner: h200
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 8192
              osl: 1024
              search-space:
              - { tp: 8, conc-list: [64] }
        """);
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, scheduler: slurm, slurm: {partition: p, exclusive: false}}
        """);
    // an eval tool writing lm-eval-shaped output; 0.95 passes glm5's 0.94, flexible 0.93 does not
    String evalCmd = "d=\"$EVAL_RESULT_DIR/m\"; mkdir -p \"$d\" && printf '%s' '{\"lm_eval_version\": \"0.4.9\", "
        + "\"model_name\": \"zai-org/GLM-5-FP8\", \"results\": {\"gsm8k\": {\"exact_match,strict-match\": 0.95, "
        + "\"exact_match_stderr,strict-match\": 0.006, \"exact_match,flexible-extract\": 0.93}}, "
        + "\"configs\": {\"gsm8k\": {\"filter_list\": [{\"name\": \"strict-match\"}, {\"name\": \"flexible-extract\"}]}}, "
        + "\"n-samples\": {\"gsm8k\": {\"effective\": \"'\"$EVAL_LIMIT\"'\"}}}' > \"$d/results_t.json\"";
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = Main.run(new String[] {"run", cfg.toString(), "--evals-only", "--out", tmp.resolve("o").toString(),
        "--eval-cmd", evalCmd, "--eval-limit", "25"}, new PrintWriter(out), new PrintWriter(err));

    // flexible-extract 0.93 < 0.94 (models.glm5): the gate fails the point
    assertThat(rc).as(err.toString()).isEqualTo(1);
    assertThat(err.toString()).contains("eval FAIL: gsm8k exact_match,strict-match = 0.9500 (>= 0.94 from models.glm5); "
        + "gsm8k exact_match,flexible-extract = 0.9300 (< 0.94 from models.glm5)");
    assertThat(out.toString())
        .contains("### Single-Node Eval Results")
        .contains("| glm5           | H200       | SGLANG      | FP8         | none          |  8192 |  1024 |    8 |    1 |     64 |")
        .contains("| 95.00% ±0.60% | 95.00% ±0.60% | 93.00%        |")
        .contains("eval score gate failed: gsm8k exact_match,flexible-extract = 0.9300 < 0.94 (models.glm5)")
        .contains("evals:   " + tmp.resolve("o").resolve("eval_results_all").resolve("agg_eval_all.json"));
  }
}
