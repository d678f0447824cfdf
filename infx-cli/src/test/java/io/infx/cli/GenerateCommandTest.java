package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx generate} through {@link Main#run}: exit codes, streams, error reporting. */
class GenerateCommandTest {

  private static final Path EXAMPLES = Path.of(System.getProperty("infx.repo.root", ".."))
      .resolve("examples/configs").toAbsolutePath().normalize();

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @TempDir
  Path dir;

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void fullSweepOverTheExamplesPrintsTheMatrixOnStdout() throws IOException {
    int status = run("generate", "full-sweep",
        "--config-files", EXAMPLES.resolve("example-master.yaml").toString(),
        "--runner-config", EXAMPLES.resolve("runners.yaml").toString());

    assertThat(status).as(err.toString()).isZero();
    JsonNode rows = Json.mapper().readTree(out.toString());
    assertThat(rows.isArray()).isTrue();
    assertThat(rows.size()).isEqualTo(16);
    assertThat(rows.get(0).fieldNames()).toIterable().startsWith("image", "model", "model-prefix",
        "precision", "framework", "runner", "isl", "osl", "tp");
    assertThat(out.toString()).startsWith("[{\"image\": ").endsWith("]\n");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void testConfigHonoursKeysConcAndEvalMode() throws IOException {
    int status = run("generate", "test-config",
        "--config-files", EXAMPLES.resolve("example-master.yaml").toString(),
        "--runner-config", EXAMPLES.resolve("runners.yaml").toString(),
        "--config-keys", "llama-*-h100-*", "--conc", "16", "--no-evals");

    assertThat(status).as(err.toString()).isZero();
    JsonNode rows = Json.mapper().readTree(out.toString());
    assertThat(rows).hasSize(2);
    for (JsonNode r : rows) {
      assertThat(r.get("conc").asInt()).isEqualTo(16);
      assertThat(r.get("run-eval").asBoolean()).isFalse();
    }
  }

  @Test
  void missingRequiredArgumentIsAUsageErrorInTheReferenceWording() {
    int status = run("generate", "full-sweep", "--runner-config", "x.yaml");

    assertThat(status).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("the following arguments are required: --config-files")
        .doesNotContain("\tat ");
  }

  @Test
  void argumentsOfTheOtherCommandAreUnrecognized() {
    int status = run("generate", "full-sweep", "--config-files", "a.yaml", "--conc", "4");

    assertThat(status).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("unrecognized arguments: --conc 4");
  }

  @Test
  void optionsBeforeTheCommandAreAnInvalidChoice() {
    assertThat(run("generate", "--config-files", "configs/nvidia-master.yaml")).isEqualTo(2);
    assertThat(err.toString()).contains("argument command: invalid choice: 'configs/nvidia-master.yaml'");
  }

  @Test
  void invalidConfigListsEveryViolationWithLocationAndRuleAndPrintsNothing() throws IOException {
    Path master = dir.resolve("bad.yaml");
    Files.writeString(master, """
        tiny-fp8-h100-vllm:
          image: example/vllm:0.0.1
          model: example/Tiny-FP8
          model_prefix: tiny
          runner: h100
          precision: fp8
          framework: vllm
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 8192
              osl: 1024
              search-space:
              - tp: 8
                pp: 0
                conc-list: [4, 8]
                conc-start: 4
                conc-end: 8
        """);

    int status = run("generate", "full-sweep", "--config-files", master.toString(),
        "--runner-config", EXAMPLES.resolve("runners.yaml").toString());

    assertThat(status).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    String e = err.toString();
    assertThat(e).doesNotContain("\tat ").doesNotContain("Exception");
    assertThat(e).contains(master + ":4:3: [V1.unknown-key] /tiny-fp8-h100-vllm/model_prefix: "
        + "Extra inputs are not permitted: unknown key 'model_prefix'; keys are kebab-case: write "
        + "'model-prefix' instead of 'model_prefix'");
    assertThat(e).contains(master + ":2:3: [V5.field-required] /tiny-fp8-h100-vllm/model-prefix: Field required");
    assertThat(e).contains(master + ":15:13: [V13.positive-size]").contains("Input should be greater than 0");
    assertThat(e).contains("[V9.conc-form]").contains("Cannot specify both 'conc-list' list");
  }

  @Test
  void missingFileIsAFileError() {
    int status = run("generate", "full-sweep", "--config-files", dir.resolve("nope.yaml").toString(),
        "--runner-config", EXAMPLES.resolve("runners.yaml").toString());

    assertThat(status).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("nope.yaml' does not exist.");
  }

  @Test
  void helpGoesToStdout() {
    assertThat(run("generate", "full-sweep", "--help")).isZero();
    assertThat(out.toString()).contains("usage: infx generate full-sweep").contains("--max-conc");
    assertThat(err.toString()).isEmpty();
  }
}
