package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ValidationException;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Reading rows back, summaries, comparisons and success rates. */
class ReportsTest {

  @TempDir Path dir;

  /** Every corpus aggregate maps to a typed row and back to the same JSON. */
  @TestFactory
  Stream<DynamicTest> corpusAggregatesRoundTripThroughTheTypedRow() throws IOException {
    return SharedCorpus.successCases("results", c -> () -> {
      Path expected = c.resolve("expected.json");
      JsonNode want = Json.mapper().readTree(expected.toFile());
      ResultsConformanceTest.assertSameJson(AggregateRows.fromJson(want).toJson(), want, "");
    });
  }

  static ObjectNode row(String hw, int conc, double tput, double medianTtftS, double medianTpotMs) {
    try {
      JsonNode raw = Json.mapper().readTree("{\"model_id\": \"m\", \"max_concurrency\": " + conc
          + ", \"total_token_throughput\": " + (tput * 8) + ", \"output_throughput\": " + (tput * 4)
          + ", \"median_ttft_ms\": " + (medianTtftS * 1000) + ", \"median_tpot_ms\": " + medianTpotMs
          + ", \"median_e2el_ms\": 2000.0}");
      RunIdentity id = RunIdentity.builder().from(NormalizerTest.singleNode(8, 1, 1)).hw(hw)
          .topology(SingleNodeTopology.of(Parallelism.of(8, 1), false)).build();
      return Normalizer.reference().normalize(raw, id).toJson();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void fromJsonRejectsAgenticAndBrokenRowsWithEveryReason() {
    ObjectNode broken = row("h200", 4, 100, 0.1, 10);
    broken.remove("isl");
    broken.put("dp_attention", "maybe");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> AggregateRows.fromJson(broken))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("2 violations").hasMessageContaining("/isl")
        .hasMessageContaining("/dp_attention");
  }

  @Test
  void summaryIsSortedAndShowsUnitsAsDocumented() {
    AggregateRow b200 = AggregateRows.fromJson(row("b200", 8, 250.0, 0.05, 8.0));
    AggregateRow h200hi = AggregateRows.fromJson(row("h200", 16, 150.0, 0.2, 10.0));
    AggregateRow h200lo = AggregateRows.fromJson(row("h200", 4, 100.0, 0.1, 5.0));
    Summary s = Summary.of(List.of(h200hi, b200, h200lo));
    assertThat(s.rows()).containsExactly(b200, h200lo, h200hi);
    String md = s.toMarkdown();
    // tput/GPU = 8·tput tok/s over 8 GPUs; TTFT 0.1 s → 100.0 ms; interactivity 1000/5 ms = 200
    // median TTFT 0.1 s → 100.0 ms, median TPOT 5 ms, median E2EL 2,000 ms → 2.00 s; no p99s
    assertThat(md.lines().toList().get(3))
        .isEqualTo("| h200 | dsr1 | 1024/1024 | vllm | fp8 | none | tp8 | 8 | 4 | 100.0 | 50.0 | 200.0 | 100.0 | — "
            + "| 5.00 | — | 2.00 |");
    String csv = s.toCsv();
    assertThat(csv.lines().toList().get(0)).startsWith("hw,model_prefix,isl_osl,framework");
    assertThat(csv.lines().toList().get(1))
        .isEqualTo("b200,dsr1,1024/1024,vllm,fp8,none,tp8,8,8,250.0,125.0,125.0,50.0,,8.0,,2.0");
    // the terminal table: one block per configuration, every line within the width
    String table = s.toTable(100, false);
    assertThat(table).contains("h200 · dsr1 · 1024/1024 · vllm · fp8 · tp8 (8 GPUs)")
        .contains("TTFT p50").contains("median (p50) and p99").doesNotContain("\u001b[");
    assertThat(table.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
    assertThat(table.lines().filter(l -> l.matches("\\s+4 .*")).findFirst().orElseThrow())
        .matches("\\s+4\\s+100\\.0\\s+50\\.0\\s+200\\.0\\s+100\\.0\\s+—\\s+5\\.00\\s+—\\s+2\\.00");
    // narrower: the least important columns go first, the medians stay
    String narrow = s.toTable(60, true);
    assertThat(narrow).contains("TPOT p50").contains("TPOT p99").doesNotContain("E2EL p50").doesNotContain("TTFT p99")
        .doesNotContain("out/GPU").contains("\u001b[1m");
    assertThat(narrow.lines().map(l -> l.replaceAll("\u001b\\[[0-9]+m", "")))
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
  }

  private void writeRun(String name, ObjectNode aggregate, String rawExtension) throws IOException {
    Path d = Files.createDirectories(dir.resolve(name));
    String rf = "dsr1_" + aggregate.get("hw").textValue() + "_conc" + aggregate.get("conc").intValue();
    Files.writeString(d.resolve("agg_" + rf + ".json"), aggregate.toString());
    if (rawExtension != null) {
      Files.writeString(d.resolve(rf + ".json"),
          "{\"backend\": \"vllm\", \"model_id\": \"m\"" + rawExtension + "}");
    }
  }

  private Comparison compare() {
    return Comparison.of(AggregateRows.load(List.of(dir.resolve("a"))).rows(),
        AggregateRows.load(List.of(dir.resolve("b"))).rows(), Comparison::settingsBeside);
  }

  @Test
  void comparesMatchedPointsWithDeltasRatiosAndDirection() throws IOException {
    String ext = ", \"infx\": {\"workload\": {\"ignore_eos\": true, \"random_range_ratio\": 0.8,"
        + " \"seed\": 1}}";
    writeRun("a", row("h200", 4, 100.0, 0.10, 10.0), ext);
    writeRun("b", row("h200", 4, 125.0, 0.08, 12.5), ext);
    Comparison c = compare();
    assertThat(c.pairs()).hasSize(1);
    Comparison.Pair p = c.pairs().get(0);
    assertThat(p.comparability().status()).isEqualTo(Comparison.Status.COMPARABLE);
    Comparison.Delta tput = p.deltas().get(0);
    assertThat(tput.metric().key()).isEqualTo("tput_per_gpu");
    assertThat(tput.delta().getAsDouble()).isEqualTo(25.0);
    assertThat(tput.ratio().getAsDouble()).isEqualTo(1.25);
    assertThat(tput.verdict()).isEqualTo(1);
    Comparison.Delta ttft = p.deltas().stream().filter(d -> d.metric().key().equals("median_ttft"))
        .findFirst().orElseThrow();
    assertThat(ttft.verdict()).as("lower TTFT is better").isEqualTo(1);
    Comparison.Delta intvty = p.deltas().stream()
        .filter(d -> d.metric().key().equals("median_intvty")).findFirst().orElseThrow();
    // 1000/10 → 1000/12.5: 100 → 80 tok/s/user, worse
    assertThat(intvty.baseline().getAsDouble()).isEqualTo(100.0);
    assertThat(intvty.candidate().getAsDouble()).isEqualTo(80.0);
    assertThat(intvty.verdict()).isEqualTo(-1);
    assertThat(c.toMarkdown(Comparison.metrics(List.of("tput_per_gpu", "median_intvty"))))
        .contains("| 125.00 (+25.0% ▲) | 80.00 (-20.0% ▼) |");
    JsonNode json = c.toJson();
    assertThat(json.get("pairs").get(0).get("metrics").get("p99_ttft").get("delta").isNull()).isTrue();
  }

  @Test
  void refusesToRankPointsWhoseWorkloadSettingsDiffer() throws IOException {
    writeRun("a", row("h200", 4, 100.0, 0.1, 10.0), ", \"infx\": {\"workload\": {\"ignore_eos\": true}}");
    writeRun("b", row("h200", 4, 200.0, 0.1, 10.0), ", \"infx\": {\"workload\": {\"ignore_eos\": false}}");
    Comparison c = compare();
    Comparison.Pair p = c.pairs().get(0);
    assertThat(p.comparability().status()).isEqualTo(Comparison.Status.NOT_COMPARABLE);
    assertThat(p.comparability().reasons()).containsExactly("ignore_eos: true vs false");
    assertThat(p.deltas()).isEmpty();
    String md = c.toMarkdown(Comparison.metrics(Comparison.DEFAULT_TABLE_METRICS));
    assertThat(md).contains("## Not comparable").contains("ignore_eos: true vs false")
        .doesNotContain("+100.0%");
  }

  @Test
  void marksPointsWithoutRawSettingsAsUnverifiedAndReportsUnmatchedRows() throws IOException {
    writeRun("a", row("h200", 4, 100.0, 0.1, 10.0), null);
    writeRun("a", row("h200", 8, 100.0, 0.1, 10.0), null);
    writeRun("b", row("h200-trt", 4, 90.0, 0.1, 10.0), "");
    Comparison c = compare();
    assertThat(c.pairs()).singleElement().satisfies(p -> {
      assertThat(p.comparability().status()).isEqualTo(Comparison.Status.UNVERIFIED);
      assertThat(p.key()).startsWith("h200 dsr1 vllm fp8");
    });
    assertThat(c.unpaired()).singleElement()
        .satisfies(u -> assertThat(u.reason()).isEqualTo("no candidate row"));
  }

  @Test
  void workloadSettingsComeFromBackendAndTheInfxExtension() throws IOException {
    JsonNode raw = Json.mapper().readTree("{\"backend\": \"openai\", \"infx\": {\"workload\": "
        + "{\"backend\": \"openai\", \"seed\": 7, \"num_warmups\": 2, \"ignore_eos\": false},"
        + " \"tokens\": {\"output_source\": \"usage\"}}}");
    WorkloadSettings s = WorkloadSettings.of(dir, raw);
    assertThat(s.hasExtension()).isTrue();
    assertThat(s.settings().keySet())
        .containsExactly("backend", "ignore_eos", "num_warmups", "output_token_source", "seed");
    WorkloadSettings reference = WorkloadSettings.of(dir, Json.mapper().readTree("{\"backend\": \"vllm\"}"));
    assertThat(reference.differences(s)).containsExactly("backend: vllm vs openai");
    assertThat(Optional.of(reference).map(WorkloadSettings::hasExtension)).contains(false);
    JsonNode otherSeed = Json.mapper().readTree("{\"backend\": \"openai\", \"infx\": {\"workload\": "
        + "{\"backend\": \"openai\", \"seed\": 8, \"num_warmups\": 2, \"ignore_eos\": false},"
        + " \"tokens\": {\"output_source\": \"usage\"}}}");
    WorkloadSettings t = WorkloadSettings.of(dir, otherSeed);
    assertThat(s.differences(t)).isEmpty();
    assertThat(s.notes(t)).containsExactly("seed: 7 vs 8");
  }

  @Test
  void successRateCountsPlannedPointsPerRunnerLabel() throws IOException {
    String single = "{\"image\": \"i\", \"model\": \"m\", \"model-prefix\": \"dsr1\", \"precision\": \"fp8\","
        + " \"framework\": \"vllm\", \"runner\": \"%s\", \"spec-decoding\": \"none\", \"isl\": 1024,"
        + " \"osl\": 1024, \"tp\": 8, \"pp\": 1, \"dcp-size\": 1, \"pcp-size\": 1, \"ep\": 1,"
        + " \"dp-attn\": false, \"conc\": %d, \"max-model-len\": 2048, \"exp-name\": \"dsr1_1k1k\","
        + " \"disagg\": false, \"run-eval\": false%s}";
    String matrix = "[" + String.format(single, "h200", 4, "") + ", "
        + String.format(single, "h200", 16, "") + ", "
        + String.format(single, "b200", 4, "") + ", "
        + String.format(single, "h200", 8, ", \"eval-only\": true") + "]";
    JsonNode produced1 = row("h200", 4, 100, 0.1, 10);
    JsonNode produced2 = row("b200", 4, 100, 0.1, 10);
    JsonNode unplanned = row("b200", 64, 100, 0.1, 10);
    SuccessRate.Report r = SuccessRate.count(Json.mapper().readTree(matrix),
        List.of(produced1, produced2, unplanned, Json.mapper().readTree("{\"model_id\": \"raw\"}")));
    assertThat(r.byHardware()).containsOnlyKeys("b200", "h200");
    assertThat(r.byHardware().get("h200")).isEqualTo(new SuccessRate.Tally(1, 2));
    assertThat(r.byHardware().get("b200")).isEqualTo(new SuccessRate.Tally(1, 1));
    assertThat(r.missing()).singleElement().satisfies(p -> assertThat(p.label()).endsWith("conc16"));
    assertThat(r.unexpected()).singleElement().satisfies(u -> assertThat(u).endsWith("conc64"));
    assertThat(r.toJsonText()).isEqualTo("{\n  \"b200\": {\n    \"n_success\": 1,\n    \"total\": 1\n"
        + "  },\n  \"h200\": {\n    \"n_success\": 1,\n    \"total\": 2\n  }\n}");
    assertThat(r.toMarkdown()).contains("| h200 | 1 | 2 | 50.0% |");
  }

  @Test
  void successRateExpandsMultiNodeConcurrencyListsAndReadsBuckets() throws IOException {
    String multi = "{\"image\": \"i\", \"model\": \"m\", \"model-prefix\": \"dsr1\", \"precision\": \"fp8\","
        + " \"framework\": \"dynamo-sglang\", \"runner\": \"gb200\", \"spec-decoding\": \"none\","
        + " \"isl\": 1024, \"osl\": 1024, \"max-model-len\": 2048,"
        + " \"prefill\": {\"num-worker\": 2, \"tp\": 4, \"ep\": 4, \"dp-attn\": true, \"pp\": 1,"
        + " \"dcp-size\": 1, \"pcp-size\": 1}, \"decode\": {\"num-worker\": 1, \"tp\": 16, \"ep\": 16,"
        + " \"dp-attn\": true, \"pp\": 1, \"dcp-size\": 1, \"pcp-size\": 1}, \"conc\": [8, 16, 32],"
        + " \"exp-name\": \"dsr1_1k1k\", \"disagg\": true, \"run-eval\": false}";
    JsonNode matrix = Json.mapper().readTree("{\"multi_node\": {\"1k1k\": [" + multi + "]},"
        + " \"changelog_metadata\": {\"runner\": \"not-a-row\"}}");
    Path c = SharedCorpus.expectedDir("results").resolve("007-multinode-disagg-heterogeneous-hardware");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(c), "corpus absent");
    JsonNode produced = Json.mapper().readTree(c.resolve("expected.json").toFile()); // conc 32
    SuccessRate.Report r = SuccessRate.count(matrix, List.of(produced));
    assertThat(r.byHardware()).containsExactly(
        org.assertj.core.api.Assertions.entry("gb200", new SuccessRate.Tally(1, 3)));
  }

  /** AgentX aggregates (agentx corpus) pass the collector's identity checks and count as successes. */
  @Test
  void agenticAggregatesAreCollectableAndCountedBySuccessRate() throws IOException {
    Path agentx = SharedCorpus.expectedDir("agentx");
    Path single = agentx.resolve("02-warmup-error-accounting/expected.json");
    Path multi = agentx.resolve("05-multinode-disagg-per-gpu/expected.json");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(single) && Files.exists(multi),
        "agentx corpus not found at " + agentx + "; skipping");
    JsonNode singleRow = Json.mapper().readTree(single.toFile());
    assertThat(AggregateSchema.isAgentic(singleRow)).isTrue();
    assertThat(AggregateSchema.validate(singleRow)).isEmpty();
    assertThat(AggregateSchema.validate(Json.mapper().readTree(multi.toFile()))).isEmpty();
    JsonNode matrix = Json.mapper().readTree("[{\"image\": \"example/image:1.0\", \"model\": \"org/model-a\","
        + " \"model-prefix\": \"modela\", \"precision\": \"fp8\", \"framework\": \"vllm\","
        + " \"runner\": \"h200-x8\", \"tp\": 8, \"ep\": 1, \"pp\": 1, \"dcp-size\": 1,"
        + " \"pcp-size\": 1, \"dp-attn\": false, \"spec-decoding\": \"none\", \"conc\": 2,"
        + " \"kv-offloading\": \"none\", \"total-cpu-dram-gb\": 0, \"duration\": 1800,"
        + " \"exp-name\": \"modela_tp8_conc2\", \"scenario-type\": \"agentic-coding\"}]");
    SuccessRate.Report r = SuccessRate.count(matrix, List.of(singleRow));
    assertThat(r.byHardware().get("h200-x8")).isEqualTo(new SuccessRate.Tally(1, 1));
    assertThat(r.unexpected()).isEmpty();
  }

