package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.json.Json;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed library API: identity built in code, no environment involved. */
class NormalizerTest {

  private static JsonNode json(String text) throws Exception {
    return Json.mapper().readTree(text);
  }

  static RunIdentity singleNode(int tp, int pp, int pcp) {
    return RunIdentity.builder()
        .hw("h200").image("vllm/vllm-openai:v0.27.1").modelPrefix("dsr1").framework("vllm")
        .precision("fp8").specDecoding("none").disagg(false).isl(1024).osl(1024)
        .topology(SingleNodeTopology.of(
            Parallelism.builder().tp(tp).pp(pp).pcpSize(pcp).dcpSize(2).ep(1).build(), false))
        .build();
  }

  private static final String RAW = "{\"model_id\": \"m/x\", \"max_concurrency\": 8,"
      + " \"completed\": 80, \"total_token_throughput\": 1600, \"output_throughput\": 800.0,"
      + " \"mean_ttft_ms\": 250, \"mean_tpot_ms\": 8.0, \"p99.9_e2el_ms\": 1500.0,"
      + " \"duration\": 12.0}";

  @Test
  void singleNodeThroughputIsPerTpTimesPpTimesPcpGpus() throws Exception {
    AggregateRow row = Normalizer.reference().normalize(json(RAW), singleNode(4, 2, 2));
    // 4 × 2 × 2 = 16 GPUs; DCP (2) does not add GPUs.
    assertThat(row.tputPerGpu()).isEqualTo(100.0);
    assertThat(row.outputTputPerGpu()).isEqualTo(50.0);
    assertThat(row.inputTputPerGpu()).isEqualTo(50.0);
    assertThat(row.conc()).isEqualTo(8);
    assertThat(row.model()).isEqualTo("m/x");
    assertThat(row.metrics()).containsExactly(
        org.assertj.core.api.Assertions.entry("mean_ttft", 0.25),
        org.assertj.core.api.Assertions.entry("mean_tpot", 0.008),
        org.assertj.core.api.Assertions.entry("mean_intvty", 125.0),
        org.assertj.core.api.Assertions.entry("p99.9_e2el", 1.5));
  }

  @Test
  void jsonHasReferenceKeyOrderAndTypes() throws Exception {
    ObjectNode o = Normalizer.reference().normalize(json(RAW), singleNode(8, 1, 1)).toJson();
    List<String> keys = new ArrayList<>();
    o.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("hw", "conc", "image", "model", "infmax_model_prefix",
        "framework", "precision", "spec_decoding", "disagg", "recipe_fingerprint", "isl", "osl",
        "is_multinode", "tp", "pp", "dcp_size", "pcp_size", "ep", "dp_attention", "tput_per_gpu",
        "output_tput_per_gpu", "input_tput_per_gpu", "mean_ttft", "mean_tpot", "mean_intvty",
        "p99.9_e2el");
    assertThat(o.get("conc").isInt()).isTrue();
    assertThat(o.get("disagg").isBoolean()).isTrue();
    assertThat(o.get("dp_attention").textValue()).isEqualTo("false");
    // whole computed values stay floats
    assertThat(o.get("tput_per_gpu").isDouble()).isTrue();
    assertThat(o.get("p99.9_e2el").isDouble()).isTrue();
    assertThat(Normalizer.reference().normalize(json(RAW), singleNode(8, 1, 1)).toJsonText())
        .contains("\"tput_per_gpu\": 200.0,").contains("\"isl\": 1024,");
  }

