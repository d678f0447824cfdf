package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CollectorTest {

  @TempDir Path dir;

  private ObjectNode row(int conc, String dpAttention) throws Exception {
    JsonNode raw = Json.mapper().readTree("{\"model_id\": \"m\", \"max_concurrency\": " + conc
        + ", \"total_token_throughput\": 80.0, \"output_throughput\": 40.0,"
        + " \"mean_ttft_ms\": 20.0, \"mean_tpot_ms\": 5.0}");
    RunIdentity id = RunIdentity.builder().from(NormalizerTest.singleNode(8, 1, 1))
        .topology(SingleNodeTopology.builder()
            .parallelism(Parallelism.of(8, 1)).dpAttention(dpAttention).build())
        .build();
    ObjectNode o = Normalizer.reference().normalize(raw, id).toJson();
    o.put("power_metric_schema_version", 2);
    o.put("power_valid", 0);
    return o;
  }

  private void write(String rel, String text) throws IOException {
    Path p = dir.resolve(rel);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  @BeforeEach
  void layout() throws Exception {
    write("bmk_b/agg_b.json", row(8, "false").toString());
    write("bmk_a/agg_a.json", row(4, "false").toString());
    write("bmk_c/agg_c.json", row(4, "false").toString());                 // duplicate of a
    write("bmk_d/agg_d.json", row(16, "True").toString());                 // invalid dp_attention
    write("bmk_agentic_x/x.json", "{\"hw\": \"h200\", \"conc\": 4, \"image\": \"i\","
        + " \"model\": \"m\", \"infmax_model_prefix\": \"p\", \"framework\": \"vllm\","
        + " \"precision\": \"fp8\", \"spec_decoding\": \"none\", \"scenario_type\": \"agentic-coding\"}");
    write("bmk_e/list.json", "[" + row(32, "false") + "]");
    write("bmk_f/empty.json", "");
    write("bmk_g/broken.json", "{\"hw\": ");
    write("bmk_h/notes.txt", "not json");
  }

  @Test
  void collectsEveryJsonFileInSortedOrderLikeTheReference() {
    Collector.Report r = Collector.collect(dir, Set.of());
    assertThat(r.entries().stream().map(Collector.Entry::source).collect(Collectors.toList()))
        .containsExactly("bmk_a/agg_a.json", "bmk_agentic_x/x.json", "bmk_b/agg_b.json",
            "bmk_c/agg_c.json", "bmk_d/agg_d.json", "bmk_e/list.json");
    ArrayNode all = r.allRows();
    assertThat(all).hasSize(6);
    assertThat(all.get(5).isArray()).as("a list file is one nested element").isTrue();
    assertThat(r.skipped().stream().map(Collector.Skipped::source))
        .containsExactly("bmk_f/empty.json", "bmk_g/broken.json");
    assertThat(r.skipped().get(1).reason()).contains("line 1");
    assertThat(r.agenticRows()).isEqualTo(1);
  }

  @Test
  void reportsInvalidRowsAndDuplicatesByNaturalKey() {
    Collector.Report r = Collector.collect(dir, Set.of());
    assertThat(r.invalid().stream().map(Collector.Entry::source))
        .containsExactly("bmk_d/agg_d.json", "bmk_e/list.json");
    assertThat(r.invalid().get(0).violations().get(0).render())
        .contains("/dp_attention").contains("\"True\"");
    assertThat(r.duplicates()).hasSize(1);
    assertThat(r.duplicates().get(0).sources()).containsExactly("bmk_a/agg_a.json", "bmk_c/agg_c.json");
    assertThat(r.duplicates().get(0).key().describe()).contains("conc=4").contains("hw=h200");
  }

  @Test
  void strictKeepsOnlyValidFirstSeenRowsAndExplainsEveryReject() throws Exception {
    Collector.Report r = Collector.collect(dir, Set.of());
    ArrayNode accepted = r.acceptedRows();
    assertThat(accepted).hasSize(3); // a, agentic x, b
    List<Collector.Reject> rejects = r.rejects();
    assertThat(rejects.stream().map(Collector.Reject::source)).containsExactly(
        "bmk_f/empty.json", "bmk_g/broken.json", "bmk_c/agg_c.json", "bmk_d/agg_d.json",
        "bmk_e/list.json");
    assertThat(rejects.get(2).errors()).containsExactly(
        "duplicate of the row from bmk_a/agg_a.json (same natural key)");
    Path out = dir.resolve("out/rejected_rows.json");
    Collector.writeRejects(out, rejects);
    JsonNode written = Json.mapper().readTree(out.toFile());
    assertThat(written).hasSize(5);
    assertThat(written.get(0).has("row")).isFalse();
    assertThat(written.get(3).get("row").get("dp_attention").textValue()).isEqualTo("True");
  }

  @Test
  void theOutputFileIsNotCollectedIntoItself() throws Exception {
    Path out = dir.resolve("agg_bmk.json");
    Collector.write(out, Collector.collect(dir, Set.of(out)).allRows());
    Collector.Report again = Collector.collect(dir, Set.of(out));
    assertThat(again.entries()).hasSize(6);
    assertThat(Json.mapper().readTree(out.toFile())).hasSize(6);
  }

  @Test
  void referenceRowsFromTheCorpusAreValid() throws Exception {
    assertThat(AggregateSchema.validate(row(4, "false"))).isEmpty();
    ObjectNode custom = row(4, "false");
    custom.put("custom_latency", 0.5);
    assertThat(AggregateSchema.validate(custom)).singleElement()
        .satisfies(v -> assertThat(v.ruleId()).isEqualTo("aggregate.unknown-key"));
    ObjectNode fingerprint = row(4, "false");
    fingerprint.put("recipe_fingerprint", "ABC");
    assertThat(AggregateSchema.validate(fingerprint)).singleElement()
        .satisfies(v -> assertThat(v.ruleId()).isEqualTo("aggregate.recipe-fingerprint"));
  }

  /** The schema accepts every corpus aggregate; only deliberately unusual raw keys are flagged. */
  @org.junit.jupiter.api.TestFactory
  java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> corpusAggregatesPassTheSchema()
      throws IOException {
    return SharedCorpus.successCases("results", c -> () -> {
      Path expected = c.resolve("expected.json");
      List<io.infx.core.Violation> v = AggregateSchema.validate(Json.mapper().readTree(expected.toFile()));
      assertThat(v).allSatisfy(x -> assertThat(x.ruleId()).isEqualTo("aggregate.unknown-key"));
      if (!c.getFileName().toString().contains("generic-ms-and-tpot")) {
        assertThat(v).isEmpty();
      }
    });
  }
}
