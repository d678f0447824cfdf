#!/usr/bin/env python3
"""Builds the reference-derived evals cases in this folder by RUNNING the reference scripts.

    python3 derive.py --ref <InferenceX checkout or extracted files> [--pythonpath <dir with tabulate>]

<ref> must hold utils/collect_eval_results.py and utils/evals/validate_scores.py of
SemiAnalysisAI/InferenceX (the cases here were made from commit 843c6254ff69b567f772f6a5fd97675af3d04431,
PyYAML 6.0.3, tabulate 0.10.0 without wcwidth, CPython 3.11.7). The case format and the way a
case is run are those of ../shared/conformance/evals (see its README and run_case.py): input copied
to a fresh directory W, mtimes applied, validate_scores.py copied to W/utils/evals/, run with cwd W
and a clean environment, W's path replaced by {CWD}. Every expected file here is the reference's
own output; nothing is written by hand. Only the inputs below are ours.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
T0 = 1784000000  # mtimes (epoch s); later files get larger values where "newest" matters


def dumps(obj):
    return json.dumps(obj, indent=2) + "\n"


def meta_env(**over):
    """meta_env.json as benchmarks/benchmark_lib.sh _write_lm_eval_meta_json writes it (agentic
    rows carry ISL/OSL "0": AgentX has variable sequence lengths)."""
    m = {
        "is_multinode": False, "framework": "sglang", "precision": "fp8", "spec_decoding": "none",
        "recipe_fingerprint": "", "tp": 8, "pp": 1, "dcp_size": 1, "pcp_size": 1, "conc": 64,
        "ep": 1, "dp_attention": False, "prefill_tp": 8, "prefill_pp": 1, "prefill_dcp_size": 1,
        "prefill_pcp_size": 1, "prefill_ep": 1, "prefill_dp_attention": False,
        "prefill_num_workers": 1, "decode_tp": 8, "decode_pp": 1, "decode_dcp_size": 1,
        "decode_pcp_size": 1, "decode_ep": 1, "decode_dp_attention": False,
        "decode_num_workers": 1, "model": "moonshotai/Kimi-K2.5", "infmax_model_prefix": "kimik2.5",
        "hw": "b300", "isl": "0", "osl": "0",
    }
    m.update(over)
    return m


def swebench_results(task, resolved, total, model, report, version="0.4.9.2"):
    """The results JSON of utils/evals/swebench_score.py build_results_json (same keys, same
    arithmetic): the resolved RATE is published as exact_match,resolved with filter 'resolved'."""
    rate = resolved / total
    stderr = math.sqrt(rate * (1.0 - rate) / total) if total else 0.0
    return {
        "lm_eval_version": version,
        "model_name": model,
        "results": {task: {"alias": task, "exact_match,resolved": rate,
                           "exact_match_stderr,resolved": stderr}},
        "configs": {task: {"metric_list": [{"metric": "exact_match"}],
                           "filter_list": [{"name": "resolved"}]}},
        "n-samples": {task: {"effective": total, "original": total}},
        "swebench": {"resolved": resolved, "total": total, "resolved_rate": rate, "report": report},
    }


def gsm8k_results(strict, flex, n, model="kimi", version="0.4.9.2"):
    return {
        "lm_eval_version": version,
        "model_name": model,
        "results": {"gsm8k": {"alias": "gsm8k", "exact_match,strict-match": strict,
                              "exact_match_stderr,strict-match": 0.0071,
                              "exact_match,flexible-extract": flex,
                              "exact_match_stderr,flexible-extract": 0.0068}},
        "configs": {"gsm8k": {"metric_list": [{"metric": "exact_match"}],
                              "filter_list": [{"name": "strict-match"}, {"name": "flexible-extract"}],
                              "metadata": {"model": model}}},
        "n-samples": {"gsm8k": {"effective": n, "original": n}},
    }


REPORT = {"total_instances": 300, "submitted_instances": 300, "completed_instances": 293,
          "resolved_instances": 163, "unresolved_instances": 130, "empty_patch_instances": 5,
          "error_instances": 2, "resolved_ids": ["astropy__astropy-12907", "django__django-11099"],
          "schema_version": 2}

THRESHOLDS = (
    "# Model thresholds override task defaults.\n"
    "default:\n  gsm8k: 0.90\n  gpqa_diamond_cot_n_shot: 0.30\n  swebench_lite: 0.50\n"
    "models:\n  dsr1:\n    gsm8k: 0.91\n  kimik2.5:\n    gsm8k: 0.90\n"
)

CASES = []


def case(name, tool, argv, files, description, env=None, mtimes=None, empty_dirs=()):
    CASES.append(dict(name=name, tool=tool, argv=argv, files=files, description=description,
                      env=env or {}, mtimes=mtimes or {}, empty_dirs=list(empty_dirs)))


# ---------------------------------------------------------------- collect: SWE-bench (agentic)
case("collect/d01-swebench-agentic-flat", "collect", [".", "all"], {
    "meta_env.json": dumps(meta_env()),
    "results_swebench_lite.json": dumps(swebench_results(
        "swebench_lite", 163, 300, "moonshotai/Kimi-K2.5", REPORT)),
    "swebench_report_swebench_lite.json": dumps(REPORT),
    "predictions.jsonl": '{"instance_id": "astropy__astropy-12907", "model_patch": "diff"}\n',
}, "One agentic SWE-bench artifact downloaded flat: the resolved rate 163/300 is exact_match,resolved "
   "(filter 'resolved'), so it is the em_strict and the score; the staged harness report has no "
   "lm_eval_version and is ignored.")

case("collect/d02-swebench-and-gsm8k-artifacts", "collect", ["eval_results", "all"], {
    "eval_results/eval_kimik2.5_agentic_swe/meta_env.json": dumps(meta_env()),
    "eval_results/eval_kimik2.5_agentic_swe/results_swebench_lite.json": dumps(swebench_results(
        "swebench_lite", 49, 196, "kimi", None)),
    "eval_results/eval_dsr1_8k1k/meta_env.json": dumps(meta_env(
        infmax_model_prefix="dsr1", model="deepseek-ai/DeepSeek-R1-0528", hw="h200", framework="vllm",
        isl="8192", osl="1024", conc=32)),
    "eval_results/eval_dsr1_8k1k/results_2026-08-01T10-00-00.json": dumps(
        gsm8k_results(0.9522, 0.9545, 1319, model="dsr1")),
}, "A SWE-bench artifact (49/196 = 0.25) beside a gsm8k one: both rows, sorted by model prefix.")

case("collect/d03-swebench-newest-file-wins", "collect", ["res", "all", "hw"], {
    "res/a_swe_newer/meta_env.json": dumps(meta_env(hw="b200")),
    "res/a_swe_newer/results_gsm8k.json": dumps(gsm8k_results(0.93, 0.94, 1319)),
    "res/a_swe_newer/results_swebench_lite.json": dumps(swebench_results(
        "swebench_lite", 180, 300, "kimi", None)),
    "res/b_gsm_newer/meta_env.json": dumps(meta_env(hw="mi355x", framework="vllm")),
    "res/b_gsm_newer/results_gsm8k.json": dumps(gsm8k_results(0.91, 0.92, 1319)),
    "res/b_gsm_newer/results_swebench_lite.json": dumps(swebench_results(
        "swebench_lite", 150, 300, "kimi", None)),
}, "Agentic artifacts that also ran gsm8k: an unbatched artifact contributes only its newest result "
   "file, whichever task it holds.", mtimes={
    "res/a_swe_newer/results_gsm8k.json": T0, "res/a_swe_newer/results_swebench_lite.json": T0 + 60,
    "res/b_gsm_newer/results_gsm8k.json": T0 + 60, "res/b_gsm_newer/results_swebench_lite.json": T0,
})

case("collect/d04-swebench-rate-edges", "collect", ["r", "edges", "hw"], {
    "r/none/meta_env.json": dumps(meta_env(hw="h100", conc=4)),
    "r/none/results_swebench_lite.json": dumps(swebench_results("swebench_lite", 0, 300, "m", None)),
    "r/all/meta_env.json": dumps(meta_env(hw="h200", conc=8)),
    "r/all/results_swebench_lite.json": dumps(swebench_results("swebench_lite", 50, 50, "m", None)),
    "r/third/meta_env.json": dumps(meta_env(hw="mi300x", conc=16)),
    "r/third/results_swebench_lite.json": dumps(swebench_results("swebench_lite", 1, 3, "m", None)),
    "r/big/meta_env.json": dumps(meta_env(hw="gb200", conc=2048)),
    "r/big/results_swebench_lite.json": dumps(swebench_results("swebench_lite", 2293, 2294, "m", None)),
}, "Resolved 0/300 (score 0.0, stderr 0.0), 50/50 (1.0, 0.0), 1/3 and 2293/2294 (repr digits, a "
   "stderr below 1e-3): the zero rate is still a score.")

case("collect/d05-resolved-filter-names", "collect", [".", "names"], {
    "x/meta_env.json": dumps(meta_env(hw="b200")),
    "x/results_custom.json": dumps({
        "lm_eval_version": "0.4.9.2",
        "results": {
            "swe_unresolved": {"exact_match,unresolved": 0.4, "exact_match_stderr,unresolved": 0.02},
            "swe_flex_resolved": {"exact_match,flexible-resolved": 0.3,
                                  "exact_match,flexible-extract": 0.7},
            "swe_both": {"exact_match,strict-match": 0.8, "exact_match,resolved": 0.6,
                         "exact_match_stderr,resolved": 0.03},
            "swe_both_rev": {"exact_match,strict-match": 0.8, "exact_match_stderr,strict-match": 0.01,
                             "exact_match,resolved": 0.6},
            "swe_missing": {"acc": 0.5},
            "swe_count_metric": {"resolved,resolved": 163, "resolved_stderr,resolved": 0},
        },
        "configs": {
            "swe_unresolved": {"filter_list": [{"name": "unresolved"}]},
            "swe_flex_resolved": {"filter_list": [{"name": "flexible-extract"}, {"name": "flexible-resolved"}]},
            "swe_both": {"filter_list": [{"name": "strict-match"}, {"name": "resolved"}]},
            "swe_both_rev": {"filter_list": [{"name": "resolved"}, {"name": "strict-match"}]},
            "swe_missing": {"filter_list": [{"name": "resolved"}]},
            "swe_count_metric": {"metric_list": [{"metric": "resolved"}], "filter_list": [{"name": "resolved"}]},
        },
        "n-samples": {"swe_both": {"effective": 300}, "swe_count_metric": {"effective": 300}},
    }),
}, "Filter names containing 'resolved' (also 'unresolved', 'flexible-resolved') are the strict "
   "score and the last matching filter wins; with a filter list, acc is never read; a metric that is "
   "a resolved COUNT (163) is printed as a percentage like any score (16300.00%).")

case("collect/d06-swebench-count-score", "collect", ["out", "all"], {
    "out/eval_agentic/meta_env.json": dumps(meta_env(spec_decoding="mtp", dp_attention=True)),
    "out/eval_agentic/results_swebench_lite.json": dumps({
        "lm_eval_version": "0.4.9.2", "model_name": "kimi",
        "results": {"swebench_lite": {"alias": "swebench_lite", "exact_match,resolved": 163}},
        "configs": {"swebench_lite": {"metric_list": [{"metric": "exact_match"}],
                                      "filter_list": [{"name": "resolved"}]}},
        "n-samples": {"swebench_lite": {"effective": 300, "original": 300}},
        "swebench": {"resolved": 163, "total": 300, "resolved_rate": 163 / 300, "report": REPORT},
    }),
}, "A results file whose exact_match,resolved is the resolved count (163, an int, no stderr): the "
   "reference publishes it unchanged as em_strict/score (and formats it as 16300.00%).")

case("collect/d07-swebench-batched-and-multinode", "collect", ["e", "all"], {
    "e/batched/meta_env.json": dumps(meta_env(
        conc=16, eval_concs=[16, 64], completed_eval_concs=[16, 64], failed_eval_concs=[])),
    "e/batched/results_swebench_lite_conc16.json": dumps(swebench_results("swebench_lite", 160, 300, "m", None)),
    "e/batched/results_swebench_lite_conc64.json": dumps(swebench_results("swebench_lite", 158, 300, "m", None)),
    "e/multi/meta_env.json": dumps(meta_env(
        is_multinode=True, framework="dynamo-sglang", prefill_tp=4, prefill_ep=4,
        prefill_num_workers=2, decode_tp=8, decode_ep=8, decode_num_workers=1,
        prefill_dp_attention=True, decode_dp_attention=False, conc=512)),
    "e/multi/results_swebench_lite.json": dumps(swebench_results("swebench_lite", 170, 300, "m", None)),
}, "SWE-bench evaluated at two concurrencies in one artifact (one row per _concN file) and on a "
   "multi-node deployment (multi-node table).")

# ---------------------------------------------------------------- validate: thresholds not YAML
def vcase(name, argv, files, description, env=None, default_thresholds=THRESHOLDS, mtimes=None):
    f = dict(files)
    if default_thresholds is not None:
        f.setdefault("utils/evals/thresholds.yaml", default_thresholds)
    case(name, "validate", argv, f, description, env=env, mtimes=mtimes)


SWE_META = dumps(meta_env())
SWE_RES = dumps(swebench_results("swebench_lite", 163, 300, "kimi", None))
GSM_RES = dumps(gsm8k_results(0.93, 0.94, 1319))

vcase("validate/d01-thresholds-flow-sequence-unclosed", ["--thresholds", "bad.yaml"], {
    "bad.yaml": "default: [gsm8k: 0.9\n", "meta_env.json": SWE_META, "results_gsm8k.json": GSM_RES,
}, "A thresholds file that is not YAML (unclosed flow sequence): one WARN line carrying PyYAML's "
   "whole multi-line message; the run goes on with --min-score 0.85.")

vcase("validate/d02-default-thresholds-tab-indent", [], {
    "meta_env.json": SWE_META, "results_swebench_lite.json": SWE_RES,
}, "The built-in default thresholds file (absolute path) indented with a tab.",
    default_thresholds="default:\n\tswebench_lite: 0.5\n")

vcase("validate/d03-thresholds-bad-indentation", ["--thresholds", "t.yaml", "--results-glob", "results_*.json"], {
    "t.yaml": "default:\n  gsm8k: 0.90\n swebench_lite: 0.5\nmodels: {}\n",
    "meta_env.json": SWE_META, "results_gsm8k.json": GSM_RES, "results_swebench_lite.json": SWE_RES,
}, "A key indented less than its siblings: PyYAML's 'while parsing a block mapping' error.")

vcase("validate/d04-thresholds-mapping-value-in-plain", ["--thresholds=t.yml"], {
    "t.yml": "default: gsm8k: 0.90\n", "meta_env.json": SWE_META, "results_a.json": GSM_RES,
}, "'mapping values are not allowed here' (a ScannerError without context).")

vcase("validate/d05-thresholds-undefined-alias", ["--thresholds", "t.yaml"], {
    "t.yaml": "default: &d\n  gsm8k: 0.9\nmodels: *m\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "An undefined alias (ComposerError).")

vcase("validate/d06-thresholds-two-documents", ["--thresholds", "t.yaml"], {
    "t.yaml": "default: {gsm8k: 0.9}\n---\nmodels: {}\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "Two documents in one file: 'expected a single document in the stream'.")

vcase("validate/d07-thresholds-unknown-tag", ["--thresholds", "t.yaml"], {
    "t.yaml": "default:\n  gsm8k: !threshold 0.9\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "A tag the safe loader cannot construct (ConstructorError).")

vcase("validate/d08-thresholds-control-character", ["--thresholds", "t.yaml"], {
    "t.yaml": "default:\n  gsm8k: 0.9\x07\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "A control character (ReaderError: 'unacceptable character', with a position, no snippet).")

vcase("validate/d09-thresholds-unterminated-quote", ["--thresholds", "t.yaml"], {
    "t.yaml": "default:\n  \"gsm8k: 0.9\nmodels: {}\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "An unterminated double-quoted scalar runs to the end of the stream.")

vcase("validate/d10-thresholds-long-line-snippet", ["--thresholds", "t.yaml"], {
    "t.yaml": "default: {gsm8k: 0.9, gpqa_diamond_cot_n_shot: 0.3, swebench_lite: 0.5, "
              "some_other_task_with_a_long_name: 0.7 another_task: 0.4}\n",
    "meta_env.json": SWE_META, "results_gsm8k.json": GSM_RES,
}, "An error in a long line: PyYAML's snippet is cut to about 75 characters with ' ... '.")

vcase("validate/d11-thresholds-json-syntax-error", ["--thresholds", "t.json"], {
    "t.json": '{"default": {"gsm8k": 0.9,}, "models": {"dsr1": {"gsm8k": 0.91}\n',
    "meta_env.json": SWE_META, "results_gsm8k.json": GSM_RES,
}, "A JSON thresholds file with a syntax error is parsed as YAML (PyYAML's message, not json's).")

vcase("validate/d12-thresholds-int-tag-not-a-number", ["--thresholds", "t.yaml"], {
    "t.yaml": "default:\n  gsm8k: !!int ninety\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "!!int on a non-number: PyYAML raises a plain ValueError (not a YAMLError), so the WARN has no "
   "'invalid YAML: ' prefix.")

vcase("validate/d13-thresholds-duplicate-keys", ["--thresholds", "t.yaml"], {
    "t.yaml": "default:\n  gsm8k: 0.99\n  gsm8k: 0.5\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "Duplicate keys are valid for PyYAML (the last wins): the file loads and gsm8k's threshold is 0.5.")

vcase("validate/d14-thresholds-non-ascii-and-crlf", ["--thresholds", "t.yaml"], {
    "t.yaml": "# seuil: déjà vu\r\ndefault:\r\n  gsm8k: 0.9\r\n  \u00e9t\u00e9: [1, 2\r\n",
    "meta_env.json": SWE_META, "results_gsm8k.json": GSM_RES,
}, "CRLF line ends and non-ASCII text before the error (columns count characters).")

vcase("validate/d15-thresholds-invalid-utf8", ["--thresholds", "t.yaml"], {
    "t.yaml": b"default:\n  gsm8k: 0.9 \xff\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "Bytes that are not UTF-8: the UnicodeDecodeError text (a ValueError), no 'invalid YAML: '.")

vcase("validate/d16-swebench-below-threshold-batched", ["--expected-concs", "16 64"], {
    "meta_env.json": dumps(meta_env(conc=16, eval_concs=[16, 64], completed_eval_concs=[16, 64],
                                    failed_eval_concs=[])),
    "results_swebench_lite_conc16.json": dumps(swebench_results("swebench_lite", 160, 300, "m", None)),
    "results_swebench_lite_conc64.json": dumps(swebench_results("swebench_lite", 120, 300, "m", None)),
}, "Batched SWE-bench: conc 16 passes (0.5333 >= 0.5), conc 64 fails (0.4000 < 0.5).",
    env={"MODEL_PREFIX": "ignored"})

vcase("validate/d17-thresholds-empty-file", ["--thresholds", "t.yaml"], {
    "t.yaml": "", "meta_env.json": SWE_META, "results_gsm8k.json": GSM_RES,
}, "An empty thresholds file is YAML null: 'thresholds config must be a mapping'.")

vcase("validate/d18-thresholds-block-scalar-indent", ["--thresholds", "t.yaml"], {
    "t.yaml": "default:\n  gsm8k: 0.9\nmodels:\n  dsr1: |\n    x\n  y: [\n", "meta_env.json": SWE_META,
    "results_gsm8k.json": GSM_RES,
}, "An unclosed flow sequence at the end of the stream after a block scalar.")


def run_case(c, ref, pythonpath):
    tmp = Path(tempfile.mkdtemp(prefix="derive-evals-"))
    w = tmp / "w"
    w.mkdir()
    try:
        for rel, content in c["files"].items():
            p = w / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                p.write_bytes(content)
            else:
                p.write_bytes(content.encode("utf-8"))
        for d in c["empty_dirs"]:
            (w / d).mkdir(parents=True, exist_ok=True)
        mtimes = {rel: c["mtimes"].get(rel, T0) for rel in c["files"]}
        for rel, t in mtimes.items():
            os.utime(w / rel, (t, t))
        script = "utils/collect_eval_results.py" if c["tool"] == "collect" else "utils/evals/validate_scores.py"
        if c["tool"] == "validate":
            dst = w / script
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ref / script, dst)
            cmd = ["python3", script]
        else:
            cmd = ["python3", str(ref / script)]
        env = {"PATH": os.environ["PATH"], "HOME": str(w), "LC_ALL": "C.UTF-8",
               "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "80"}
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        env.update(c["env"])
        before = {str(q.relative_to(w)): (q.stat().st_mtime_ns, q.stat().st_size)
                  for q in w.rglob("*") if q.is_file()}
        p = subprocess.run(cmd + c["argv"], cwd=w, env=env, capture_output=True, timeout=120)
        written = []
        for q in sorted(w.rglob("*")):
            if not q.is_file():
                continue
            rel = str(q.relative_to(w))
            if rel == script and c["tool"] == "validate":
                continue
            st = (q.stat().st_mtime_ns, q.stat().st_size)
            if before.get(rel) != st:
                written.append(rel)

        def norm(b):
            s = b.decode("utf-8", errors="replace")
            for x in (str(w), os.path.realpath(w)):
                s = s.replace(x, "{CWD}")
            return s

        out_dir = HERE / c["name"]
        if out_dir.exists():
            shutil.rmtree(out_dir)
        (out_dir / "input").mkdir(parents=True)
        for rel, content in c["files"].items():
            q = out_dir / "input" / rel
            q.parent.mkdir(parents=True, exist_ok=True)
            q.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        exp = out_dir / "expected"
        exp.mkdir()
        (exp / "stdout.txt").write_text(norm(p.stdout), encoding="utf-8")
        (exp / "stderr.txt").write_text(norm(p.stderr), encoding="utf-8")
        (exp / "exit_code").write_text(f"{p.returncode}\n")
        for rel in written:
            q = exp / "files" / rel
            q.parent.mkdir(parents=True, exist_ok=True)
            q.write_text(norm((w / rel).read_bytes()), encoding="utf-8")
        cj = {"tool": c["tool"], "script": script, "argv": c["argv"], "env": c["env"], "cwd": "input",
              "description": c["description"], "mtimes": mtimes, "empty_dirs": c["empty_dirs"],
              "stderr_compare": "exact", "output_files": written, "exit_code": p.returncode}
        if c["tool"] == "collect":
            cj["agg_rows_compare"] = "stable-sort-by-source-dir"
        (out_dir / "case.json").write_text(json.dumps(cj, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return p.returncode
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True, type=Path)
    ap.add_argument("--pythonpath", default=None)
    args = ap.parse_args()
    for c in CASES:
        rc = run_case(c, args.ref.resolve(), args.pythonpath)
        print(f"{c['name']}: exit {rc}")


if __name__ == "__main__":
    main()