  @Test
  void runDirectoriesCountEachPointOnce() throws IOException {
    ObjectNode r1 = row("h200", 1, 100, 0.1, 10);
    ObjectNode r2 = row("h200", 2, 190, 0.1, 11);
    // an infx run directory: per-point files (raw beside), artifact copies, the collected array
    Path run = Files.createDirectories(dir.resolve("run"));
    for (ObjectNode r : List.of(r1, r2)) {
      String rf = "p" + r.get("conc").intValue();
      Files.createDirectories(run.resolve("points/" + rf));
      Files.writeString(run.resolve("points/" + rf + "/agg_" + rf + ".json"), r.toString());
      Files.writeString(run.resolve("points/" + rf + "/" + rf + ".json"), "{\"backend\": \"vllm\"}");
      Files.writeString(run.resolve("points/" + rf + "/job_event.json"), "{\"outcome\": \"succeeded\"}");
      Files.createDirectories(run.resolve("bmk/bmk_" + rf));
      Files.writeString(run.resolve("bmk/bmk_" + rf + "/agg_" + rf + ".json"), r.toString());
    }
    Files.writeString(run.resolve("run.json"), "{\"points\": []}");
    Files.createDirectories(run.resolve("results_bmk"));
    Files.writeString(run.resolve("results_bmk/agg_bmk.json"), "[" + r1 + "," + r2 + "]");

    AggregateRows.Loaded loaded = AggregateRows.load(List.of(run));
    assertThat(loaded.rows()).extracting(r -> r.row().conc()).containsExactly(1, 2);
    assertThat(loaded.rows()).allSatisfy(r -> assertThat(r.file().getParent().getParent()).isEqualTo(run.resolve("points")));
    assertThat(loaded.invalid()).isEmpty();

    // a downloaded CI run (no run.json): its collected file only
    Files.delete(run.resolve("run.json"));
    assertThat(AggregateRows.load(List.of(run)).rows()).extracting(r -> r.row().conc()).containsExactly(1, 2);
    assertThat(AggregateRows.load(List.of(run)).rows()).allSatisfy(r ->
        assertThat(r.file()).isEqualTo(run.resolve("results_bmk/agg_bmk.json")));
  }
}
