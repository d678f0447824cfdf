#!/usr/bin/env python3
"""Writes the cases-*.json files of this folder: InferenceX-app test assertions the shared ingest
corpus (../shared/conformance/ingest) does not carry, in that corpus's case format.

Every case names the peer test it comes from (path@commit#describe > it [row]); inputs are the
test's own inputs (its makeMeta/makeResults/makeAggRow/makeV2Row fixtures and overrides, the
topology it.each rows through its mapAllFormats), expectations are what the test asserts. Nothing
here was run against infx to decide an expected value.

    python3 derive.py      # rewrites cases-*.json beside this file
"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
EVAL_TEST = "packages/db/src/etl/eval-mapper.test.ts@05fdd9701b3416f7e9c5b0d82c6615d314656f46"
TOPO_TEST = "packages/db/src/etl/topology.test.ts@bae81b262509348862844968f420533107f8a05b"
UNDEFINED = {"$js": "undefined"}


def make_meta(**over):
    m = {"infmax_model_prefix": "dsr1", "hw": "h200-nv", "framework": "vllm", "precision": "fp8",
         "tp": 8, "ep": 1, "isl": 1024, "osl": 8192, "conc": 64}
    m.update(over)
    return m


def make_results(**over):
    r = {"lm_eval_version": "0.4.7",
         "results": {"gsm8k": {"exact_match,strict-match": 0.85, "exact_match_stderr,strict-match": 0.01,
                               "exact_match,flexible-extract": 0.9,
                               "exact_match_stderr,flexible-extract": 0.008, "alias": "gsm8k"}},
         "n-samples": {"gsm8k": {"effective": 1000}}}
    r.update(over)
    return r


def make_agg(**over):
    r = {"infmax_model_prefix": "dsr1", "hw": "h200-nv", "framework": "vllm", "precision": "fp8",
         "tp": 8, "ep": 1, "task": "gsm8k", "em_strict": 0.85, "em_strict_se": 0.01, "em_flexible": 0.9,
         "em_flexible_se": 0.008, "n_eff": 1000, "source": "eval_dsr1_1k8k_12345678.zip"}
    r.update(over)
    return r


def make_v2(**over):
    r = make_agg(hw="B300", framework="dynamo-trt", is_multinode=True, tp=4, ep=1, dp_attention="true",
                 prefill_tp=4, prefill_ep=1, prefill_dp_attention="true", prefill_num_workers=7,
                 decode_tp=8, decode_ep=8, decode_dp_attention="true", decode_num_workers=1, conc=3072)
    r.update(over)
    return r


def drop(d, *keys):
    d = dict(d)
    for k in keys:
        d.pop(k)
    return d


CASES = {"mapEvalRow": [], "mapAggEvalRow": []}


def case(fn, title, args, src=EVAL_TEST, **expect):
    n = len(CASES[fn]) + 1
    c = {"id": f"{fn}-d{n:02d}", "source": f"{src}#{title}", "function": fn, "input": {"args": args}}
    c.update(expect)
    CASES[fn].append(c)


# ---- eval-mapper.test.ts, mapEvalRow
case("mapEvalRow", "mapEvalRow > maps valid meta + results to EvalParams array", [make_meta(), make_results()],
     expected_length={"": 1},
     expected_subset=[{"config": {"hardware": "h200", "framework": "vllm", "model": "dsr1", "precision": "fp8",
                                  "specMethod": "none", "disagg": False},
                       "task": "gsm8k", "isl": 1024, "osl": 8192, "conc": 64, "lmEvalVersion": "0.4.7"}])
case("mapEvalRow", "mapEvalRow > excludes alias from metrics", [make_meta(), make_results()],
     expected_absent=["[0].metrics.alias"])
case("mapEvalRow", "mapEvalRow > maps AgentX zero-length sentinels to the aggregate eval identity [individual side]",
     [make_meta(isl="0", osl=0), make_results()],
     expected_subset=[{"task": "gsm8k", "isl": None, "osl": None, "conc": 64}],
     relation={"kind": "same_config_key_as", "other_function": "mapAggEvalRow",
               "other_input": {"args": [make_agg(source="eval_dsr1_agentic/results.json", conc=64)]},
               "description": "configCacheKey(individual.config) === configCacheKey(aggregate.config)"})
case("mapEvalRow", "mapEvalRow > edge cases > handles task with no numeric metrics",
     [make_meta(), make_results(results={"gsm8k": {"alias": "gsm8k"}})],
     expected_length={"": 1}, expected_absent=["[0].metrics.alias"])
case("mapEvalRow", "mapEvalRow > edge cases > handles n-samples missing for a task",
     [make_meta(), make_results(**{"n-samples": {}})],
     expected_length={"": 1}, expected_absent=["[0].metrics.n_eff"])
case("mapEvalRow", "mapEvalRow > edge cases > defaults to empty string when precision absent and flags as unmapped",
     [drop(make_meta(), "precision"), make_results()],
     expected_subset=[{"config": {"precision": ""}}], expected_tracker={"unmappedPrecisions_contains": [""]})
case("mapEvalRow", "mapEvalRow > skip tracking > skips unmapped model and tracks it",
     [make_meta(infmax_model_prefix="nonexistent"), make_results()],
     notes="the test passes model: undefined, which is the same as leaving it out",
     expected=[], expected_tracker={"skips": {"unmappedModel": 1}, "unmappedModels_contains": ["nonexistent"]})
case("mapEvalRow", "mapEvalRow > skip tracking > skips unmapped hardware and tracks it",
     [make_meta(hw="imaginary-gpu"), make_results()],
     expected=[], expected_tracker={"skips": {"unmappedHw": 1}, "unmappedHws_contains": ["imaginary-gpu"]})

# ---- eval-mapper.test.ts, mapAggEvalRow
case("mapAggEvalRow", "mapAggEvalRow > maps a valid agg row to EvalParams", [make_agg()],
     expected_not_null=True,
     expected_subset={"config": {"hardware": "h200", "framework": "vllm", "model": "dsr1"}, "task": "gsm8k"})
case("mapAggEvalRow", "mapAggEvalRow > returns null isl/osl when source is missing", [drop(make_agg(), "source")],
     expected_subset={"isl": None, "osl": None})
case("mapAggEvalRow", "mapAggEvalRow > v2 schema (disagg / multinode) > framework dynamo-trt forces disagg=true even with zero workers / not multinode",
     [make_v2(is_multinode=False, prefill_num_workers=0, decode_num_workers=0)],
     expected_subset={"config": {"disagg": True}})
case("mapAggEvalRow", "mapAggEvalRow > v2 schema (disagg / multinode) > reads explicit num_prefill_gpu / num_decode_gpu when present",
     [make_v2(num_prefill_gpu=28, num_decode_gpu=64)],
     expected_subset={"config": {"numPrefillGpu": 28, "numDecodeGpu": 64}})
case("mapAggEvalRow", "mapAggEvalRow > skip tracking > returns null when task is empty", [make_agg(task="")],
     expected=None)
case("mapAggEvalRow", "mapAggEvalRow > edge cases > handles source with unparseable ISL/OSL format",
     [make_agg(source="eval_dsr1_unknown_format.zip")], expected_subset={"isl": None, "osl": None})
case("mapAggEvalRow", "mapAggEvalRow > edge cases > defaults to empty string when precision absent and flags as unmapped",
     [drop(make_agg(), "precision")],
     expected_subset={"config": {"precision": ""}}, expected_tracker={"unmappedPrecisions_contains": [""]})
case("mapAggEvalRow", "mapAggEvalRow > normalizes framework for agg row", [make_agg(framework="sglang-disagg")],
     expected_subset={"config": {"framework": "mori-sglang", "disagg": True}})
case("mapAggEvalRow", "mapAggEvalRow > returns null conc when absent", [drop(make_agg(), "conc") if "conc" in make_agg() else make_agg()],
     expected_subset={"conc": None})

# ---- topology.test.ts rows the shared corpus holds only for some formats
AGGREGATE = {"is_multinode": False, "tp": 4, "ep": 4, "dp_attention": "true", "prefill_tp": 4, "prefill_ep": 4,
             "prefill_dp_attention": "true", "prefill_num_workers": 1, "decode_tp": 4, "decode_ep": 4,
             "decode_dp_attention": "true", "decode_num_workers": 1}


def topo_row(topology):
    r = {"infmax_model_prefix": "dsv41flash", "hw": "cluster:b300-dsxe", "framework": "sglang", "precision": "fp4",
         "spec_decoding": "mtp", "isl": 0, "osl": 0, "conc": 192}
    r.update(topology)
    return r


TOPO = [
    ("two prefill workers and one decode worker",
     {"framework": "dynamo-sglang", "is_multinode": True, "prefill_tp": 16, "prefill_ep": 16, "prefill_num_workers": 2,
      "decode_tp": 32, "decode_ep": 32, "decode_num_workers": 1},
     {"disagg": True, "prefillNumWorkers": 2, "decodeNumWorkers": 1, "numPrefillGpu": 32, "numDecodeGpu": 32}),
    ("explicit disaggregation on one physical node", dict(AGGREGATE, disagg=True),
     {"disagg": True, "prefillNumWorkers": 1, "decodeNumWorkers": 1, "numPrefillGpu": 4, "numDecodeGpu": 4}),
]
for name, topology, expected in TOPO:
    row = topo_row(topology)
    bench = dict(row, scenario_type="agentic-coding", tput_per_gpu=100)
    note = ("The three mapper results of this it.each row must share one configCacheKey with the benchmark "
            "row's (mapBenchmarkRow of the same row plus scenario_type agentic-coding and tput_per_gpu 100).")
    case("mapEvalRow", f"shared benchmark and eval topology > {name} [individual]",
         [row, {"results": {"gsm8k": {"exact_match,strict-match": 0.968}}}], src=TOPO_TEST,
         expected_subset=[{"config": expected, "metrics": {"em_strict": 0.968}}], notes=note,
         relation={"kind": "same_config_key_as", "path": "[0].config", "other_function": "mapBenchmarkRow",
                   "other_input": {"args": [bench]},
                   "description": "configCacheKey(individual.config) === configCacheKey(benchmark.config)"})
    case("mapAggEvalRow", f"shared benchmark and eval topology > {name} [collected]",
         [dict(row, task="gsm8k", em_strict=0.968)], src=TOPO_TEST,
         expected_subset={"config": expected, "metrics": {"em_strict": 0.968}}, notes=note,
         relation={"kind": "same_config_key_as", "other_function": "mapBenchmarkRow", "other_input": {"args": [bench]},
                   "description": "configCacheKey(collected.config) === configCacheKey(benchmark.config)"})

# ---- normalizers.test.ts@08913cc7: expectations the shared corpus does not carry
NORM_TEST = "packages/db/src/etl/normalizers.test.ts@08913cc7d303be60e289d8e2e4068cd711820d62"
for fn in ["hwToGpuKey", "resolveModelKey", "normalizeFramework", "normalizeSpecMethod", "parseBool", "parseNum",
           "parseInt2", "parseIslOsl"]:
    CASES[fn] = []
NORMALIZER_ROWS = [
    ("hwToGpuKey", "hwToGpuKey > strips -nv suffix [0]", ["h200-nv"], "h200"),
    ("hwToGpuKey", "hwToGpuKey > strips -disagg suffix [0]", ["h200-disagg"], "h200"),
    ("hwToGpuKey", "hwToGpuKey > strips -dgxc suffix [0]", ["gb200-dgxc"], "gb200"),
    ("hwToGpuKey", "hwToGpuKey > strips -dgxc-slurm suffix [2]", ["h100-dgxc-slurm"], "h100"),
    ("hwToGpuKey", "hwToGpuKey > strips -nb suffix [0]", ["b300-nb"], "b300"),
    ("hwToGpuKey", "hwToGpuKey > strips -dsv4 runner-pool suffix [0]", ["b200-dsv4"], "b200"),
    ("hwToGpuKey", "hwToGpuKey > strips -dsv4 runner-pool suffix [1]", ["B200-DSV4"], "b200"),
    ("hwToGpuKey", "hwToGpuKey > strips -cw suffix [0]", ["gb300-cw"], "gb300"),
    ("hwToGpuKey", "hwToGpuKey > strips runner index suffix before other suffixes [0]", ["mi355x-amd_0"], "mi355x"),
    ("hwToGpuKey", "hwToGpuKey > strips runner index suffix before other suffixes [1]", ["mi355x-amd_2"], "mi355x"),
    ("hwToGpuKey", "hwToGpuKey > is case-insensitive [1]", ["MI355X-AMD"], "mi355x"),
    ("resolveModelKey", "resolveModelKey > resolves from infmax_model_prefix [0]", [{"infmax_model_prefix": "dsr1"}], "dsr1"),
    ("resolveModelKey", "resolveModelKey > strips precision suffix from prefix [0]", [{"infmax_model_prefix": "dsr1-fp8"}], "dsr1"),
    ("resolveModelKey", "resolveModelKey > resolves dsv4pro alias from prefix [0]", [{"infmax_model_prefix": "dsv4pro"}], "dsv4"),
    ("resolveModelKey", "resolveModelKey > falls back to MODEL_TO_KEY when prefix not present [1]",
     [{"model": "nvidia/Llama-3.3-70B-Instruct-FP8"}], "llama70b"),
    ("resolveModelKey", "resolveModelKey > falls back to MODEL_TO_KEY when prefix not present [2]",
     [{"model": "openai/gpt-oss-120b"}], "gptoss120b"),
    ("resolveModelKey", "resolveModelKey > falls back to MODEL_TO_KEY for local mount paths [0]",
     [{"model": "/mnt/lustre01/models/deepseek-r1-0528-fp4-v2"}], "dsr1"),
    ("resolveModelKey", "resolveModelKey > prefers infmax_model_prefix over model [0]",
     [{"infmax_model_prefix": "llama70b", "model": "deepseek-ai/DeepSeek-R1"}], "llama70b"),
    ("resolveModelKey", "resolveModelKey > returns null for unknown model [0]", [{"model": "unknown/model"}], None),
    ("resolveModelKey", "resolveModelKey > resolves qwen3.5 prefix [1]", [{"infmax_model_prefix": "qwen3.5-fp8"}], "qwen3.5"),
    ("resolveModelKey", "resolveModelKey > resolves models from HuggingFace paths via MODEL_TO_KEY [3]",
     [{"model": "zai-org/GLM-5-FP8"}], "glm5"),
    ("normalizeFramework", "normalizeFramework > reads disagg flag from disaggField for non-dynamo/mori frameworks [1]",
     ["vllm", "True"], {"framework": "vllm", "disagg": True}),
    ("normalizeFramework", "normalizeFramework > reads disagg flag from disaggField for non-dynamo/mori frameworks [2]",
     ["vllm", "true"], {"framework": "vllm", "disagg": True}),
    ("normalizeFramework", "normalizeFramework > reads disagg flag from disaggField for non-dynamo/mori frameworks [3]",
     ["vllm", False], {"framework": "vllm", "disagg": False}),
    ("normalizeFramework", "normalizeFramework > reads disagg flag from disaggField for non-dynamo/mori frameworks [5]",
     ["vllm", None], {"framework": "vllm", "disagg": False}),
    ("normalizeFramework", "normalizeFramework > sglang-disagg ignores disaggField (always true) [0]",
     ["sglang-disagg", False], {"framework": "mori-sglang", "disagg": True}),
    ("normalizeFramework", "normalizeFramework > forces disagg=true for dynamo-* canonicals regardless of disaggField [2]",
     ["dynamo-vllm", None], {"framework": "dynamo-vllm", "disagg": True}),
    ("normalizeFramework", "normalizeFramework > forces disagg=true for mori-* canonicals regardless of disaggField [1]",
     ["mori-sglang", None], {"framework": "mori-sglang", "disagg": True}),
    ("normalizeSpecMethod", "normalizeSpecMethod > returns none for falsy values [0]", [None], "none"),
    ("normalizeSpecMethod", "normalizeSpecMethod > returns none for falsy values [3]", [0], "none"),
    ("normalizeSpecMethod", "normalizeSpecMethod > preserves already-lowercase values [0]", ["eagle"], "eagle"),
    ("parseBool", "parseBool > returns false for everything else [1]", ["false"], False),
    ("parseBool", "parseBool > returns false for everything else [3]", [None], False),
    ("parseBool", "parseBool > returns false for everything else [4]", [UNDEFINED], False),
    ("parseBool", "parseBool > returns false for everything else [6]", [1], False),
    ("parseNum", "parseNum > parses numeric strings [1]", ["3.14"], 3.14),
    ("parseNum", "parseNum > parses numeric strings [2]", ["0"], 0),
    ("parseNum", "parseNum > returns undefined for null/undefined [1]", [UNDEFINED], UNDEFINED),
    ("parseNum", "parseNum > returns undefined for non-numeric strings [0]", ["abc"], UNDEFINED),
    ("parseInt2", "parseInt2 > parses integer strings [0]", ["42"], 42),
    ("parseInt2", "parseInt2 > parses integer strings [1]", ["0"], 0),
    ("parseInt2", "parseInt2 > returns undefined for null/undefined [0]", [None], UNDEFINED),
    ("parseInt2", "parseInt2 > returns undefined for null/undefined [1]", [UNDEFINED], UNDEFINED),
    ("parseIslOsl", "parseIslOsl > parses standard sequence lengths from filenames [0]", ["Full_Sweep_-_1k1k_12345"],
     {"isl": 1024, "osl": 1024}),
    ("parseIslOsl", "parseIslOsl > requires delimiters around the pattern [0]", ["x1k1ky"], None),
    ("parseIslOsl", "parseIslOsl > parses larger sequences [0]", ["test_32k16k_result.json"], {"isl": 32768, "osl": 16384}),
]
for fn, title, args, want in NORMALIZER_ROWS:
    case(fn, title, args, src=NORM_TEST, expected=want)

# ---- benchmark-mapper.test.ts@00550b64 (and topology.test.ts [benchmark] rows)
BENCH_TEST = "packages/db/src/etl/benchmark-mapper.test.ts@00550b64e1558758c0410e73751542bf46eee51b"
CASES["mapBenchmarkRow"] = []
MEASURED = ["avg_power_w", "avg_total_gpu_power_w", "total_gpu_energy_j", "p75_power_w", "p75_total_gpu_power_w",
            "p90_power_w", "p90_total_gpu_power_w", "joules_per_successful_query", "joules_per_output_token",
            "joules_per_total_token", "prefill_avg_power_w", "decode_avg_power_w", "joules_per_input_token",
            "prefill_joules_per_input_token", "decode_joules_per_output_token", "avg_temp_c", "peak_temp_c",
            "avg_util_pct", "avg_mem_used_mb", "avg_cpu_socket_power_w", "avg_total_cpu_power_w",
            "total_cpu_energy_j", "avg_total_module_power_w", "total_module_energy_j"]
NO_MEASURED = ["metrics." + k for k in MEASURED]


def v1(**over):
    r = {"infmax_model_prefix": "dsr1", "hw": "h200-nv", "framework": "vllm", "precision": "fp8", "isl": 1024,
         "osl": 1024, "conc": 64, "tp": 8, "ep": 1, "dp_attention": False, "tput_per_gpu": 1234.5,
         "median_ttft": 50.2, "mean_tpot": 12.3}
    r.update(over)
    return r


def agentic(**over):
    r = {"infmax_model_prefix": "dsv4", "hw": "b200-nv", "framework": "vllm", "precision": "fp4",
         "scenario_type": "agentic-coding", "users": 72, "tput_per_gpu": 20000}
    r.update(over)
    return r


def v2(**over):
    r = {"infmax_model_prefix": "dsr1", "hw": "h200-nv", "framework": "sglang", "precision": "fp8", "isl": 1024,
         "osl": 8192, "conc": 128, "prefill_tp": 4, "prefill_ep": 2, "prefill_dp_attention": False,
         "prefill_num_workers": 1, "decode_tp": 2, "decode_ep": 4, "decode_dp_attention": True,
         "decode_num_workers": 2, "num_prefill_gpu": 8, "num_decode_gpu": 8, "tput_per_gpu": 567.8}
    r.update(over)
    return r


def dirty():
    return {"avg_power_w": 685.5, "joules_per_successful_query": 1542.75, "joules_per_output_token": 8.4,
            "joules_per_total_token": 0.8, "prefill_avg_power_w": 612.3, "decode_avg_power_w": 701.5,
            "joules_per_input_token": 1.2, "prefill_joules_per_input_token": 0.4,
            "decode_joules_per_output_token": 5.1, "avg_temp_c": 68.4, "peak_temp_c": 79.2, "avg_util_pct": 88.5,
            "avg_mem_used_mb": 71234.5,
            "workers": [{"role": "prefill", "worker_idx": 0, "hosts": ["pn0"], "num_gpus": 4, "avg_power_w": 612.3},
                        {"role": "decode", "worker_idx": 0, "hosts": ["dn0"], "num_gpus": 8, "avg_power_w": 701.5}]}


def v3(**over):
    stat = lambda mean, p50, p75, p90, p95, std: {"mean": mean, "p50": p50, "p75": p75, "p90": p90, "p95": p95, "std": std}
    r = {
        "infmax_model_prefix": "dsv4", "hw": "cluster:b300-nv", "framework": "vllm", "precision": "fp4",
        "spec_decoding": "none", "disagg": False, "scenario_type": "agentic-coding", "is_multinode": False, "tp": 4,
        "ep": 1, "dp_attention": "false", "conc": 16, "image": "vllm/vllm-openai:v0.23.0", "kv_offloading": "none",
        "kv_offload_backend": "", "num_requests_total": 1648, "num_requests_successful": 1648,
        "dataset": {"source_type": "public_dataset", "hf_dataset_name": "semianalysisai/cc-traces-weka-062126"},
        "request_metrics": {
            "qps": {"window_seconds": 1, "samples": 7209, "mean": 0.22846, "p50": 0, "p75": 0, "p90": 1, "p95": 1,
                    "std": 0.60707},
            "latency": {
                "ttft": stat(12.90033, 1.49712, 12.09501, 56.22194, 68.03156, 22.68353),
                "e2el": stat(81.05644, 26.18817, 84.93601, 199.85996, 360.31579, 149.59205),
                "itl": stat(0.07548, 0.03677, 0.10253, 0.16652, 0.22255, 0.08327),
                "tpot": stat(0.07548, 0.03677, 0.10253, 0.16652, 0.22255, 0.08327),
                "intvty": stat(13.2482, 27.19411, 9.75304, 6.00526, 4.49335, 24.77636),
            },
            "tokens": {
                "input": stat(157676.054, 96047, 197684.25, 404935.9, 547502.85, 152480.17653),
                "output_actual": stat(849.06735, 290.5, 783.5, 2231.8, 3915.45, 1568.90823),
                "output_expected": stat(1432.32728, 571.5, 1820, 3927, 5312.9, 2067.19215),
            },
            "throughput": {
                "input": {"tokens_per_second": 35980.14001}, "output": {"tokens_per_second": 193.7489},
                "total": {"tokens_per_second": 36173.88892}, "duration_seconds": 7222.04352,
                "per_gpu": {"total_tput_tps": 9043.47223, "output_tput_tps": 48.43723, "input_tput_tps": 8995.035},
            },
            "cache": {"theoretical_cache_hit_rate": 0.97509},
        },
        "server_metrics": {
            "present": True, "adapter": "vllm", "metric_count": 49,
            "cache": {"gpu_cache_hit_rate": 0.78539, "cpu_cache_hit_rate": 0, "external_cache_hit_rate": 0,
                      "overall_cache_hit_rate": 0.78539, "prefix_cache_hits": 205576960,
                      "prefix_cache_queries": 261750519, "frontend_cache_hit_rate": None},
            "kv_cache": {"gpu_usage_pct": 0.82134, "cpu_usage_pct": None, "cpu_used_tokens": None},
            "tokens": {"prompt_total": 261750519, "generation_total": 1422696, "requests_completed": 1648,
                       "prompt_by_source": {"gpu_cache_hit": 205576960, "cpu_or_external_cache_hit": 0,
                                            "computed": 56173559}},
            "sources": [{"id": "combined|http://localhost:8888/metrics|engine=0", "role": "combined"}],
        },
    }
    r.update(over)
    return r


def close(path, value, digits, expr=None):
    c = {"path": path, "value": value, "digits": digits}
    if expr:
        c["expr"] = expr
    return c


def bench(title, row, *extra, **expect):
    case("mapBenchmarkRow", title, [row, *extra], src=BENCH_TEST, **expect)


bench("mapBenchmarkRow > v1 schema > maps a valid v1 row to BenchmarkParams", v1(), expected_not_null=True,
      expected_subset={"config": {"hardware": "h200", "framework": "vllm", "model": "dsr1", "precision": "fp8",
                                  "specMethod": "none", "disagg": False, "isMultinode": False},
                       "isl": 1024, "osl": 1024, "conc": 64, "image": None})
bench("mapBenchmarkRow > v1 schema > sets v1 parallelism: prefill = decode = tp*ep", v1(tp=4, ep=2, dp_attention="True"),
      expected_subset={"config": {"prefillTp": 4, "prefillEp": 2, "prefillDpAttn": True, "prefillNumWorkers": 0,
                                  "decodeTp": 4, "decodeEp": 2, "decodeDpAttn": True, "decodeNumWorkers": 0,
                                  "numPrefillGpu": 8, "numDecodeGpu": 8}})
for name, inp, verdict, schema in [
        ("garbage verdict and valid numeric schema", {"power_valid": "garbage", "power_metric_schema_version": 2}, 0, 2),
        ("canonical numeric strings", {"power_valid": "1", "power_metric_schema_version": "2"}, 1, 2),
        ("explicit invalid verdict", {"power_valid": 0, "power_metric_schema_version": 2}, 0, 2)]:
    bench(f"mapBenchmarkRow > v1 schema > normalizes power contract discriminators: {name}", v1(**inp),
          expected_subset={"metrics": {"power_valid": verdict, "power_metric_schema_version": schema}})
bench("mapBenchmarkRow > v1 schema > fails closed for explicitly malformed power_valid=%j [0]", v1(power_valid=True),
      expected_subset={"metrics": {"power_valid": 0}})
for i, v in [(0, None), (11, "02"), (12, "2.0"), (14, "2 "), (17, "9007199254740992")]:
    bench(f"mapBenchmarkRow > v1 schema > omits malformed power_metric_schema_version=%j [{i}]",
          v1(power_metric_schema_version=v), expected_absent=["metrics.power_metric_schema_version"])
for i, v in [(1, 2), (2, 9007199254740991)]:
    bench(f"mapBenchmarkRow > v1 schema > accepts safe positive integer power_metric_schema_version=%j [{i}]",
          v1(power_metric_schema_version=v), expected_subset={"metrics": {"power_metric_schema_version": v}})
SCRUB = "mapBenchmarkRow > power_valid=0 measured-power scrub (defense-in-depth) > "
bench(SCRUB + "strips every measured key and the workers payload on an explicit invalid verdict",
      v2(power_valid=0, power_metric_schema_version=2, median_ttft=50.2, **dirty()), expected_not_null=True,
      expected_subset={"metrics": {"power_valid": 0, "power_metric_schema_version": 2, "tput_per_gpu": 567.8,
                                   "median_ttft": 50.2}},
      expected_absent=NO_MEASURED + ["workers"])
for i, pv in [(0, True), (2, 2)]:
    bench(SCRUB + f"scrubs after failing closed on malformed verdict %j [{i}]", v2(power_valid=pv, **dirty()),
          expected_subset={"metrics": {"power_valid": 0}}, expected_absent=NO_MEASURED + ["workers"])
bench(SCRUB + "scrubs agentic rows after the preferFullResponseMetrics reassignment",
      agentic(power_valid=0, mean_full_response_itl=0.02, **dirty()),
      expected_subset={"metrics": {"power_valid": 0, "mean_itl": 0.02}}, expected_absent=NO_MEASURED + ["workers"])
bench(SCRUB + "keeps structured invalid-verdict companions outside the numeric metrics record",
      v2(power_valid=0, power_metric_schema_version=2, power_invalid_reasons=["window_too_short"],
         power_audit={"window_start_unix": 1, "window_end_unix": 2}, **dirty()), expected_not_null=True,
      expected_subset={"metrics": {"power_valid": 0, "power_metric_schema_version": 2}},
      expected_absent=NO_MEASURED + ["metrics.power_invalid_reasons", "metrics.power_audit"])
bench("mapBenchmarkRow > edge cases > skips row with zero conc", v1(conc=0), expected=None,
      expected_tracker={"skips": {"noIslOsl": 1}})
bench("mapBenchmarkRow > edge cases > skips row with null isl", v1(isl=None), expected=None)
bench("mapBenchmarkRow > edge cases > handles empty framework string", v1(framework=""), expected_not_null=True,
      expected_subset={"config": {"framework": ""}})
bench("mapBenchmarkRow > edge cases > parses string numeric values for isl/osl/conc", v1(isl="2048", osl="4096", conc="32"),
      expected_subset={"isl": 2048, "osl": 4096, "conc": 32})
bench('mapBenchmarkRow > edge cases > handles disagg field as string "True"', v1(disagg="True"),
      expected_subset={"config": {"disagg": True}})
bench("mapBenchmarkRow > framework normalization > normalizes sglang-disagg to mori-sglang + disagg=true",
      v1(framework="sglang-disagg"), expected_subset={"config": {"framework": "mori-sglang", "disagg": True}})
bench("mapBenchmarkRow > framework normalization > keeps legacy disagg=false Dynamo artifacts disaggregated when decode workers exist",
      v2(framework="dynamo-vllm", disagg=False, prefill_num_workers=1, decode_num_workers=1),
      expected_subset={"config": {"disagg": True}})
bench("mapBenchmarkRow > image field > replaces # with / in image path", v1(image="nvcr.io#nvidia#tritonserver:24.07"),
      expected_subset={"image": "nvcr.io/nvidia/tritonserver:24.07"})
bench("mapBenchmarkRow > is_multinode > parses is_multinode boolean", v1(is_multinode=True),
      expected_subset={"config": {"isMultinode": True}})
bench("mapBenchmarkRow > workers payload (multinode / disagg measured power) > captures new cluster-wide temp / util / mem scalars into metrics",
      v1(avg_temp_c=68.4, peak_temp_c=79.2, avg_util_pct=88.5, avg_mem_used_mb=71234.5),
      expected_subset={"metrics": {"avg_temp_c": 68.4, "peak_temp_c": 79.2, "avg_util_pct": 88.5,
                                   "avg_mem_used_mb": 71234.5}})
bench("mapBenchmarkRow — agentic interactivity normalization > DELETES a stale artifact *_intvty when the matching *_itl is zero/invalid",
      agentic(p90_itl=0, p90_intvty=42), expected_absent=["metrics.p90_intvty"])
V3 = "mapBenchmarkRow — v3 agentic nested agg schema > "
bench(V3 + "maps identity/routing and flattens the nested containers", v3(), expected_not_null=True,
      expected_subset={"benchmarkType": "agentic_traces", "config": {"hardware": "b300"}, "conc": 16, "isl": None,
                       "osl": None,
                       "metrics": {"median_qps": 0, "server_external_cache_hit_rate": 0,
                                   "total_prompt_tokens": 261750519, "total_generation_tokens": 1422696,
                                   "total_requests_completed": 1648}},
      expected_close=[close("metrics.median_ttft", 1.49712, 6), close("metrics.p90_ttft", 56.22194, 6),
                      close("metrics.std_e2el", 149.59205, 6), close("metrics.p95_itl", 0.22255, 6),
                      close("metrics.mean_tpot", 0.07548, 6), close("metrics.p90_input_tokens", 404935.9, 3),
                      close("metrics.median_output_tokens_actual", 290.5, 3),
                      close("metrics.p95_output_tokens_expected", 5312.9, 3),
                      close("metrics.tput_per_gpu", 9043.47223, 3), close("metrics.output_tput_per_gpu", 48.43723, 3),
                      close("metrics.input_tput_per_gpu", 8995.035, 3), close("metrics.total_tput_tps", 36173.88892, 3),
                      close("metrics.duration_seconds", 7222.04352, 3),
                      close("metrics.theoretical_cache_hit_rate", 0.97509, 6),
                      close("metrics.server_gpu_cache_hit_rate", 0.78539, 6),
                      close("metrics.gpu_kv_cache_usage_pct", 0.82134, 6)],
      expected_absent=["metrics.request_metrics", "metrics.server_metrics"])
bench(V3 + "re-derives *_intvty from *_itl (matching the pre-inverted artifact values)", v3(),
      expected_close=[close("metrics.median_intvty", 1 / 0.03677, 6, "1 / 0.03677"),
                      close("metrics.p90_intvty", 1 / 0.16652, 6, "1 / 0.16652"),
                      close("metrics.median_intvty", 27.19411, 2), close("metrics.p90_intvty", 6.00526, 2),
                      close("metrics.std_intvty", 24.77636, 6)])
bench(V3 + "maps kv_offloading 'none' to offload off and skips the empty backend", v3(),
      expected_subset={"offloadMode": "off"}, expected_absent=["metrics.kv_offload_backend"])
bench(V3 + "maps kv_offloading 'dram' + backend to offload on with the backend preserved",
      v3(kv_offloading="dram", kv_offload_backend="mooncake", conc=32),
      expected_subset={"offloadMode": "on", "metrics": {"kv_offloading": "dram", "kv_offload_backend": "mooncake"}})
bench(V3 + "flattens current backend metadata and preserves its independent version",
      v3(kv_offloading="dram", kv_offload_backend={"name": "lmcache", "version": "0.5.1"}),
      expected_subset={"metrics": {"kv_offload_backend": "lmcache", "kv_offload_backend_version": "0.5.1"}})
for name, topology, expected in [
        ("explicit aggregate physical count", dict(AGGREGATE, num_gpus=8),
         {"disagg": False, "numPrefillGpu": 8, "numDecodeGpu": 8}),
        ("explicit disaggregation on one physical node", dict(AGGREGATE, disagg=True),
         {"disagg": True, "prefillNumWorkers": 1, "decodeNumWorkers": 1, "numPrefillGpu": 4, "numDecodeGpu": 4}),
        ("historical fixed-sequence count convention", {"is_multinode": False, "isl": 8192, "osl": 1024, "tp": 2, "ep": 2},
         {"disagg": False, "numPrefillGpu": 4, "numDecodeGpu": 4})]:
    row = topo_row(topology)
    if row["isl"] == 0 and row["osl"] == 0:
        row["scenario_type"] = "agentic-coding"
    row["tput_per_gpu"] = 100
    case("mapBenchmarkRow", f"shared benchmark and eval topology > {name} [benchmark]", [row], src=TOPO_TEST,
         expected_subset={"config": expected, "metrics": {"tput_per_gpu": 100}})

# ---- config-cache.test.ts@c410b1f5
CC_TEST = "packages/db/src/etl/config-cache.test.ts@c410b1f5b2422761d304581c797e95d72730dee2"
CASES["configCacheKey"] = []
BASE_CFG = {"hardware": "h200", "framework": "vllm", "model": "dsr1", "precision": "fp8", "specMethod": "none",
            "disagg": False, "isMultinode": False, "prefillTp": 8, "prefillEp": 1, "prefillDpAttn": False,
            "prefillNumWorkers": 0, "decodeTp": 8, "decodeEp": 1, "decodeDpAttn": False, "decodeNumWorkers": 0,
            "numPrefillGpu": 8, "numDecodeGpu": 8}
BASE_KEY = "h200:vllm:dsr1:fp8:none:false:false:8:1:false:0:8:1:false:0:8:8"
for i, field, value in [(6, "isMultinode", True), (7, "prefillTp", 4), (8, "prefillEp", 2), (10, "prefillNumWorkers", 1),
                        (11, "decodeTp", 4), (15, "numPrefillGpu", 4)]:
    case("configCacheKey", f"configCacheKey > differs when any single field changes [{i}: {field}]",
         [dict(BASE_CFG, **{field: value})], src=CC_TEST, expected_not=BASE_KEY)
case("configCacheKey", "configCacheKey > includes all 17 fields in the key", [BASE_CFG], src=CC_TEST,
     checks=[{"op": "split_count", "sep": ":", "value": 17}])

# ---- benchmark-mapper.test.ts@00550b64: extractWorkers and scrubWithheldPowerMetrics
CASES["extractWorkers"] = []
case("extractWorkers", "extractWorkers > returns undefined for non-array input [4]", [{"role": "prefill"}], src=BENCH_TEST,
     expected=UNDEFINED)
case("extractWorkers", "extractWorkers > coerces string-numeric values via parseNum / parseInt2",
     [[{"role": "decode", "worker_idx": "2", "num_gpus": "8", "avg_power_w": "712.5", "avg_temp_c": "71.5"}]],
     src=BENCH_TEST, expected_length={"": 1},
     expected_subset=[{"worker_idx": 2, "num_gpus": 8, "avg_power_w": 712.5, "avg_temp_c": 71.5}])
case("extractWorkers", "extractWorkers > drops hosts when it is not an all-string array",
     [[{"role": "prefill", "worker_idx": 0, "num_gpus": 4, "avg_power_w": 500, "hosts": "pn0"},
       {"role": "decode", "worker_idx": 0, "num_gpus": 4, "avg_power_w": 500, "hosts": ["dn0", 42]},
       {"role": "agg", "worker_idx": 0, "num_gpus": 4, "avg_power_w": 500, "hosts": ["ok"]}]],
     src=BENCH_TEST, expected_length={"": 3}, expected_absent=["[0].hosts", "[1].hosts"],
     expected_subset=[{}, {}, {"hosts": ["ok"]}])
CASES["scrubWithheldPowerMetrics"] = []
measured = {k: v for k, v in dirty().items() if k != "workers"}
case("scrubWithheldPowerMetrics",
     "scrubWithheldPowerMetrics (direct — supplemental ingest path) > fails closed on a malformed verdict when composed with normalization",
     [dict({"tput_per_gpu": 567.8}, **measured, power_valid=2)], src=BENCH_TEST,
     preprocess="normalizePowerContractMetrics(metrics, metrics)",
     expected_subset={"return": True, "metrics": {"power_valid": 0}}, expected_absent=NO_MEASURED)

# ---- result-schema-version.test.ts / run-stats-mapper.test.ts @7e51aece, tpu-normalization.test.ts @250052d4,
# ---- skip-tracker.test.ts @37372501
RSV_TEST = "packages/db/src/etl/result-schema-version.test.ts@7e51aece6d84145cee7988c456e35f5b285a9d9e"
CASES["hasSupportedResultSchemaVersion"] = []
case("hasSupportedResultSchemaVersion",
     "hasSupportedResultSchemaVersion > accepts unstamped rows from producers that predate the contract",
     [{"hw": "h200-nv", "conc": 64}], src=RSV_TEST, expected=True)
for i, v in [(1, 0), (5, 1.5)]:
    case("hasSupportedResultSchemaVersion", f"hasSupportedResultSchemaVersion > refuses result_schema_version %j [{i}]",
         [{"result_schema_version": v}], src=RSV_TEST, expected=False)
CASES["mapRunStats"] = []
case("mapRunStats", "mapRunStats > counts entries stamped with an unsupported result_schema_version",
     [{"h200": {"result_schema_version": 2, "n_success": 7, "total": 8},
       "b200": {"result_schema_version": 1, "n_success": 3, "total": 3}}],
     src="packages/db/src/etl/run-stats-mapper.test.ts@7e51aece6d84145cee7988c456e35f5b285a9d9e",
     expected=[{"hardware": "b200", "nSuccess": 3, "total": 3}], expected_tracker={"skips": {"unsupportedVersion": 1}})
TPU_TEST = "packages/db/src/etl/tpu-normalization.test.ts@250052d4e22766cebe69231bce0c54747b02a22c"
CASES["physicalChipCount"] = []
for i, v, want in [(0, 0, UNDEFINED), (7, {"$js": "Infinity"}, UNDEFINED), (8, "16", 16)]:
    case("physicalChipCount",
         f"TPU physical-chip normalization > prefers valid explicit physical counts and preserves absent-role zero [physicalChipCount {i}]",
         [v], src=TPU_TEST, expected=want)
ST_TEST = "packages/db/src/etl/skip-tracker.test.ts@37372501c0cc107d6ba744892c05778d95594f02"
CASES["skipTracker"] = []
err = lambda ctx, msg: {"op": "recordDbError", "context": ctx, "message": msg}
case("skipTracker", "recordDbError > increments dbError counter [0]", [[err("test context", "test error")]], src=ST_TEST,
     expected_subset={"skips": {"dbError": 1}})
case("skipTracker", "recordDbError > increments dbError counter [1]",
     [[err("test context", "test error"), err("test context 2", "test error 2")]], src=ST_TEST,
     expected_subset={"skips": {"dbError": 2}})
case("skipTracker", "recordDbError > continues counting after MAX_DB_ERRORS (10) without throwing",
     [[err(f"context {i}", f"error {i}") for i in range(15)]], src=ST_TEST, expected_subset={"skips": {"dbError": 15}})
case("skipTracker", "snapshot > captures current counters",
     [[{"op": "set", "counter": "unmappedModel", "value": 3}, {"op": "set", "counter": "unmappedHw", "value": 2},
       {"op": "set", "counter": "noIslOsl", "value": 1}, {"op": "addUnmappedModel", "value": "model-a"},
       {"op": "snapshot", "as": "snap"}]], src=ST_TEST,
     expected_subset={"snapshots": {"snap": {"model": 3, "hw": 2, "islOsl": 1}}},
     checks=[{"path": "snapshots.snap.models", "op": "contains", "value": "model-a"}])

# ---- direct calls derived from mapper-level tests (marked "derived", as the shared corpus does)
CASES["resolveConfigTopology"] = []
for name, topology, fw, disagg_fw, expected in [
        ("explicit role counts override deployment total and fallback",
         dict(AGGREGATE, disagg=True, num_gpus=12, num_prefill_gpu=8, num_decode_gpu=4), "sglang", True,
         {"disagg": True, "numPrefillGpu": 8, "numDecodeGpu": 4}),
        ("distributed aggregate with an explicitly absent decode role",
         {"framework": "sglang", "is_multinode": True, "prefill_tp": 8, "prefill_ep": 1, "prefill_num_workers": 1,
          "num_prefill_gpu": 8, "decode_tp": 0, "decode_ep": 0, "decode_num_workers": 0, "num_decode_gpu": 0},
         "sglang", False,
         {"disagg": False, "isMultinode": True, "prefillTp": 8, "decodeTp": 8, "numPrefillGpu": 8, "numDecodeGpu": 8}),
        ("asymmetric single-node worker pools", dict(AGGREGATE, decode_num_workers=2), "sglang", False,
         {"disagg": True, "prefillNumWorkers": 1, "decodeNumWorkers": 2, "numPrefillGpu": 4, "numDecodeGpu": 8}),
        ("other-framework legacy EP devices", {"framework": "vllm", "is_multinode": False, "tp": 1, "ep": 8}, "vllm", False,
         {"disagg": False, "numPrefillGpu": 8, "numDecodeGpu": 8})]:
    row = topo_row(topology)
    if row["isl"] == 0 and row["osl"] == 0:
        row["scenario_type"] = "agentic-coding"
    row["tput_per_gpu"] = 100
    case("resolveConfigTopology", f"shared benchmark and eval topology > {name} [derived: benchmark row]",
         [row, fw, disagg_fw], src=TOPO_TEST, expected_subset=expected,
         derived="Direct call derived from the mapper-level test: src is the benchmark row the test builds, "
                 "framework/disaggFromFw are normalizeFramework(row.framework, row.disagg). Expected is the "
                 "test's toMatchObject expectation.")
CASES["normalizePrecision"] = []
case("normalizePrecision", "mapBenchmarkRow > precision > defaults to empty string when absent and flags as unmapped [direct]",
     [""], src=BENCH_TEST, expected="",
     derived="mapper test asserts config.precision '' when precision is absent (String(undefined ?? '')); direct call derived")

for fn, cases in CASES.items():
    (HERE / f"cases-{fn}.json").write_text(json.dumps(cases, indent=1) + "\n")
    print(fn, len(cases))
