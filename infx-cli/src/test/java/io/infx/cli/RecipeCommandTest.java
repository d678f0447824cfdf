package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code infx recipe show}: the exact command, env and result file of real master rows. */
class RecipeCommandTest {

  private final CliHarness cli = new CliHarness();

  private static Path matrixConfigs() {
    String shared = System.getenv("INFX_SHARED");
    Path dir = shared != null && !shared.isBlank() ? Path.of(shared, "conformance", "matrix", "configs")
        : Path.of(System.getProperty("infx.repo.root", ".")).toAbsolutePath().normalize()
            .resolveSibling("shared").resolve("conformance").resolve("matrix").resolve("configs");
    assumeTrue(Files.isRegularFile(dir.resolve("nvidia-master.yaml")),
        "InferenceX master configs not found at " + dir + " (set INFX_SHARED)");
    return dir;
  }

  @Test
  void showsTheSglangPresetCommandForADsr1H200SglangRow() {
    Path configs = matrixConfigs();
    int rc = cli.run("recipe", "show", "dsr1-fp8-h200-sglang", "--config-files",
        configs.resolve("nvidia-master.yaml").toString(), "--runner-config", configs.resolve("runners.yaml").toString());
    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out())
        .contains("recipe:      sglang")
        .contains("command:     python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-R1-0528 "
            + "--host 127.0.0.1 --port \"$PORT\" --trust-remote-code --tensor-parallel-size 8")
        .containsPattern("result:      dsr1_\\w+_fp8_sglang_tp8-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc\\d+_h200-[\\w-]+\\.json \\(raw\\)")
        .contains("  TP=8\n").contains("  FRAMEWORK=sglang\n");
  }

  @Test
  void theExampleRecipeFileGivesTheInferenceXFlagsAndUnmatchedRowsAreNamed() throws Exception {
    Path configs = matrixConfigs();
    Path examples = Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize().resolve("examples");
    int rc = cli.run("recipe", "show", "dsr1-fp8-h200-sglang", "--recipes",
        examples.resolve("recipes/inferencex-nvidia.yaml").toString(), "--config-files",
        configs.resolve("nvidia-master.yaml").toString(), "--runner-config", configs.resolve("runners.yaml").toString());
    assertThat(rc).as(cli.err()).isZero();
    assertThat(cli.out()).contains("recipe:      dsr1-fp8-h200-sglang")
        .contains("--mem-fraction-static 0.82 --attention-backend flashinfer --stream-interval 10")
        .contains("TORCH_CUDA_ARCH_LIST=9.0");

    Path only = Files.createTempFile("recipes", ".yaml");
    Files.writeString(only, "recipes:\n  v: { preset: vllm, match: { framework: vllm } }\n");
    int bad = cli.run("recipe", "show", "dsr1-fp8-h200-sglang", "--recipes", only.toString(), "--config-files",
        configs.resolve("nvidia-master.yaml").toString(), "--runner-config", configs.resolve("runners.yaml").toString());
    assertThat(bad).isNotZero();
    assertThat(cli.err()).contains("no recipe in " + only + " matches row dsr1_")
        .contains("config dsr1-fp8-h200-sglang").contains("framework vllm ≠ sglang").doesNotContain("Exception");
  }
}
