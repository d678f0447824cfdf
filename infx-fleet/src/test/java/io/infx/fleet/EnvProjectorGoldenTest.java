package io.infx.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Golden projections of rows taken from the matrix corpus. Every expected line below was written by
 * hand from the tables of fleet spec §3 (and §4 for RESULT_FILENAME), not produced by the code.
 */
class EnvProjectorGoldenTest {

  private static LaunchEnv project(String expectedFile, int index, String runner, RunContext ctx) {
    return EnvProjector.standard().project(TestRows.of(SharedCorpus.matrixRow(expectedFile, index)),
        RunnerName.of(runner), ctx);
  }

  private static Map<String, String> lines(String text) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String line : text.strip().split("\n")) {
      int eq = line.indexOf('=');
      m.put(line.substring(0, eq).strip(), line.substring(eq + 1));
    }
    return m;
  }

  @Test
  void singleNodeFingerprintedRowFullProjectionInOrder() {
    LaunchEnv env = project("changelog/001-single-node-fixed/expected.json", 0, "mi355x-amds_3",
        RunContext.defaults());
    Map<String, String> expected = lines("""
        EXP_NAME=dsr1_8k1k
        RECIPE_FINGERPRINT=aadbb6ead04a30d5469609c6e306368616c90a0efb783fa7cb597edcfa2f39d6
        ISL=8192
        OSL=1024
        MAX_MODEL_LEN=9472
        IMAGE=lmsysorg/sglang:v0.5.12-rocm700-mi35x
        MODEL=deepseek-ai/DeepSeek-R1-0528
        MODEL_PREFIX=dsr1
        PRECISION=fp8
        FRAMEWORK=sglang
        ROUTER_METADATA=
        KV_P2P_TRANSFER=
        TP=4
        PP_SIZE=1
        DCP_SIZE=1
        PCP_SIZE=1
        EP_SIZE=1
        DP_ATTENTION=false
        CONC=32
        SPEC_DECODING=none
        DISAGG=false
        RUN_EVAL=false
        EVAL_ONLY=false
        SCENARIO_TYPE=fixed-seq-len
        SCENARIO_SUBDIR=fixed_seq_len/
        IS_AGENTIC=0
        KV_OFFLOADING=
        KV_OFFLOAD_BACKEND=
        KV_OFFLOAD_BACKEND_METADATA=
        TOTAL_CPU_DRAM_GB=0
        DURATION=3600
        REQUIRE_POWER=0
        AIPERF_EXPERIMENTAL_FAST=0
        EVAL_LIMIT=
        SWEBENCH_GEN_MODE=agentic
        SRT_RECIPE=benchmarks/single_node/srt-slurm-recipes/dsr1/sglang/mi355x-fp8/8k1k.yaml
        RANDOM_RANGE_RATIO=0.8
        HF_HUB_CACHE=/mnt/hf_hub_cache/
        AIPERF_FAILED_REQUEST_THRESHOLD=0.10
        RESULT_DIR=/workspace/results
        PYTHONDONTWRITEBYTECODE=1
        PYTHONPYCACHEPREFIX=/tmp/inferencex-pycache
        SWEBENCH_USE_MODAL=true
        SALLOC_EXCLUDE=b300-005,b300-006
        RUNNER_NAME=mi355x-amds_3
        RUNNER_TYPE=mi355x
        RESULT_FILENAME=dsr1_8k1k_fp8_sglang_tp4-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc32_mi355x-amds_3_recipe-aadbb6ead04a30d5
        GPU_COUNT=4
        IS_MULTINODE=false
        """);
    assertThat(env.values()).containsExactlyEntriesOf(expected);
    assertThat(env.secretNames()).isEmpty();
    assertThat(env.pointSettings()).isEmpty();
  }

  @Test
  void multiNodeDisaggRowWithAdditionalSettingsFullProjectionInOrder() {
    LaunchEnv env = project("cases/214-multinode-node-count/expected.json", 2, "gb200-nv_12",
        RunContext.defaults());
    Map<String, String> expected = lines("""
        EXP_NAME=tiny_8k1k
        RECIPE_FINGERPRINT=
        IMAGE=example/dynamo-trt:0.0.1
        MODEL=example/Tiny-FP4
        MODEL_PREFIX=tiny
        FRAMEWORK=dynamo-trt
        PRECISION=fp4
        ISL=8192
        OSL=1024
        MAX_MODEL_LEN=9472
        SPEC_DECODING=none
        DISAGG=true
        ROUTER_METADATA={"name": "dynamo-router", "version": "1.0.0"}
        KV_P2P_TRANSFER=nixl
        CONC_LIST=4 8
        CONC=
        PREFILL_HARDWARE=
        DECODE_HARDWARE=
        PREFILL_NUM_WORKERS=3
        PREFILL_TP=4
        PREFILL_PP_SIZE=1
        PREFILL_DCP_SIZE=1
        PREFILL_PCP_SIZE=1
        PREFILL_EP=1
        PREFILL_DP_ATTN=false
        DECODE_NUM_WORKERS=1
        DECODE_TP=4
        DECODE_PP_SIZE=1
        DECODE_DCP_SIZE=1
        DECODE_PCP_SIZE=1
        DECODE_EP=1
        DECODE_DP_ATTN=false
        RUN_EVAL=false
        EVAL_ONLY=false
        EVAL_CONC=
        EVAL_LIMIT=
        SWEBENCH_GEN_MODE=agentic
        REQUIRE_POWER=0
        POWER_PRODUCER_SHA=
        SCENARIO_TYPE=fixed-seq-len
        SCENARIO_SUBDIR=fixed_seq_len/
        IS_AGENTIC=0
        DURATION=3600
        AIPERF_EXPERIMENTAL_FAST=0
        KV_OFFLOADING=
        KV_OFFLOAD_BACKEND=
        KV_OFFLOAD_BACKEND_METADATA=
        TOTAL_CPU_DRAM_GB=600
        NODE_COUNT=3
        RANDOM_RANGE_RATIO=0.8
        PYTHONDONTWRITEBYTECODE=1
        PYTHONPYCACHEPREFIX=/tmp/inferencex-pycache
        SWEBENCH_USE_MODAL=true
        RUNNER_NAME=gb200-nv_12
        RUNNER_TYPE=cluster:gb200-nv
        RESULT_FILENAME=tiny_8k1k_fp4_dynamo-trt_prefill-tp4-pp1-dcp1-pcp1-ep1-dpfalse-nw3_decode-tp4-pp1-dcp1-pcp1-ep1-dpfalse-nw1_disagg-true_spec-none_conc4x8_gb200-nv_12
        IS_MULTINODE=true
        PREFILL_NODES=2
        """);
    assertThat(env.values()).containsExactlyEntriesOf(expected);
    assertThat(env.pointSettings()).containsExactly("PREFILL_NODES");
  }

  @Test
  void singleNodeAgenticEvalRowWithDramOffload() {
    LaunchEnv env = project("cases/002-all-evals-both-files/expected.json", 77, "b200-nscale-slurm_02",
        RunContext.defaults());
    assertThat(env.values()).containsAllEntriesOf(lines("""
        EXP_NAME=dsv4_tp8_conc8_kvdram-hicache_spec-draft_model
        ISL=0
        OSL=0
        MAX_MODEL_LEN=0
        SPEC_DECODING=draft_model
        DISAGG=false
        RUN_EVAL=true
        EVAL_ONLY=true
        SCENARIO_TYPE=agentic-coding
        SCENARIO_SUBDIR=agentic/
        IS_AGENTIC=1
        KV_OFFLOADING=dram
        KV_OFFLOAD_BACKEND=hicache
        KV_OFFLOAD_BACKEND_METADATA={"name": "hicache"}
        TOTAL_CPU_DRAM_GB=1731
        DURATION=3600
        SRT_RECIPE=benchmarks/single_node/srt-slurm-recipes/dsv4/sglang/b200-fp4-mtp/agentic.yaml
        EVAL_FRAMEWORK=lm-eval
        EVAL_SUITE=
        GPU_COUNT=8
        RUNNER_TYPE=cluster:b200-nscale
        RESULT_FILENAME=dsv4_tp8_conc8_kvdram-hicache_spec-draft_model_fp4_sglang_tp8-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-draft_model_conc8_b200-nscale-slurm_02
        """));
  }

  @Test
  void multiNodeAgenticEvalRowTakesConcFromEvalConc() {
    LaunchEnv env = project("cases/002-all-evals-both-files/expected.json", 284, "h200-dgxc-slurm_05",
        RunContext.defaults());
    assertThat(env.values()).containsAllEntriesOf(lines("""
        ISL=0
        OSL=0
        MAX_MODEL_LEN=0
        CONC_LIST=1
        CONC=1
        EVAL_CONC=1
        RUN_EVAL=true
        EVAL_ONLY=true
        IS_AGENTIC=1
        KV_OFFLOADING=none
        KV_OFFLOAD_BACKEND=
        KV_OFFLOAD_BACKEND_METADATA=
        TOTAL_CPU_DRAM_GB=0
        DECODE_NUM_WORKERS=0
        NODE_COUNT=4
        EVAL_FRAMEWORK=kimi-vendor
        EVAL_SUITE=kimi_tool_call_schema_full
        IS_MULTINODE=true
        RESULT_FILENAME=kimik3_p2x16ep32dpa_d0x16ep32dpa_conc1_fp4_vllm_prefill-tp16-pp1-dcp1-pcp1-ep32-dptrue-nw2_decode-tp16-pp1-dcp1-pcp1-ep32-dptrue-nw0_disagg-false_spec-mtp_conc1_h200-dgxc-slurm_05
        """));
    assertThat(env.values()).doesNotContainKey("GPU_COUNT");
  }

  @Test
  void multiNodeEvalAllConcsRowEvaluatesEveryConcurrency() {
    LaunchEnv env = project("cases/002-all-evals-both-files/expected.json", 0, "b200-nscale-slurm_00",
        RunContext.defaults());
    assertThat(env.values()).containsAllEntriesOf(lines("""
        CONC_LIST=90
        CONC=
        EVAL_CONC=90
        RUN_EVAL=true
        EVAL_ONLY=true
        ROUTER_METADATA={"name": "dynamo-router", "version": "0.8.1.post1"}
        KV_P2P_TRANSFER=nixl
        NODE_COUNT=2
        """));
    assertThat(env.values()).doesNotContainKey("EVAL_ALL_CONCS");
  }

  @Test
  void singleNodeRouterRowRendersRouterAsJsonAndForwardsEvalKeys() {
    LaunchEnv env = project("cases/212-explicit-topology-passthrough/expected.json", 0, "h100-cw_01",
        RunContext.defaults());
    assertThat(env.values()).containsAllEntriesOf(lines("""
        ROUTER_METADATA={"name": "vllm-router", "version": "0.1.14"}
        TP=8
        PP_SIZE=2
        DCP_SIZE=4
        PCP_SIZE=1
        EP_SIZE=8
        DP_ATTENTION=true
        RUN_EVAL=true
        EVAL_ONLY=false
        SRT_RECIPE=benchmarks/single_node/tiny.yaml
        EVAL_SRT_RECIPE=benchmarks/single_node/tiny-eval.yaml
        EVAL_FRAMEWORK=lm-eval
        GPU_COUNT=16
        RESULT_FILENAME=tiny_8k1k_fp8_vllm_tp8-pp2-dcp4-pcp1-ep8-dpatrue_disagg-false_spec-draft_model_conc32_h100-cw_01
        """));
  }

  @Test
  void multiNodeFingerprintUnderCompactPolicyIsBoundedTo120Bytes() {
    // Expected value computed with an independent Python rendering of the newer rule
    // (sha256 of the full stem, first 20 hex chars, cut to 120 bytes).
    LaunchEnv env = project("changelog/004-trim-conc/expected.json", 2, "mi355x-amds_1",
        RunContext.builder().fingerprintPolicy(FingerprintPolicy.COMPACT_SHA256).build());
    assertThat(env.resultFilename()).isEqualTo(
        "dsr1_8k1k_fp8_sglang-disagg_prefill-tp8-pp1-dcp1-pcp1-ep8-dptrue-nw2_decode-tp8-pp1-dcp1-pcp1-ep8-d-1eadf5f99293b9581107");
    LaunchEnv legacy = project("changelog/004-trim-conc/expected.json", 2, "mi355x-amds_1",
        RunContext.defaults());
    assertThat(legacy.resultFilename()).isEqualTo(
        "dsr1_8k1k_fp8_sglang-disagg_prefill-tp8-pp1-dcp1-pcp1-ep8-dptrue-nw2_decode-tp8-pp1-dcp1-pcp1-ep8-dptrue-nw1_disagg-true_spec-none_conc1024_mi355x-amds_1_recipe-db060b7b9b72662c");
  }

  @Test
  void contextInputsAndSecretsAreProjectedAndSecretsRedacted() {
    RunContext ctx = RunContext.builder().agentxFast(true).durationOverride(1200).requirePower(true)
        .evalLimit("50").swebenchGenMode("single-shot").putSecrets("HF_TOKEN", "hf_secret").build();
    LaunchEnv env = project("changelog/001-single-node-fixed/expected.json", 0, "mi355x-amds_3", ctx);
    assertThat(env.values()).containsAllEntriesOf(lines("""
        AIPERF_EXPERIMENTAL_FAST=1
        DURATION=1200
        REQUIRE_POWER=1
        EVAL_LIMIT=50
        SWEBENCH_GEN_MODE=single-shot
        HF_TOKEN=hf_secret
        """));
    assertThat(env.secretNames()).containsExactly("HF_TOKEN");
    assertThat(env.toLines()).contains("HF_TOKEN=***").noneMatch(l -> l.contains("hf_secret"));
    // Secrets sit between the constants and the launch-step additions.
    var keys = java.util.List.copyOf(env.values().keySet());
    assertThat(keys.indexOf("HF_TOKEN")).isEqualTo(keys.indexOf("RUNNER_NAME") - 1);
  }
}
