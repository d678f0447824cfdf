package io.infx.fleet.recipe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.tree.Source;
import io.infx.fleet.LaunchEnv;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RecipeFileTest {

  private static RecipeFile load(String yaml) {
    return RecipeFile.load(Source.text("r.yaml", yaml), Path.of("/recipes"));
  }

  private static RecipeRow row(String framework, String runner, String... keys) {
    return new RecipeRow("point-1", List.of(keys), "dsr1", "fp8", framework, runner, runner + "-cw_0");
  }

  private static LaunchEnv env(Map<String, String> extra) {
    Map<String, String> v = new TreeMap<>(Map.of("MODEL", "deepseek-ai/DeepSeek-R1", "TP", "8", "EP_SIZE", "1",
        "DP_ATTENTION", "false", "MAX_MODEL_LEN", "9472", "CONC", "4", "RESULT_FILENAME", "rf"));
    v.putAll(extra);
    return new LaunchEnv(v, java.util.Set.of("HF_TOKEN"), java.util.Set.of());
  }

  private static final String FILE = """
      recipes:
        any-sglang:
          preset: sglang
          match: { framework: sglang }
        h200-sglang:
          preset: sglang
          match: { framework: sglang, runner: "h200*" }
          server:
            env: { TORCH_CUDA_ARCH_LIST: "9.0" }
        exact:
          preset: sglang
          match: { config-keys: [dsr1-fp8-h200-sglang] }
          server:
            command: sglang-exact --model ${MODEL} --port ${PORT}
      """;

  @Test
  void theMostSpecificRecipeWins() {
    RecipeFile f = load(FILE);
    assertThat(f.select(row("sglang", "b200")).name()).isEqualTo("any-sglang");
    assertThat(f.select(row("sglang", "h200")).name()).isEqualTo("h200-sglang");
    assertThat(f.select(row("sglang", "h200", "dsr1-fp8-h200-sglang")).name()).isEqualTo("exact");
  }

  @Test
  void noMatchNamesTheRowAndWhyEachRecipeMissed() {
    assertThatThrownBy(() -> load(FILE).select(row("vllm", "h200")))
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("no recipe in r.yaml matches row point-1")
        .hasMessageContaining("framework vllm")
        .hasMessageContaining("any-sglang (r.yaml:")
        .hasMessageContaining("framework sglang ≠ vllm");
  }

  @Test
  void equallySpecificMatchesAreAnErrorNamingBoth() {
    RecipeFile f = load("""
        recipes:
          a: { preset: vllm, match: { framework: vllm } }
          b: { preset: vllm, match: { precision: fp8 } }
        """);
    assertThatThrownBy(() -> f.select(row("vllm", "h100")))
        .hasMessageContaining("'a' (r.yaml:2:3) and 'b' (r.yaml:3:3)").hasMessageContaining("equally specifically");
  }

  @Test
  void everyProblemIsReportedAtOnceWithItsLocation() {
    assertThatThrownBy(() -> load("""
        recipes:
          a:
            preset: nope
          b:
            match: { framwork: vllm }
            server: { command: "x ${BAD", health: "health", startup-timeout: 0 }
          c:
            server:
              flags: [ { when: "TP>1", add: "--x" } ]
        """))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(v -> v.ruleId() + "@" + v.location().map(l -> l.line() + ":" + l.column()).orElse("?"))
            .containsExactly("recipe.unknown-key@5:14", "recipe.template@6:24", "recipe.health@6:43",
                "schema.constraint@6:70", "recipe.flag-condition@9:24"));
    // the binder's errors come first (all of them); then presets/commands are checked, all at once
    assertThatThrownBy(() -> load("""
        recipes:
          a: { preset: nope }
          b: { client: { backend: vllm } }
        """))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(Violation::ruleId).containsExactly("recipe.preset", "recipe.command"));
  }

  @Test
  void sglangPresetRendersInferenceXsTpEpAndDpAttentionFlags() {
    RecipeFile f = load(FILE);
    RecipeLaunch plain = f.launchFor(row("sglang", "b200"), env(Map.of()), Map.of(), Path.of("/work"));
    assertThat(plain.server().shellCommand()).isEqualTo("python3 -m sglang.launch_server --model-path "
        + "deepseek-ai/DeepSeek-R1 --host 127.0.0.1 --port \"$PORT\" --trust-remote-code "
        + "--tensor-parallel-size 8 --data-parallel-size 1");
    RecipeLaunch dep = f.launchFor(row("sglang", "b200"), env(Map.of("EP_SIZE", "8", "DP_ATTENTION", "true")),
        Map.of(), Path.of("/work"));
    assertThat(dep.server().shellCommand()).endsWith("--tensor-parallel-size 8 --ep-size 8 --enable-dp-attention --dp-size 8");
    assertThat(dep.server().healthPath()).isEqualTo("/health");
    assertThat(dep.startupTimeout()).hasSeconds(1800);
    assertThat(dep.client().backend()).isEqualTo("vllm");
    assertThat(dep.resultFilename()).isEqualTo("rf");
    RecipeLaunch h200 = f.launchFor(row("sglang", "h200"), env(Map.of()), Map.of(), Path.of("/work"));
    assertThat(h200.server().env()).containsEntry("TORCH_CUDA_ARCH_LIST", "9.0");
  }

  @Test
  void vllmPresetSwitchesToDataParallelAttention() {
    RecipeFile f = load("recipes: { v: { preset: vllm } }");
    assertThat(f.launchFor(row("vllm", "h100"), env(Map.of()), Map.of(), Path.of("/w")).server().shellCommand())
        .contains("--tensor-parallel-size 8").doesNotContain("--data-parallel-size");
    assertThat(f.launchFor(row("vllm", "h100"), env(Map.of("DP_ATTENTION", "true", "EP_SIZE", "8")), Map.of(),
        Path.of("/w")).server().shellCommand())
        .contains("--tensor-parallel-size 1 --data-parallel-size 8 --enable-expert-parallel")
        .doesNotContain("--tensor-parallel-size 8");
  }

  @Test
  void variablesComeFromTheRecipeEnvThenThePointThenTheProcessWithDefaults() {
    RecipeFile f = load("""
        recipes:
          l:
            preset: llamacpp
            server:
              env:
                REALSERVER: ${INFX_REALSERVER:-${INVOCATION_DIR}/../shared/realserver}
                LLAMA_SERVER: ${REALSERVER}/bin/llama-server
            client:
              tokenizer: ${REALSERVER}/tokenizer
        """);
    RecipeLaunch fallback = f.launchFor(row("llamacpp", "cpu"), env(Map.of("MODEL", "tiny", "TP", "1")), Map.of(),
        Path.of("/repo"));
    assertThat(fallback.server().shellCommand()).startsWith("/repo/../shared/realserver/bin/llama-server -m tiny -a tiny "
        + "--host 127.0.0.1 --port \"$PORT\" -np 4 -c 0 -t 1");
    assertThat(fallback.client().tokenizer()).contains("/repo/../shared/realserver/tokenizer");
    RecipeLaunch given = f.launchFor(row("llamacpp", "cpu"), env(Map.of("MODEL", "tiny", "TP", "1")),
        Map.of("INFX_REALSERVER", "/opt/llama dir"), Path.of("/repo"));
    assertThat(given.server().shellCommand()).startsWith("'/opt/llama dir/bin/llama-server' -m tiny");
    assertThat(given.server().env()).containsEntry("REALSERVER", "/opt/llama dir");

    RecipeFile missing = load("recipes:\n  m:\n    server:\n      command: run ${NOPE}\n");
    assertThatThrownBy(() -> missing.launchFor(row("x", "y"), env(Map.of()), Map.of(), Path.of("/")))
        .hasMessageContaining("recipe m (r.yaml:2:3) for row point-1: ${NOPE} is not set");
  }

  @Test
  void secretsNeverEnterARenderedCommand() {
    RecipeFile f = load("recipes: { s: { server: { command: \"serve --token ${HF_TOKEN}\" } } }");
    assertThatThrownBy(() -> f.launchFor(row("x", "y"), env(Map.of("HF_TOKEN", "hf_secret")), Map.of(), Path.of("/")))
        .hasMessageContaining("${HF_TOKEN} is a secret").hasMessageContaining("$${HF_TOKEN}")
        .hasMessageNotContaining("hf_secret");
    RecipeFile shell = load("recipes: { s: { server: { command: \"serve --token $${HF_TOKEN}\" } } }");
    RecipeLaunch l = shell.launchFor(row("x", "y"), env(Map.of("HF_TOKEN", "hf_secret")), Map.of(), Path.of("/"));
    assertThat(l.server().shellCommand()).isEqualTo("serve --token ${HF_TOKEN}");
    assertThat(l.describe()).doesNotContain("hf_secret").contains("HF_TOKEN=***");
    RecipeFile other = load("recipes: { s: { server: { command: \"x ${MY_TOKENIZER} ${A}\" } } }");
    assertThat(other.launchFor(row("x", "y"), env(Map.of()), Map.of("MY_TOKENIZER", "t", "A", "a"), Path.of("/"))
        .server().shellCommand()).as("TOKENIZER is no secret").isEqualTo("x t a");
    assertThatThrownBy(() -> load("recipes: { s: { server: { command: \"x ${MODAL_TOKEN_ID}\" } } }")
        .launchFor(row("x", "y"), env(Map.of()), Map.of("MODAL_TOKEN_ID", "m"), Path.of("/")))
        .hasMessageContaining("is a secret");
  }

  @Test
  void templatesQuoteForTheShellAndEscapeDollars() {
    CommandTemplate t = CommandTemplate.parse("echo ${A} $${B} ${C:-d e}");
    assertThat(t.renderForShell(n -> n.equals("A") ? java.util.Optional.of("it's") : java.util.Optional.empty()))
        .isEqualTo("echo 'it'\\''s' ${B} d e"); // a default is recipe text: written as the shell reads it
    assertThat(t.variables()).containsExactly("A", "C");
    assertThatThrownBy(() -> CommandTemplate.parse("x $HOME")).hasMessageContaining("must start ${NAME}");
  }

  @Test
  void anEvalSectionGivesEvalPointsTheirEvalCommand() {
    RecipeFile f = load("""
        recipes:
          llama:
            preset: llamacpp
            eval:
              command: my-eval --url "$OPENAI_BASE_URL" --out "$EVAL_RESULT_DIR"
              tasks: gsm8k_cot
              limit: 200
          other:
            preset: sglang
            match: { framework: sglang }
        """);
    RecipeLaunch l = f.launchFor(row("llama.cpp", "cpu"), env(Map.of()), Map.of(), Path.of("/work"));
    assertThat(l.client().eval().command()).contains("my-eval --url \"$OPENAI_BASE_URL\" --out \"$EVAL_RESULT_DIR\"");
    assertThat(l.client().eval().tasks()).isEqualTo("gsm8k_cot");
    assertThat(l.client().eval().limit()).hasValue(200);
    // a recipe without an eval section: the reference's lm-eval invocation
    RecipeLaunch other = f.launchFor(row("sglang", "h200"), env(Map.of()), Map.of(), Path.of("/work"));
    assertThat(other.client().eval()).isEqualTo(io.infx.fleet.bench.EvalSettings.defaults());
    assertThatThrownBy(() -> load("recipes:\n  r:\n    preset: vllm\n    eval: { comand: x }\n"))
        .isInstanceOf(ValidationException.class).hasMessageContaining("comand");
  }
}
