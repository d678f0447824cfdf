package io.infx.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportPointsTest {

  @Test
  void fixedRowBecomesAPointWithMillisecondsAndInteractivity() {
    ObjectNode row = SampleRows.fixed("h200", "sglang", 8, 4, 1500.5, 0.040, 0.0025);
    row.put("ep", 8);
    row.put("dp_attention", "true");

    ReportPoints read = ReportPoints.fromAggregates(row);

    assertThat(read.skipped()).isEmpty();
    ReportPoint p = read.points().get(0);
    assertThat(p.workload()).isEqualTo("dsr1 · 1k/1k");
    assertThat(p.config()).isEqualTo("h200 sglang fp8 TP8 EP8 DPA");
    assertThat(p.conc()).isEqualTo(4);
    assertThat(p.tputPerGpu()).isEqualTo(1500.5);
    assertThat(p.outputTputPerGpu()).isEqualTo(750.25);
    assertThat(p.interactivity().getAsDouble()).isCloseTo(400.0, within(1e-9));
    assertThat(p.ttft().get(Percentile.P50).getAsDouble()).isCloseTo(40.0, within(1e-9));
    assertThat(p.ttft().get(Percentile.P99).getAsDouble()).isCloseTo(80.0, within(1e-9));
    assertThat(p.tpot().get(Percentile.P90).getAsDouble()).isCloseTo(3.0, within(1e-9));
    assertThat(p.tpot().get(Percentile.P99_9)).isEmpty();
    assertThat(p.source()).isEqualTo("row 1");
  }

  @Test
  void agenticRowReadsTheNestedRequestMetrics() throws Exception {
    ObjectNode row = (ObjectNode) Json.mapper().readTree("""
        {"hw": "cluster:h200-x", "conc": 16, "infmax_model_prefix": "dsr1", "framework": "vllm",
         "precision": "fp8", "spec_decoding": "none", "disagg": false,
         "scenario_type": "agentic-coding", "is_multinode": false, "tp": 8, "ep": 1,
         "dp_attention": "false", "kv_offloading": "dram",
         "request_metrics": {
           "latency": {"ttft": {"mean": 0.5, "p50": 0.25, "p90": 1.5},
                       "tpot": {"p50": 0.02, "p90": 0.04},
                       "intvty": {"p50": 50}},
           "throughput": {"per_gpu": {"total_tput_tps": 900.5, "output_tput_tps": 40.25}}}}
        """);

    ReportPoint p = ReportPoints.fromAggregates(row).points().get(0);

    assertThat(p.workload()).isEqualTo("dsr1 · AgentX");
    assertThat(p.config()).isEqualTo("cluster:h200-x vllm fp8 TP8 offload dram");
    assertThat(p.tputPerGpu()).isEqualTo(900.5);
    assertThat(p.outputTputPerGpu()).isEqualTo(40.25);
    assertThat(p.interactivity().getAsDouble()).isEqualTo(50.0);
    assertThat(p.ttft().get(Percentile.P50).getAsDouble()).isCloseTo(250.0, within(1e-9));
    assertThat(p.ttft().get(Percentile.P99)).isEmpty();
    assertThat(p.tpot().get(Percentile.P90).getAsDouble()).isCloseTo(40.0, within(1e-9));
  }

  @Test
  void rowsThatCannotBePlottedAreReportedNotDropped() {
    ArrayNode rows = Json.mapper().createArrayNode();
    rows.add(SampleRows.fixed("h200", "sglang", 8, 4, 100, 0.01, 0.002));
    ObjectNode noTput = SampleRows.fixed("h200", "sglang", 8, 8, 100, 0.01, 0.002);
    noTput.remove("tput_per_gpu");
    rows.add(noTput);
    ObjectNode nullConc = SampleRows.fixed("h200", "sglang", 8, 8, 100, 0.01, 0.002);
    nullConc.putNull("conc");
    rows.add(nullConc);
    rows.add("not a row");

    ReportPoints read = ReportPoints.fromAggregates(rows);

    assertThat(read.points()).hasSize(1);
    assertThat(read.skipped()).extracting(ReportProblem::point).containsExactly("row 2", "row 3", "row 4");
    assertThat(read.skipped().get(0).message()).contains("'tput_per_gpu'");
    assertThat(read.skipped().get(1).message()).contains("'conc' must be a positive integer");
    assertThat(read.skipped().get(2).message()).contains("expected an aggregate row");
  }

  @Test
  void collectedArraysWithNestedListsAreFlattened() {
    ArrayNode collected = Json.mapper().createArrayNode();
    collected.add(SampleRows.fixed("h200", "sglang", 8, 1, 100, 0.01, 0.002));
    ArrayNode nested = collected.addArray();
    nested.add(SampleRows.fixed("h200", "sglang", 8, 2, 180, 0.01, 0.002));
    nested.add(SampleRows.fixed("h200", "sglang", 8, 4, 300, 0.01, 0.002));

    assertThat(ReportPoints.fromAggregates(collected).points())
        .extracting(ReportPoint::conc).containsExactly(1, 2, 4);
  }

  @Test
  void configurationsThatShareALabelGetDistinctOnes() {
    ArrayNode rows = Json.mapper().createArrayNode();
    ObjectNode a1 = SampleRows.fixed("h200", "sglang", 8, 1, 100, 0.01, 0.002);
    ObjectNode a2 = SampleRows.fixed("h200", "sglang", 8, 2, 150, 0.01, 0.002);
    ObjectNode b1 = SampleRows.fixed("h200", "sglang", 8, 1, 120, 0.01, 0.002);
    b1.put("image", "img:2");            // same label, different configuration
    rows.add(a1).add(b1).add(a2);

    assertThat(ReportPoints.fromAggregates(rows).points()).extracting(ReportPoint::config)
        .containsExactly("h200 sglang fp8 TP8", "h200 sglang fp8 TP8 (2)", "h200 sglang fp8 TP8");
  }

  @Test
  void readNamesTheFileAndPositionOfBadJson(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("agg_bmk.json");
    Files.writeString(f, "[\n  {\"conc\": 1,,}\n]");
    assertThatThrownBy(() -> ReportPoints.read(f))
        .isInstanceOfSatisfying(InfxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.FILE))
        .hasMessageStartingWith(f + ":2:");
    assertThatThrownBy(() -> ReportPoints.read(dir.resolve("missing.json")))
        .hasMessageContaining("not found").hasMessageContaining("missing.json");
  }
}
