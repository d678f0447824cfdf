package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MultiNodeBatchTest {

  @TempDir Path dir;

  private static Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("RUNNER_TYPE", "gb200");
    env.put("FRAMEWORK", "dynamo-sglang");
    env.put("PRECISION", "fp8");
    env.put("SPEC_DECODING", "none");
    env.put("RESULT_FILENAME", "grp");
    env.put("ISL", "1024");
    env.put("OSL", "1024");
    env.put("DISAGG", "true");
    env.put("MODEL_PREFIX", "dsr1");
    env.put("IMAGE", "img");
    env.put("CONC_LIST", "8 16 32 64");
    env.put("PREFILL_NUM_WORKERS", "2");
    env.put("PREFILL_TP", "4");
    env.put("PREFILL_EP", "4");
    env.put("PREFILL_DP_ATTN", "true");
    env.put("DECODE_NUM_WORKERS", "1");
    env.put("DECODE_TP", "16");
    env.put("DECODE_EP", "16");
    env.put("DECODE_DP_ATTN", "true");
    return env;
  }

  private void raw(String name, int conc) throws Exception {
    Files.writeString(dir.resolve(name), "{\"model_id\": \"m\", \"max_concurrency\": " + conc
        + ", \"total_token_throughput\": 2400.0, \"output_throughput\": 1600.0,"
        + " \"mean_tpot_ms\": 10.0}");
  }

  @Test
  void parsesPointNamesLikeTheWorkflow() {
    MultiNodeBatch.PointName disagg =
        MultiNodeBatch.PointName.parse("grp_1p1d-dep16_conc32_gpus_24_ctx_8_gen_16").orElseThrow();
    assertThat(disagg.concurrency()).isEqualTo(32);
    assertThat(disagg.prefillGpus()).isEqualTo(8);
    assertThat(disagg.decodeGpus()).isEqualTo(16);
    MultiNodeBatch.PointName agg = MultiNodeBatch.PointName.parse("grp_agg_conc16_gpus_16").orElseThrow();
    assertThat(agg.prefillGpus()).isEqualTo(16);
    assertThat(agg.decodeGpus()).isZero();
    assertThat(agg.ctxGpus()).isEqualTo(OptionalInt.empty());
    assertThat(MultiNodeBatch.PointName.parse("grp_concurrency_4_req_rate_inf_gpus_8"))
        .map(MultiNodeBatch.PointName::concurrency).contains(4);
    assertThat(MultiNodeBatch.PointName.parse("grp_cfg_conc8")).isEmpty();
  }

  @Test
  void processesEveryPointAndReportsWhatTheWorkflowWouldSilentlySkip() throws Exception {
    raw("grp_cfg_conc8_gpus_24_ctx_8_gen_16.json", 8);
    raw("grp_cfg_conc16_gpus_16.json", 16);
    raw("grp_cfg_conc32_gpus_24_ctx_8_gen_16.json", 64);   // name and content disagree
    raw("grp_cfg_no_counts.json", 4);                      // no _gpus_: the workflow skips it
    Files.writeString(dir.resolve("grp_cfg.pytorch.json"), "[]");
    MultiNodeBatch.Report r = MultiNodeBatch.processAll(env(), dir, NormalizerOptions.reference());
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.ignoredSidecars()).containsExactly("grp_cfg.pytorch.json");
    assertThat(r.missing()).containsExactly(32, 64);
    assertThat(r.unexpected()).isEmpty();
    assertThat(r.points()).extracting(MultiNodeBatch.Point::exitCode).containsExactly(0, 1, 0, 1);

    JsonNode disagg = Json.mapper().readTree(
        dir.resolve("agg_grp_cfg_conc8_gpus_24_ctx_8_gen_16.json").toFile());
    assertThat(disagg.get("num_prefill_gpu").intValue()).isEqualTo(8);
    assertThat(disagg.get("num_decode_gpu").intValue()).isEqualTo(16);
    assertThat(disagg.get("output_tput_per_gpu").doubleValue()).isEqualTo(100.0); // 1600 / 16
    JsonNode agg = Json.mapper().readTree(dir.resolve("agg_grp_cfg_conc16_gpus_16.json").toFile());
    assertThat(agg.get("num_decode_gpu").intValue()).isZero();
    assertThat(agg.get("decode_tp").intValue()).isZero();
    assertThat(agg.get("output_tput_per_gpu").doubleValue()).isEqualTo(100.0); // 1600 / 16 (all)

    JsonNode summary = Json.mapper().readTree(dir.resolve("result_processing_grp.json").toFile());
    assertThat(summary.get("exit_code").intValue()).isEqualTo(1);
    assertThat(summary.get("points").get(1).get("error").textValue()).contains("does not match");
    assertThat(summary.get("points").get(3).get("error").textValue())
        .isEqualTo("Result filename lacks concurrency and physical GPU counts");
    assertThat(summary.get("points").get(3).get("concurrency").isNull()).isTrue();
  }

  @Test
  void aCompleteGroupSucceeds() throws Exception {
    Map<String, String> env = env();
    env.put("CONC_LIST", "8");
    raw("grp_cfg_conc8_gpus_24_ctx_8_gen_16.json", 8);
    MultiNodeBatch.Report r = MultiNodeBatch.processAll(env, dir, NormalizerOptions.reference());
    assertThat(r.exitCode()).isZero();
    assertThat(r.points()).singleElement().satisfies(p -> assertThat(p.result()).isPresent());
  }
}
