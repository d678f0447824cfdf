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
trap '"$RS/stop-llama-server.sh" "$PORT" >/dev/null' EXIT
LOG="$OUT/state/llama-server-$PORT.log"
common=(--base-url "http://127.0.0.1:$PORT" --endpoint "$ENDPOINT" --model tiny
  --dataset-name random --random-input-len "$ISL" --random-output-len "$OSL"
  --random-range-ratio 1.0 --ignore-eos --seed 0 --save-result --result-dir "$OUT")
# the server's median prompt-eval time (ms) over the log lines a client's run added
server_prompt() { tail -n +"$(($1 + 1))" "$LOG" | grep -o 'prompt eval time = *[0-9.]*' \
  | awk '{print $NF}' | sort -n | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "n/a"}'; }
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('%.3f %.3f %.3f %d' % (d['median_ttft_ms'], d['median_tpot_ms'], d['median_e2el_ms'], d['completed']))" "$1"; }
echo "load: $(uptime | sed 's/.*load/load/')"
for c in $CONCS; do
  for r in $(seq 1 "$REPS"); do
    mark=$(wc -l <"$LOG")
    "$RS/python-client/run.sh" --backend "$BACKEND" "${common[@]}" --num-prompts "$N" \
      --max-concurrency "$c" --result-filename "py-c$c-$r.json" >/dev/null 2>&1
    echo "c=$c rep=$r python ttft/tpot/e2el/completed: $(field "$OUT/py-c$c-$r.json") server prompt ms: $(server_prompt "$mark")"
    mark=$(wc -l <"$LOG")
    "$INFX" bench serve --backend "$BACKEND" "${common[@]}" --num-prompts "$N" \
      --max-concurrency "$c" --tokenizer "$RS/tokenizer/tokenizer.json" --disable-tqdm \
      --random-input-len-basis client ${INFX_ARGS[@]+"${INFX_ARGS[@]}"} \
      --result-filename "infx-c$c-$r.json" >/dev/null 2>&1 || true
    echo "c=$c rep=$r infx   ttft/tpot/e2el/completed: $(field "$OUT/infx-c$c-$r.json") server prompt ms: $(server_prompt "$mark")"
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