  @Test
  void multiNodeDenominatorsArePerRole() throws Exception {
    RunIdentity id = RunIdentity.builder()
        .hw("gb200").image("img").modelPrefix("dsr1").framework("dynamo-sglang")
        .precision("fp8").specDecoding("none").disagg(true).isl(1024).osl(1024)
        .topology(MultiNodeTopology.builder()
            .prefill(Parallelism.of(4, 4)).prefillDpAttention("true").prefillNumWorkers(2)
            .decode(Parallelism.of(16, 16)).decodeDpAttention("true").decodeNumWorkers(1)
            .prefillGpus(8).decodeGpus(16)
            .prefillHardware("gb300").decodeHardware("gb200")
            .build())
        .build();
    AggregateRow row = Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 32, \"total_token_throughput\": 2400.0,"
            + " \"output_throughput\": 1600.0}"), id);
    assertThat(row.tputPerGpu()).isEqualTo(100.0);        // 2400 / 24
    assertThat(row.outputTputPerGpu()).isEqualTo(100.0);  // 1600 / 16 decode GPUs
    assertThat(row.inputTputPerGpu()).isEqualTo(100.0);   // 800 / 8 prefill GPUs
    List<String> keys = new ArrayList<>();
    row.toJson().fieldNames().forEachRemaining(keys::add);
    assertThat(keys).endsWith("tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu",
        "prefill_hw", "decode_hw");
  }

  @Test
  void aggregatePointWithoutDecodeGpusSpreadsOutputOverAllAndZeroesDecodeSizes() throws Exception {
    RunIdentity id = RunIdentity.builder()
        .hw("gb300").image("img").modelPrefix("dsv4").framework("dynamo-sglang")
        .precision("fp4").specDecoding("none").disagg(false).isl(1024).osl(1024)
        .topology(MultiNodeTopology.builder()
            .prefill(Parallelism.of(8, 8)).prefillDpAttention("true").prefillNumWorkers(2)
            .decode(Parallelism.builder().tp(8).pp(2).ep(1).build()).decodeDpAttention("false")
            .decodeNumWorkers(0).prefillGpus(16).decodeGpus(0)
            .build())
        .build();
    ObjectNode o = Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 16, \"total_token_throughput\": 3200.0,"
            + " \"output_throughput\": 1600.0}"), id).toJson();
    assertThat(o.get("output_tput_per_gpu").doubleValue()).isEqualTo(100.0);
    assertThat(o.get("decode_tp").intValue()).isZero();
    assertThat(o.get("decode_pp").intValue()).isEqualTo(1);
    assertThat(o.get("decode_ep").intValue()).isZero();
    assertThat(o.get("decode_dp_attention").textValue()).isEqualTo("false");
  }

  @Test
  void genericKeyRulesReplaceEveryMsOccurrenceAndFireTpotWithoutMsSuffix() throws Exception {
    AggregateRow row = Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 1, \"total_token_throughput\": 8.0,"
            + " \"output_throughput\": 4.0, \"a_ms_b_ms\": 2000, \"tpot_at_64\": 12.5,"
            + " \"items\": 3000, \"completed\": 9}"), singleNode(1, 1, 1));
    assertThat(row.metrics()).containsOnlyKeys("a_b", "intvty_at_64", "items");
    assertThat(row.metrics().get("a_b")).isEqualTo(2.0);
    assertThat(row.metrics().get("intvty_at_64")).isEqualTo(80.0);
    assertThat(row.metrics().get("items")).isEqualTo(3.0);
  }

  @Test
  void zeroTpotFailsLikeTheReferenceOrIsSkippedWithGuards() throws Exception {
    JsonNode raw = json("{\"model_id\": \"m\", \"max_concurrency\": 4,"
        + " \"total_token_throughput\": 8.0, \"output_throughput\": 0.0, \"mean_tpot_ms\": 0.0,"
        + " \"mean_ttft_ms\": 0.0}");
    assertThatThrownBy(() -> Normalizer.reference().normalize(raw, singleNode(1, 1, 1)))
        .isInstanceOfSatisfying(ResultsException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.DIVISION_BY_ZERO))
        .hasMessageContaining("mean_tpot_ms");
    AggregateRow guarded = Normalizer.of(NormalizerOptions.reference().withMetricGuards(true))
        .normalize(raw, singleNode(1, 1, 1));
    assertThat(guarded.metrics()).containsOnlyKeys("mean_tpot", "mean_ttft");
  }

  @Test
  void badRawValuesAreClassified() throws Exception {
    RunIdentity id = singleNode(1, 1, 1);
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": null, \"total_token_throughput\": 1,"
            + " \"output_throughput\": 1}"), id), ErrorKind.INVALID_RAW_VALUE, "null");
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 4.5, \"total_token_throughput\": 1,"
            + " \"output_throughput\": 1}"), id), ErrorKind.INVALID_RAW_VALUE, "4.5");
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"max_concurrency\": 4, \"total_token_throughput\": 1, \"output_throughput\": 1}"), id),
        ErrorKind.MISSING_RAW_FIELD, "model_id");
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 4, \"output_throughput\": 1}"), id),
        ErrorKind.MISSING_RAW_FIELD, "total_token_throughput");
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 4, \"total_token_throughput\": 1,"
            + " \"output_throughput\": 1, \"mean_ttft_ms\": \"fast\"}"), id),
        ErrorKind.INVALID_RAW_VALUE, "mean_ttft_ms");
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 4, \"total_token_throughput\": 1,"
            + " \"output_throughput\": 1, \"mean_ttft_ms\": NaN}"), id),
        ErrorKind.INVALID_RAW_VALUE, "non-finite");
    assertKind(() -> Normalizer.reference().normalize(json(
        "{\"model_id\": \"m\", \"max_concurrency\": 4, \"total_token_throughput\": 1,"
            + " \"output_throughput\": 1, \"conc_ms\": 5}"), id),
        ErrorKind.INVALID_RAW_VALUE, "'conc'");
    assertKind(() -> Normalizer.reference().normalize(json("[1, 2]"), id),
        ErrorKind.INVALID_RAW_VALUE, "JSON object");
  }

  @Test
  void typedTopologyChecksUseTheReferenceMessages() {
    assertKind(() -> SingleNodeTopology.of(Parallelism.builder().tp(8).pcpSize(0).ep(1).build(), false),
        ErrorKind.INVALID_TOPOLOGY, "PP_SIZE, DCP_SIZE, and PCP_SIZE must be positive integers.");
    assertKind(() -> RunIdentity.builder()
            .hw("h").image("i").modelPrefix("p").framework("f").precision("fp8")
            .specDecoding("none").disagg(true).isl(1).osl(1)
            .topology(SingleNodeTopology.of(Parallelism.of(8, 1), false)).build(),
        ErrorKind.INVALID_TOPOLOGY, "Disaggregated mode requires multinode setup.");
    assertKind(() -> MultiNodeTopology.builder()
            .prefill(Parallelism.of(4, 4)).prefillDpAttention("true").prefillNumWorkers(1)
            .decode(Parallelism.of(4, 4)).decodeDpAttention("true").decodeNumWorkers(1)
            .prefillGpus(0).decodeGpus(8).build(),
        ErrorKind.INVALID_TOPOLOGY, "Multinode results require at least one prefill GPU.");
    assertKind(() -> MultiNodeTopology.builder()
            .prefill(Parallelism.of(4, 4)).prefillDpAttention("true").prefillNumWorkers(1)
            .decode(Parallelism.of(4, 4)).decodeDpAttention("true").decodeNumWorkers(1)
            .prefillGpus(4).decodeGpus(4).prefillHardware("gb300").build(),
        ErrorKind.INVALID_TOPOLOGY, "must be specified together");
    assertKind(() -> SingleNodeTopology.of(Parallelism.of(0, 1), false),
        ErrorKind.INVALID_TOPOLOGY, "TP must be a positive integer");
  }

  @Test
  void componentMetadataParsingFollowsTheReference() {
    assertThat(ComponentMetadata.parse("ROUTER_METADATA", "")).isEmpty();
    assertThat(ComponentMetadata.parse("ROUTER_METADATA", "null")).isEmpty();
    assertThat(ComponentMetadata.parse("ROUTER_METADATA", null)).isEmpty();
    assertThat(ComponentMetadata.parse("R", "{\"version\": \"1\", \"name\": \"r\"}").orElseThrow()
        .toJson().toString()).isEqualTo("{\"version\":\"1\",\"name\":\"r\"}");
    assertKind(() -> ComponentMetadata.parse("R", "{name: r}"),
        ErrorKind.INVALID_COMPONENT_METADATA, "R must contain valid JSON");
    assertKind(() -> ComponentMetadata.parse("R", "[1]"),
        ErrorKind.INVALID_COMPONENT_METADATA, "R must contain exactly 'name' and 'version'");
    assertKind(() -> ComponentMetadata.parse("R", "{\"name\": \"\", \"version\": \"1\"}"),
        ErrorKind.INVALID_COMPONENT_METADATA, "R name and version must be non-empty strings");
  }

  @Test
  void benchmarkOutcomeIsRecheckedAndPublishedWithTheNewerGuards() throws Exception {
    String base = "{\"model_id\": \"m\", \"max_concurrency\": 4, \"num_prompts\": 40,"
        + " \"completed\": 36, \"total_token_throughput\": 8.0, \"output_throughput\": 4.0,"
        + " \"benchmark_outcome\": {\"status\": \"%s\", \"requested\": 40, \"completed\": 36,"
        + " \"failed\": 4, \"max_failure_rate\": 0.05}}";
    Normalizer newer = Normalizer.of(NormalizerOptions.reference().withCheckBenchmarkOutcome(true));
    // 4 of 40 failed = 10 % > 5 %: failed
    AggregateRow row = newer.normalize(json(String.format(base, "failed")), singleNode(1, 1, 1));
    assertThat(row.benchmarkOutcome()).map(BenchmarkOutcome::isFailed).contains(true);
    List<String> keys = new ArrayList<>();
    row.toJson().fieldNames().forEachRemaining(keys::add);
    assertThat(keys.get(keys.indexOf("osl") + 1)).isEqualTo("benchmark_outcome");
    assertKind(() -> newer.normalize(json(String.format(base, "passed")), singleNode(1, 1, 1)),
        ErrorKind.INVALID_RAW_VALUE, "does not match");
    assertThat(Normalizer.reference().normalize(json(String.format(base, "passed")),
        singleNode(1, 1, 1)).benchmarkOutcome()).isEmpty();
  }

  @Test
  void upstreamModeRejectsAResultWithoutOutputTokens() throws Exception {
    // 40 of 40 completed ("passed"), but every answer was empty: no decode was measured
    String empty = "{\"model_id\": \"m\", \"max_concurrency\": 4, \"num_prompts\": 40, \"completed\": 40,"
        + " \"total_output_tokens\": 0, \"total_token_throughput\": 3031.58, \"output_throughput\": 0.0,"
        + " \"mean_ttft_ms\": 37.4, \"mean_tpot_ms\": 0.0, \"mean_itl_ms\": 12.6,"
        + " \"benchmark_outcome\": {\"status\": \"passed\", \"requested\": 40, \"completed\": 40,"
        + " \"failed\": 0, \"max_failure_rate\": 0.05}}";
    Normalizer upstream = Normalizer.of(NormalizerOptions.upstreamGuards());
    assertKind(() -> upstream.normalize(json(empty), singleNode(1, 1, 1)),
        ErrorKind.INVALID_RAW_VALUE, "no output tokens (total_output_tokens is 0) although 40 requests completed");
    // without total_output_tokens, a zero output throughput says the same
    String noCount = "{\"model_id\": \"m\", \"max_concurrency\": 4, \"total_token_throughput\": 100,"
        + " \"output_throughput\": 0}";
    assertKind(() -> upstream.normalize(json(noCount), singleNode(1, 1, 1)),
        ErrorKind.INVALID_RAW_VALUE, "output_throughput is 0");
    // a result with output passes; the reference normalizer keeps its own behaviour (corpus case 032)
    assertThat(upstream.normalize(json(RAW), singleNode(1, 1, 1)).outputTputPerGpu()).isEqualTo(800.0);
    assertThat(NormalizerOptions.reference().requireOutputTokens()).isFalse();
    assertKind(() -> Normalizer.reference().normalize(json(empty), singleNode(1, 1, 1)),
        ErrorKind.DIVISION_BY_ZERO, "division by zero");
  }

  static void assertKind(org.assertj.core.api.ThrowableAssert.ThrowingCallable call,
      ErrorKind kind, String fragment) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(ResultsException.class,
            e -> assertThat(e.kind()).as(e.getMessage()).isEqualTo(kind))
        .hasMessageContaining(fragment);
  }

  @Test
  void serverProvenanceOfTheRawResultBecomesThreeTrailingKeys() throws Exception {
    AggregateRow plain = Normalizer.reference().normalize(json(RAW), singleNode(1, 1, 1));
    assertThat(plain.server()).isEmpty();
    assertThat(plain.toJson().has("server_engine")).as("reference raw: reference keys only").isFalse();
    assertThat(plain.toJson().has("simulated")).isFalse();

    String withServer = RAW.substring(0, RAW.length() - 1)
        + ", \"infx\": {\"server\": {\"engine\": \"llamacpp\", \"version\": \"b1-de3ff81\","
        + " \"simulated\": false, \"source\": \"/v1/models owned_by\"}}}";
    com.fasterxml.jackson.databind.node.ObjectNode agg =
        Normalizer.reference().normalize(json(withServer), singleNode(1, 1, 1)).toJson();
    java.util.List<String> keys = new java.util.ArrayList<>();
    agg.fieldNames().forEachRemaining(keys::add);
    assertThat(keys.subList(keys.size() - 3, keys.size()))
        .containsExactly("server_engine", "server_version", "simulated");
    assertThat(agg.get("server_engine").textValue()).isEqualTo("llama.cpp");
    assertThat(agg.get("server_version").textValue()).isEqualTo("b1-de3ff81");
    assertThat(agg.get("simulated").isBoolean()).isTrue();
    assertThat(agg.get("simulated").booleanValue()).isFalse();
    assertThat(AggregateSchema.validate(agg)).isEmpty();

    String lying = withServer.replace("\"simulated\": false", "\"simulated\": true");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Normalizer.reference().normalize(json(lying), singleNode(1, 1, 1)))
        .isInstanceOf(ResultsException.class).hasMessageContaining("infx.server")
        .hasMessageContaining("simulated=true");

    agg.put("simulated", true);
    assertThat(AggregateSchema.validate(agg)).extracting(io.infx.core.Violation::ruleId)
        .containsExactly("aggregate.simulated");
    agg.remove("server_version");
    assertThat(AggregateSchema.validate(agg)).extracting(io.infx.core.Violation::ruleId)
        .contains("aggregate.value");
  }
}
