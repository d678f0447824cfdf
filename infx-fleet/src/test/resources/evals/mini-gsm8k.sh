#!/usr/bin/env bash
# A small lm-eval-like client for offline tests against a real OpenAI-compatible server: asks
# grade-school arithmetic questions (written for this test, GSM8K-style) through
# /v1/chat/completions at temperature 0, scores them the way lm-eval's gsm8k task does
# (strict-match: the number after "#### "; flexible-extract: the last number in the answer) and
# writes lm-eval-shaped output under $EVAL_RESULT_DIR/<model>/ (results_<ts>.json, samples_gsm8k_<ts>.jsonl).
# Needs curl and jq.
set -euo pipefail
: "${OPENAI_BASE_URL:?}" "${EVAL_RESULT_DIR:?}" "${MODEL_NAME:?}"
questions=(
  "Tom has 3 apples and buys 4 more. How many apples does he have?|7"
  "A box holds 6 eggs. How many eggs are in 5 boxes?|30"
  "Sara had 20 dollars and spent 8. How many dollars are left?|12"
  "There are 4 rows of 9 chairs. How many chairs are there?|36"
  "A train travels 60 miles per hour for 3 hours. How many miles does it travel?|180"
)
out="$EVAL_RESULT_DIR/${MODEL_NAME//\//__}"
mkdir -p "$out"
ts="2026-12-01T12-00-00.000000"
samples="$out/samples_gsm8k_${ts}.jsonl"
: > "$samples"
strict=0
flex=0
n=0
for item in "${questions[@]}"; do
  q="${item%|*}"
  target="${item##*|}"
  body=$(jq -n --arg m "$MODEL_NAME" --arg q "Question: $q
Answer with the final number after ####." \
    '{model: $m, messages: [{role: "user", content: $q}], temperature: 0, max_tokens: 48}')
  reply=$(curl -sf --max-time 120 -H 'Content-Type: application/json' -d "$body" \
    "$OPENAI_BASE_URL/chat/completions" | jq -r '.choices[0].message.content // ""')
  s=$(printf '%s' "$reply" | grep -oE '#### -?[0-9.,]+' | head -n1 | sed 's/#### //; s/,//g' || true)
  f=$(printf '%s' "$reply" | grep -oE -- '-?[0-9]+(\.[0-9]+)?' | tail -n1 || true)
  hit_s=0; hit_f=0
  [ "$s" = "$target" ] && hit_s=1
  [ "$f" = "$target" ] && hit_f=1
  strict=$((strict + hit_s)); flex=$((flex + hit_f)); n=$((n + 1))
  jq -cn --argjson d "$((n - 1))" --arg t "$target" --arg r "$reply" --argjson s "$hit_s" --argjson f "$hit_f" \
    '{doc_id: $d, target: $t, resps: [[$r]], "exact_match,strict-match": $s, "exact_match,flexible-extract": $f}' >> "$samples"
done
jq -n --arg m "$MODEL_NAME" --argjson s "$strict" --argjson f "$flex" --argjson n "$n" '{
  results: {gsm8k: {alias: "gsm8k", "exact_match,strict-match": ($s / $n), "exact_match_stderr,strict-match": 0.0,
    "exact_match,flexible-extract": ($f / $n), "exact_match_stderr,flexible-extract": 0.0}},
  configs: {gsm8k: {task: "gsm8k", metric_list: [{metric: "exact_match"}],
    filter_list: [{name: "strict-match"}, {name: "flexible-extract"}], metadata: {model: $m}}},
  "n-samples": {gsm8k: {original: $n, effective: $n}},
  model_name: $m, lm_eval_version: "mini-gsm8k"}' > "$out/results_${ts}.json"
echo "mini-gsm8k: strict $strict/$n, flexible $flex/$n"
