#!/usr/bin/env bash
# TTFT/TPOT/E2EL of `infx bench serve` against the unmodified InferenceX/vLLM Python client on the
# real llama.cpp llama-server of ../shared/realserver (issue 12): both clients run ALTERNATELY on
# the same server, same workload (random, ISL/OSL fixed, --ignore-eos, chat endpoint: the Python
# client counts no output tokens on llama.cpp's /v1/completions, whose usage rides on a chunk with
# choices), REPS times per concurrency. Prints one line per run and the medians of the per-run
# medians, infx/Python ratio, and the server's own median prompt time (llama-server's log,
# `prompt eval time`) in each client's runs: equal server times mean a TTFT difference is the
# clients'. Port 18290 unless PORT is set; ENDPOINT=/v1/completions measures the completions API
# (backend openai; the Python client then reports TPOT 0: it counts no output tokens there).
# BURN=N runs N CPU-burning processes (a shell busy loop each, i.e. N cores busy) for the whole
# run, so both clients are measured on a loaded machine (issue 29: BURN=1, load average 2-4); every
# run's line ends with the 1-minute load average at its end. WIRE=1 adds --save-detailed to infx
# and prints its per-request wire breakdown (medians, ms after the send: connection ready, request
# written, first byte, first token): where infx's TTFT goes.
# usage: benchmarks/llama-vs-python.sh [REPS=3] [NUM_PROMPTS=48] [CONCS="1 4 16"] [ISL=256] [OSL=64]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${INFX_SHARED:-$ROOT/../shared}"
RS="$SHARED/realserver"
REPS=${1:-3}; N=${2:-48}; CONCS=${3:-"1 4 16"}; ISL=${4:-256}; OSL=${5:-64}
PORT=${PORT:-18290}
ENDPOINT=${ENDPOINT:-/v1/chat/completions}
INFX=${INFX:-$ROOT/infx}  # another build's launcher, e.g. a copy that edits here cannot rebuild
read -r -a INFX_ARGS <<<"${INFX_ARGS:-}"  # extra bench serve options, e.g. INFX_ARGS="--io-threads 1"
BACKEND=openai-chat; [ "$ENDPOINT" = /v1/completions ] && BACKEND=openai
OUT=$(mktemp -d /tmp/infx-llama-vs-python.XXXX)
export INFX_REALSERVER_STATE="$OUT/state"
"$RS/start-llama-server.sh" "$PORT" 16 $((16 * 1024)) >/dev/null
BURNERS=()
cleanup() {
  for b in ${BURNERS[@]+"${BURNERS[@]}"}; do kill "$b" 2>/dev/null || true; done
  "$RS/stop-llama-server.sh" "$PORT" >/dev/null
}
trap cleanup EXIT
for _ in $(seq 1 "${BURN:-0}"); do
  bash -c 'while :; do :; done' &
  BURNERS+=("$!")
done
[ "${WIRE:-0}" = 1 ] && INFX_ARGS+=(--save-detailed)
LOG="$OUT/state/llama-server-$PORT.log"
common=(--base-url "http://127.0.0.1:$PORT" --endpoint "$ENDPOINT" --model tiny
  --dataset-name random --random-input-len "$ISL" --random-output-len "$OSL"
  --random-range-ratio 1.0 --ignore-eos --seed 0 --save-result --result-dir "$OUT")
# the server's median prompt-eval time (ms) over the log lines a client's run added
server_prompt() { tail -n +"$(($1 + 1))" "$LOG" | grep -o 'prompt eval time = *[0-9.]*' \
  | awk '{print $NF}' | sort -n | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "n/a"}'; }
load1() { cut -d' ' -f1 /proc/loadavg; }
wire() { [ "${WIRE:-0}" = 1 ] && python3 -c "
import json, statistics, sys
w = json.load(open(sys.argv[1]))['infx']['wire_timings_in_milliseconds']
med = lambda k: statistics.median(v for v in w[k] if v is not None) if any(v is not None for v in w[k]) else float('nan')
print(' wire ms: ready %.2f written %.2f first_byte %.2f first_token %.2f' % tuple(med(k) for k in ('connection_ready', 'request_written', 'first_byte', 'first_token')))" "$1" || true; }
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.3f %.3f %.3f %d' % (d['median_ttft_ms'], d['median_tpot_ms'], d['median_e2el_ms'], d['completed']))" "$1"; }
echo "load: $(uptime | sed 's/.*load/load/') burners: ${BURN:-0}"
for c in $CONCS; do
  for r in $(seq 1 "$REPS"); do
    mark=$(wc -l <"$LOG")
    "$RS/python-client/run.sh" --backend "$BACKEND" "${common[@]}" --num-prompts "$N" \
      --max-concurrency "$c" --result-filename "py-c$c-$r.json" >/dev/null 2>&1
    echo "c=$c rep=$r python ttft/tpot/e2el/completed: $(field "$OUT/py-c$c-$r.json") server prompt ms: $(server_prompt "$mark") load $(load1)"
    mark=$(wc -l <"$LOG")
    "$INFX" bench serve --backend "$BACKEND" "${common[@]}" --num-prompts "$N" \
      --max-concurrency "$c" --tokenizer "$RS/tokenizer/tokenizer.json" --disable-tqdm \
      --random-input-len-basis client ${INFX_ARGS[@]+"${INFX_ARGS[@]}"} \
      --result-filename "infx-c$c-$r.json" >/dev/null 2>&1 || true
    echo "c=$c rep=$r infx   ttft/tpot/e2el/completed: $(field "$OUT/infx-c$c-$r.json") server prompt ms: $(server_prompt "$mark") load $(load1)$(wire "$OUT/infx-c$c-$r.json")"
  done
done
python3 - "$OUT" $CONCS <<'PY'
import json, sys, statistics, glob
out = sys.argv[1]
print("conc | metric | python (ms) | infx (ms) | infx/python")
for c in sys.argv[2:]:
    for m in ("ttft", "tpot", "e2el"):
        py = statistics.median(json.load(open(f))["median_%s_ms" % m] for f in glob.glob(f"{out}/py-c{c}-*.json"))
        ix = statistics.median(json.load(open(f))["median_%s_ms" % m] for f in glob.glob(f"{out}/infx-c{c}-*.json"))
        ratio = f"{ix / py:.3f}" if py else "n/a"
        print(f"{c} | {m} | {py:.2f} | {ix:.2f} | {ratio}")
PY
echo "load: $(uptime | sed 's/.*load/load/')"
echo "results in $OUT"
