package io.infx.results.evals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library API of the eval stage on hand-made lm-eval outputs (the byte-exact CLI behaviour is
 * pinned by the conformance corpus, see {@code EvalsConformanceTest} in infx-cli).
 */
class EvalsApiTest {

  @TempDir Path dir;

  private static String lmEval(String task, double strict, double flexible) {
    return """
        {"lm_eval_version": "0.4.9", "model_name": "m/model",
         "results": {"%s": {"alias": "%s", "exact_match,strict-match": %s,
           "exact_match_stderr,strict-match": 0.01, "exact_match,flexible-extract": %s}},
         "configs": {"%s": {"metric_list": [{"metric": "exact_match"}],
           "filter_list": [{"name": "strict-match"}, {"name": "flexible-extract"}]}},
         "n-samples": {"%s": {"original": 100, "effective": 100}}}
        """.formatted(task, task, strict, flexible, task, task);
  }

  private void artifact(String name, String meta, String file, String body) throws IOException {
    Path a = Files.createDirectories(dir.resolve("eval_results").resolve(name));
    Files.writeString(a.resolve("meta_env.json"), meta);
    Files.writeString(a.resolve(file), body);
  }

  @Test
  void collectsTypedRowsWithTheGuardedConfiguration() throws IOException {
    artifact("eval_a", """
        {"infmax_model_prefix": "dsr1", "hw": "h200", "framework": "SGLang", "precision": "FP8",
         "isl": "1024", "osl": 8192.0, "tp": 8, "conc": 64, "dp_attention": false, "model": "meta-model"}
        """, "results_1.json", lmEval("gsm8k", 0.95, 0.96));
    List<EvalRow> rows = EvalCollector.collect(dir, "./eval_results//");
    assertThat(rows).hasSize(1);
    EvalRow r = rows.get(0);
    assertThat(r.hw()).isEqualTo("H200");
    assertThat(r.framework()).isEqualTo("sglang");
    assertThat(r.precision()).isEqualTo("fp8");
    assertThat(r.isl()).isEqualTo(1024);
    assertThat(r.osl()).isEqualTo(8192);
    assertThat(r.tp()).isEqualTo(8);
    assertThat(r.ep()).isEqualTo(1);
    assertThat(r.conc()).isEqualTo(64);
    assertThat(r.dpAttention()).isEqualTo("false");
    assertThat(r.task()).isEqualTo("gsm8k");
    assertThat(r.scoreName()).contains(EvalRow.ScoreName.EM_STRICT);
    assertThat(r.scoreValue()).hasValue(0.95);
    assertThat(r.model().textValue()).isEqualTo("m/model");
    assertThat(r.source()).isEqualTo("eval_results/eval_a/results_1.json");
    assertThat(EvalSummary.cell(r.score(), r.scoreSe())).isEqualTo("95.00% ±1.00%");
  }

  @Test
  void nullHardwareIsAnInputErrorWithTheReferenceLine() throws IOException {
    artifact("eval_b", "{\"hw\": null}", "results_1.json", lmEval("gsm8k", 0.95, 0.96));
    EvalInputException e = catchThrowableOfType(EvalInputException.class,
        () -> EvalCollector.collect(dir, "eval_results"));
    assertThat(e.getMessage()).contains("eval_results/eval_b/meta_env.json").contains("\"hw\"");
    assertThat(e.pythonError()).isEqualTo("AttributeError: 'NoneType' object has no attribute 'upper'");
  }

  @Test
  void thresholdsResolveModelThenDefaultThenFallback() {
    EvalThresholds t = EvalThresholds.of(Map.of("gsm8k", 0.9, "gpqa", 0.3),
        Map.of("dsr1", Map.of("gsm8k", 0.93)));
    EvalThresholds.Threshold fallback = EvalThresholds.Threshold.minScore(0.85);
    assertThat(t.resolve(Optional.of("dsr1"), "gsm8k", fallback))
        .extracting(EvalThresholds.Threshold::display, EvalThresholds.Threshold::source)
        .containsExactly("0.93", "models.dsr1");
    assertThat(t.resolve(Optional.of("dsr1"), "gpqa", fallback).source()).isEqualTo("default");
    assertThat(t.resolve(Optional.empty(), "gsm8k", fallback).source()).isEqualTo("default");
    assertThat(t.resolve(Optional.of("dsr1"), "aime", fallback))
        .extracting(EvalThresholds.Threshold::display, EvalThresholds.Threshold::source)
        .containsExactly("0.85", "min-score");
    assertThat(t.hasModel("dsr1")).isTrue();
    assertThat(t.hasModel("glm5")).isFalse();
  }

