#!/usr/bin/env bash
# CPU per request of `infx bench serve` and of the unmodified InferenceX/vLLM Python client over
# their MEASURED PHASES on ../shared/realserver's llama-server (chat, random ISL 256 / OSL 64,
# --ignore-eos), the clients alternating, REPS times: the client's CPU is the server's loss when
# both share the machine's cores, and unlike wall-clock latency it hardly depends on the machine's
# load. Per-thread CPU from /proc/PID/task/*/stat every 0.1 s (10 ms ticks); infx's split by thread
# group (httpclient-dispatch = I/O reactor, C1/C2 CompilerThread = JIT, java = main/scheduler).
# Port 18296 unless PORT is set; INFX_ARGS adds bench serve options (e.g. "--client-jit tiered
# --io-threads 2" for the behaviour before the loopback defaults); INFX another build's launcher.
# usage: benchmarks/client-cpu.sh [REPS=2] [NUM_PROMPTS=96] [CONC=16]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${INFX_SHARED:-$ROOT/../shared}"
RS="$SHARED/realserver"
REPS=${1:-2}; N=${2:-96}; C=${3:-16}
PORT=${PORT:-18296}
INFX=${INFX:-$ROOT/infx}
read -r -a INFX_ARGS <<<"${INFX_ARGS:-}"
OUT=$(mktemp -d /tmp/infx-client-cpu.XXXX)
export INFX_REALSERVER_STATE="$OUT/state"
"$RS/start-llama-server.sh" "$PORT" 16 $((16 * 1024)) >/dev/null
trap '"$RS/stop-llama-server.sh" "$PORT" >/dev/null' EXIT
common=(--backend openai-chat --base-url "http://127.0.0.1:$PORT" --endpoint /v1/chat/completions
  --model tiny --dataset-name random --random-input-len 256 --random-output-len 64
  --random-range-ratio 1.0 --ignore-eos --seed 0 --save-result --result-dir "$OUT"
  --num-prompts "$N" --max-concurrency "$C")
sampled() { # TAG COMMAND... : runs the command, samples its process's threads (both launchers
  # exec the client, so the PID stays the client's)
  local tag=$1; shift
  "$@" >"$OUT/$tag.out" 2>&1 &
  local p=$!
  python3 "$ROOT/benchmarks/cpu/sample-threads.py" "$p" "$OUT/$tag.samples" &
  local s=$!
  wait "$p" || true
  sleep 0.2; kill "$s" 2>/dev/null || true
}
echo "load: $(uptime | sed 's/.*load/load/')"
for r in $(seq 1 "$REPS"); do
  sampled "py-$r" "$RS/python-client/run.sh" "${common[@]}" --result-filename "py-$r.json"
  python3 "$ROOT/benchmarks/cpu/phase-cpu.py" python "$OUT/py-$r.samples" "$OUT/py-$r.json"
  sampled "infx-$r" "$INFX" bench serve "${common[@]}" --tokenizer "$RS/tokenizer/tokenizer.json" \
    --disable-tqdm --random-input-len-basis client ${INFX_ARGS[@]+"${INFX_ARGS[@]}"} \
    --result-filename "infx-$r.json"
  python3 "$ROOT/benchmarks/cpu/phase-cpu.py" infx "$OUT/infx-$r.samples" "$OUT/infx-$r.json"
done
echo "load: $(uptime | sed 's/.*load/load/')"
echo "results in $OUT"
