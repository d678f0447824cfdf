#!/usr/bin/env bash
# Capacity figure of the client (issue 4): the exact `infx bench serve` command against
# ../shared/bench/fastsse (nginx streaming a canned 128-token chat response), repeated RUNS times.
# Prints machine load before/after each run and the lines that go to docs/performance.md.
# nginx and the client share the machine's cores, so the server is on loopback and bench serve's
# loopback defaults apply (one I/O thread, C1 only: see IoThreads, ClientJit); INFX_ARGS adds options,
# e.g. INFX_ARGS="--io-threads 2 --client-jit tiered" for the earlier defaults. Port 18080 unless PORT.
# usage: benchmarks/client-capacity.sh [RUNS=3] [NUM_PROMPTS=40000] [CONC=64]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${INFX_SHARED:-$ROOT/../shared}"
RUNS=${1:-3}; N=${2:-40000}; CONC=${3:-64}
PORT=${PORT:-18080}
read -r -a INFX_ARGS <<<"${INFX_ARGS:-}"
OUT=$(mktemp -d /tmp/infx-capacity.XXXX)
"$SHARED/bench/fastsse/start.sh" "$PORT" 128 >/dev/null
trap '"$SHARED/bench/fastsse/stop.sh" >/dev/null' EXIT
python3 "$SHARED/bench/fastsse/make_tokenizer.py" "$OUT/tokenizer.json"
for i in $(seq 1 "$RUNS"); do
  echo "== run $i: $(uptime | sed 's/.*load/load/')"
  "$ROOT/infx" bench serve --backend openai-chat --base-url "http://127.0.0.1:$PORT" \
    --endpoint /v1/chat/completions --model tiny --tokenizer "$OUT/tokenizer.json" \
    --dataset-name random --random-input-len 256 --random-output-len 128 \
    --random-range-ratio 1.0 --num-prompts "$N" --max-concurrency "$CONC" --request-rate inf \
    --ignore-eos --num-warmups 128 --save-result --result-dir "$OUT" --result-filename F.json \
    --disable-tqdm ${INFX_ARGS[@]+"${INFX_ARGS[@]}"} 2>/dev/null \
    | grep -E "Successful|Failed|duration|Request throughput|Client|Median TTFT|P99 TTFT"
  echo "   after: $(uptime | sed 's/.*load/load/')"
done