  @Test
  void validationReportListsEveryCheckAndFailsBelowThreshold() throws IOException {
    Files.writeString(dir.resolve("meta_env.json"), "{\"infmax_model_prefix\": \"dsr1\"}");
    Files.writeString(dir.resolve("results_x.json"), lmEval("gsm8k", 0.90625, 0.95));
    Path thresholds = dir.resolve("t.yaml");
    Files.writeString(thresholds, "default:\n  gsm8k: 0.9\nmodels:\n  dsr1:\n    gsm8k: 0.91\n");
    ValidationReport report = ScoreValidator.validate(ValidationOptions.builder()
        .workingDir(dir).thresholds("t.yaml").build());
    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.checks()).hasSize(2);
    assertThat(report.failures()).singleElement().satisfies(c -> {
      assertThat(c.metric()).isEqualTo("exact_match,strict-match");
      assertThat(c.value()).isEqualTo(0.90625);
      assertThat(c.threshold().source()).isEqualTo("models.dsr1");
    });
    // .4f rounds the binary value half-even: 0.90625 -> 0.9062
    assertThat(report.lines()).contains(new ValidationReport.Line(ValidationReport.Stream.ERR,
        "FAIL: gsm8k exact_match,strict-match = 0.9062 (< 0.91 from models.dsr1)"));
    assertThat(report.lines().get(0).text()).isEqualTo("Loaded thresholds from t.yaml");
  }

  @Test
  void expectedConcurrenciesMustBeUniquePositiveIntegers() {
    assertThat(ScoreValidator.parseExpectedConcs(" 1 4\t8 ")).containsExactly(1L, 4L, 8L);
    assertThat(ScoreValidator.parseExpectedConcs("16 abc")).isEmpty();
    ValidationReport r = ScoreValidator.validate(ValidationOptions.builder()
        .workingDir(dir).expectedConcs("4 4").build());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.lines()).extracting(ValidationReport.Line::text)
        .containsExactly(ScoreValidator.BAD_EXPECTED_CONCS);
  }

  @Test
  void argparseRulesOfTheReference() {
    ValidateScoresArguments.Parsed p = ValidateScoresArguments.parse(
        List.of("--min-score=1", "--results-g", "x/*.json", "--thresholds", "-0.5"));
    assertThat(p.error()).isEmpty();
    assertThat(p.minScore()).isEqualTo(1.0);
    assertThat(p.resultsGlob()).isEqualTo("x/*.json");
    assertThat(p.thresholds()).contains("-0.5");
    assertThat(ValidateScoresArguments.parse(List.of("--m", "1")).error())
        .contains("ambiguous option: --m could match --min-score, --meta-env, --model-prefix, --metric-prefix");
    assertThat(ValidateScoresArguments.parse(List.of("--meta-env")).error())
        .contains("argument --meta-env: expected one argument");
    assertThat(ValidateScoresArguments.parse(List.of("extra", "--bogus")).error())
        .contains("unrecognized arguments: extra --bogus");
    assertThat(ValidateScoresArguments.parse(List.of("-h")).help()).isTrue();
  }

  @Test
  void thresholdsWithDuplicateKeysLoadAsPyYamlDoesAndSelfReferencesAreRefused() throws IOException {
    // PyYAML keeps the last of duplicate keys (yaml.safe_load → {'default': {'gsm8k': 0.5}}).
    Path dup = Files.writeString(dir.resolve("dup.yaml"), "default:\n  gsm8k: 0.99\n  gsm8k: 0.5\n");
    EvalThresholds t = EvalThresholds.load(dup, "dup.yaml");
    assertThat(t.resolve(Optional.empty(), "gsm8k", EvalThresholds.Threshold.minScore(0.85)).display())
        .isEqualTo("0.5");
    // A list that contains itself is a Python value, but not one JSON can hold.
    Path self = Files.writeString(dir.resolve("self.yaml"), "default: &d [*d]\n");
    EvalThresholds.LoadException e = catchThrowableOfType(EvalThresholds.LoadException.class,
        () -> EvalThresholds.load(self, "self.yaml"));
    assertThat(e.getMessage()).startsWith("invalid YAML: the document nests deeper than");
    // An alias bomb composes in linear time (aliases are shared) and is refused when expanded.
    StringBuilder bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; i++) {
      bomb.append("a").append(i).append(": &a").append(i).append(" [");
      for (int k = 0; k < 10; k++) {
        bomb.append(k == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      bomb.append("]\n");
    }
    Path laughs = Files.writeString(dir.resolve("laughs.yaml"), bomb.toString());
    EvalThresholds.LoadException b = catchThrowableOfType(EvalThresholds.LoadException.class,
        () -> EvalThresholds.load(laughs, "laughs.yaml"));
    assertThat(b.getMessage()).contains("an alias bomb");
  }
}
