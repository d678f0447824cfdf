#!/usr/bin/env bash
# A stand-in for `python3 -m lm_eval` in tests: checks that the launched server answers on $PORT
# (as lm-eval's OpenAI-compatible client would use it), then writes lm-eval-shaped output under
# $EVAL_RESULT_DIR/<model>/ -- results_<timestamp>.json and samples_gsm8k_<timestamp>.jsonl.
# The score is FAKE_EVAL_SCORE (default 0.95); FAKE_EVAL_EXIT makes it exit with that status.
set -euo pipefail
: "${PORT:?}" "${EVAL_RESULT_DIR:?}" "${MODEL_NAME:?}" "${EVAL_TASKS_DIR:?}"
exec 3<>"/dev/tcp/127.0.0.1/${PORT}"
printf 'GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
read -r status_line <&3
exec 3>&-
case "$status_line" in
  *" 200"*) ;;
  *) echo "fake-lm-eval: server on port $PORT answered: $status_line" >&2; exit 3 ;;
esac
score="${FAKE_EVAL_SCORE:-0.95}"
flex="${FAKE_EVAL_FLEX:-$score}"
n="${EVAL_LIMIT:-1319}"
out="$EVAL_RESULT_DIR/${MODEL_NAME//\//__}"
mkdir -p "$out"
ts="2026-12-01T12-00-00.000000"
cat > "$out/results_${ts}.json" <<JSON
{
  "results": {
    "gsm8k": {
      "alias": "gsm8k",
      "exact_match,strict-match": ${score},
      "exact_match_stderr,strict-match": 0.0059,
      "exact_match,flexible-extract": ${flex},
      "exact_match_stderr,flexible-extract": 0.0058
    }
  },
  "configs": {
    "gsm8k": {
      "task": "gsm8k",
      "metric_list": [{"metric": "exact_match", "aggregation": "mean", "higher_is_better": true}],
      "filter_list": [{"name": "strict-match"}, {"name": "flexible-extract"}],
      "metadata": {"model": "${MODEL_NAME}"}
    }
  },
  "n-samples": {"gsm8k": {"original": 1319, "effective": ${n}}},
  "model_name": "${MODEL_NAME}",
  "lm_eval_version": "0.4.9",
  "concurrency": "${EVAL_CONCURRENT_REQUESTS}",
  "base_url": "${OPENAI_BASE_URL}"
}
JSON
printf '{"doc_id": 0, "target": "72", "resps": [["72"]], "exact_match": 1.0}\n' > "$out/samples_gsm8k_${ts}.jsonl"
echo "fake-lm-eval: wrote $out/results_${ts}.json (score $score)"
exit "${FAKE_EVAL_EXIT:-0}"
