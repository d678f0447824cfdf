package io.infx.results.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.InfxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgenticAggregatorTest {

  @TempDir Path tmp;

  private final Map<String, String> env = new HashMap<>(Map.of(
      "KV_OFFLOADING", "none", "TP", "2", "CONC", "3", "FRAMEWORK", "vllm", "MODEL", "org/m"));

  private static String record(String conv, int turn, long startMs, long endMs, int isl, int osl, String extra) {
    return "{\"metadata\":{\"conversation_id\":\"" + conv + "\",\"turn_index\":" + turn
        + ",\"request_start_ns\":" + startMs * 1_000_000L + ",\"request_end_ns\":" + endMs * 1_000_000L
        + ",\"benchmark_phase\":\"profiling\"},\"metrics\":{\"input_sequence_length\":{\"value\":" + isl
        + "},\"output_sequence_length\":{\"value\":" + osl + "},\"request_latency\":{\"value\":"
        + (endMs - startMs) + "}" + extra + "},\"error\":null}";
  }

  private Path results(List<String> records, String aiperf, String serverMetrics) throws Exception {
    Path art = tmp.resolve("r/results/aiperf_artifacts");
    Files.createDirectories(art);
    Files.write(art.resolve("profile_export.jsonl"), records);
    if (aiperf != null) {
      Files.writeString(art.resolve("profile_export_aiperf.json"), aiperf);
    }
    if (serverMetrics != null) {
      Files.writeString(art.resolve("server_metrics_export.json"), serverMetrics);
    }
    env.putIfAbsent("HF_HUB_CACHE", tmp.resolve("no-cache").toString());
    return tmp.resolve("r/results");
  }

  @Test
  void qpsWindowsAndThroughputPerGpu() throws Exception {
    // spec §7 #9 and #10: completions at 10.0, 10.2, 10.9, 11.5, 12.0, 13.7 s; first start 9.5 s
    long[] ends = {10_000, 10_200, 10_900, 11_500, 12_000, 13_700};
    List<String> recs = new java.util.ArrayList<>();
    for (int i = 0; i < ends.length; i++) {
      recs.add(record("t", i, i == 0 ? 9_500 : ends[i] - 50, ends[i], 100, 10, ""));
    }
    env.put("TP", "4");
    env.put("PP_SIZE", "2");
    JsonNode agg = AgenticAggregator.aggregate(results(recs, null, null), env).toJson();
    JsonNode qps = agg.at("/request_metrics/qps");
    assertThat(qps.get("samples").asInt()).isEqualTo(3);
    assertThat(qps.get("mean").asDouble()).isEqualTo(1.66667);
    assertThat(qps.get("p90").asDouble()).isEqualTo(2.6);
    JsonNode tput = agg.at("/request_metrics/throughput");
    assertThat(tput.at("/duration_seconds").asDouble()).isEqualTo(4.2);
    assertThat(tput.at("/input/tokens_per_second").asDouble()).isEqualTo(142.85714); // 600 / 4.2
    assertThat(tput.at("/per_gpu/input_tput_tps").asDouble()).isEqualTo(17.85714); // / (4 x 2)
  }

  @Test
  void qpsShortSpanAndIdenticalEnds() throws Exception {
    List<String> shortSpan = List.of(record("a", 0, 0, 1000, 1, 1, ""), record("a", 1, 0, 1500, 1, 1, ""));
    JsonNode qps = AgenticAggregator.aggregate(results(shortSpan, null, null), env).toJson().at("/request_metrics/qps");
    assertThat(qps.toString()).isEqualTo("{\"window_seconds\":1,\"samples\":0,\"mean\":4}");
  }

  @Test
  void identicalEndsGiveNoQps() throws Exception {
    List<String> same = List.of(record("a", 0, 0, 1000, 1, 1, ""), record("a", 1, 0, 1000, 1, 1, ""));
    JsonNode qps = AgenticAggregator.aggregate(results(same, null, null), env).toJson().at("/request_metrics/qps");
    assertThat(qps.isEmpty()).isTrue();
  }

  @Test
  void theoreticalCacheHitRate() throws Exception {
    // spec §7 #15
    List<String> one = List.of(record("a", 0, 0, 1000, 1, 1, ""));
    String[][] cases = {
        {"{\"theoretical_prefix_cache_hit\":{\"unit\":\"%\",\"avg\":40,\"sum\":2,\"count\":5}}", "0.4"},
        {"{\"theoretical_prefix_cache_hit\":{\"unit\":\"%\",\"avg\":25}}", "0.25"},
        {"{\"theoretical_prefix_cache_hit\":{\"avg\":0.3}}", "0.3"},
        {"{}", "null"},
    };
    for (String[] c : cases) {
      JsonNode agg = AgenticAggregator.aggregate(results(one, c[0], null), env).toJson();
      assertThat(agg.at("/request_metrics/cache/theoretical_cache_hit_rate").toString()).as(c[0]).isEqualTo(c[1]);
    }
  }

  @Test
  void expectedOutputsComeFromTheNewestHfSnapshot() throws Exception {
    Path snap = tmp.resolve("hf/datasets--semianalysisai--cc-traces-weka-062126/snapshots/abc");
    Files.createDirectories(snap);
    Files.writeString(snap.resolve("traces.jsonl"),
        "{\"id\":\"t1\",\"requests\":[{\"type\":\"s\",\"out\":40},"
            + "{\"type\":\"subagent\",\"requests\":[{\"type\":\"n\",\"out\":999}]},{\"type\":\"n\",\"out\":60}]}\n");
    env.put("HF_HUB_CACHE", tmp.resolve("hf").toString());
    List<String> recs = List.of(
        record("t1", 0, 0, 1000, 1, 1, ""),
        record("t1::sa:subagent_001", 1, 0, 2000, 1, 1, ""), // indexes the parent's turn 1 (quirk)
        record("t1", 5, 0, 3000, 1, 1, ""), // no such turn: skipped
        record("other", 0, 0, 4000, 1, 1, ""));
    JsonNode exp = AgenticAggregator.aggregate(results(recs, null, null), env).toJson()
        .at("/request_metrics/tokens/output_expected");
    assertThat(exp.get("mean").asInt()).isEqualTo(50);
    assertThat(exp.get("p95").asDouble()).isEqualTo(59);
  }

  @Test
  void atomMetrics() throws Exception {
    env.put("FRAMEWORK", "atom");
    String metrics = "{\"metrics\":{"
        + "\"atom:prompt_tokens_total\":{\"series\":[{\"stats\":{\"total\":1000.0}}]},"
        + "\"atom_generation_tokens\":{\"series\":[{\"stats\":{\"total\":100.4}}]},"
        + "\"atom:prefix_cache_cached_tokens\":{\"series\":[{\"stats\":{\"total\":600.0}}]},"
        + "\"atom:prefix_cache_full_tokens\":{\"series\":[{\"stats\":{\"total\":1000.0}}]},"
        + "\"atom:lmcache_loaded_tokens\":{\"series\":[{\"stats\":{\"total\":100.0}}]},"
        + "\"atom:kv_cache_usage_ratio\":{\"series\":[{\"stats\":{\"max\":0.5}}]}}}";
    JsonNode sm = AgenticAggregator.aggregate(
        results(List.of(record("a", 0, 0, 1000, 1, 1, "")), null, metrics), env).toJson().get("server_metrics");
    assertThat(sm.get("adapter").asText()).isEqualTo("atom");
    assertThat(sm.at("/cache/gpu_cache_hit_rate").asDouble()).isEqualTo(0.6);
    assertThat(sm.at("/cache/overall_cache_hit_rate").asDouble()).isEqualTo(0.6);
    assertThat(sm.at("/cache/external_cache_hit_rate").asDouble()).isEqualTo(0.1);
    assertThat(sm.at("/kv_cache/gpu_usage_pct").asDouble()).isEqualTo(0.5);
    assertThat(sm.at("/tokens/prompt_total").asLong()).isEqualTo(1000);
    assertThat(sm.at("/tokens/generation_total").asLong()).isEqualTo(100);
  }

  @Test
  void environmentErrorsUseTheReferenceMessages() throws Exception {
    Path dir = results(List.of(record("a", 0, 0, 1000, 1, 1, "")), null, null);
    env.remove("KV_OFFLOADING");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("Missing required environment variable: KV_OFFLOADING");
    env.put("KV_OFFLOADING", "none");
    env.put("KV_OFFLOAD_BACKEND", "lmcache");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("KV_OFFLOAD_BACKEND must be empty when KV_OFFLOADING=none");
    env.put("KV_OFFLOADING", "dram");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("KV_OFFLOAD_BACKEND is required when KV_OFFLOADING is enabled");
    env.put("KV_OFFLOAD_BACKEND_METADATA", "{\"name\": \"other\"}");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("KV_OFFLOAD_BACKEND must match KV_OFFLOAD_BACKEND_METADATA.name");
    env.put("KV_OFFLOAD_BACKEND_METADATA", "{not json");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("KV_OFFLOAD_BACKEND_METADATA must contain valid JSON");
    env.put("KV_OFFLOAD_BACKEND_METADATA", "{\"name\": \"lmcache\", \"extra\": 1}");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("KV_OFFLOAD_BACKEND_METADATA may contain only 'name' and 'version'");
    env.put("KV_OFFLOAD_BACKEND_METADATA", "{\"name\": \"lmcache\"}");
    env.put("ROUTER_METADATA", "{\"name\": \"r\"}");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("ROUTER_METADATA must contain exactly 'name' and 'version'");
    env.remove("ROUTER_METADATA");
    env.put("PP_SIZE", "0");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessage("PP_SIZE, DCP_SIZE, and PCP_SIZE must be positive integers.");
    env.put("PP_SIZE", "x");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env)).hasMessage("PP_SIZE must be an integer, got 'x'");
  }

  @Test
  void missingRecordsAndBadLinesAreLocatedErrors() throws Exception {
    assertThatThrownBy(() -> AgenticAggregator.aggregate(Path.of("nope"), env, tmp))
        .isInstanceOf(InfxException.class)
        .hasMessage("nope/aiperf_artifacts/profile_export.jsonl not found");
    Path dir = results(List.of(record("a", 0, 0, 1000, 1, 1, ""), "", "{\"metadata\": oops}"), null, null);
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .hasMessageContaining("profile_export.jsonl:3:").hasMessageContaining("invalid JSON record");
  }

  @Test
  void provenanceIsAppendedAfterTheReferenceKeysAndMarksTheSimulator() throws Exception {
    List<String> recs = List.of(record("t", 0, 9_500, 10_000, 100, 10, ""));
    AgenticAggregate plain = AgenticAggregator.aggregate(results(recs, null, null), env);
    assertThat(plain.toJson().has("simulated")).isFalse(); // AIPerf exports carry no provenance
    assertThat(plain.server()).isEmpty();

    AgenticAggregate sim = plain.withServer(io.infx.core.provenance.ServerProvenance.simulator("1.2"));
    JsonNode j = sim.toJson();
    List<String> keys = new java.util.ArrayList<>();
    j.fieldNames().forEachRemaining(keys::add);
    assertThat(keys.subList(keys.size() - 3, keys.size()))
        .containsExactly("server_engine", "server_version", "simulated");
    assertThat(j.get("simulated").booleanValue()).isTrue();
    assertThat(j.get("server_engine").textValue()).isEqualTo("infx-sim");
    assertThat(sim.server()).hasValueSatisfying(p -> assertThat(p.simulated()).isTrue());

    JsonNode real = plain.withServer(io.infx.core.provenance.ServerProvenance.of("vllm", "0.11", "t")).toJson();
    assertThat(real.get("simulated").booleanValue()).isFalse();
    assertThat(plain.toJson().has("simulated")).as("withServer copies").isFalse();
  }

  @Test
  void theValidityStampIsCarriedIntoTheAggregate() throws Exception {
    List<String> recs = List.of(record("t", 0, 9_500, 10_000, 100, 10, ""));
    AgenticAggregate invalid = AgenticAggregator.aggregate(results(recs,
        "{\"metadata\":{\"submission_valid\":false,\"submission_invalid_reasons\":[\"unsafe_override\",\"run_cancelled\"]}}",
        null), env);
    assertThat(invalid.toJson().get("submission_valid").booleanValue()).isFalse();
    assertThat(invalid.submissionValid()).contains(false);
    assertThat(invalid.submissionInvalidReasons()).containsExactly("unsafe_override", "run_cancelled");

    AgenticAggregate valid = AgenticAggregator.aggregate(results(recs,
        "{\"metadata\":{\"submission_valid\":true,\"submission_invalid_reasons\":[]}}", null), env);
    assertThat(valid.submissionValid()).contains(true);
    assertThat(valid.submissionInvalidReasons()).isEmpty();

    // AIPerf without a scenario stamps nothing: the aggregate stays the reference's
    AgenticAggregate none = AgenticAggregator.aggregate(results(recs, "{}", null), env);
    assertThat(none.toJson().has("submission_valid")).isFalse();
    assertThat(none.submissionValid()).isEmpty();

    assertThatThrownBy(() -> AgenticAggregator.aggregate(results(recs,
        "{\"metadata\":{\"submission_valid\":\"yes\"}}", null), env))
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("metadata.submission_valid must be true or false");
  }

  @Test
  void missingRequiredVariablesAreAllNamed() throws Exception {
    Path dir = results(List.of(record("a", 0, 0, 1000, 1, 1, "")), null, null);
    env.remove("MODEL");
    env.remove("CONC");
    assertThatThrownBy(() -> AgenticAggregator.aggregate(dir, env))
        .isInstanceOf(InfxException.class)
        .hasMessage("Missing required environment variables: MODEL, CONC");
  }
}
