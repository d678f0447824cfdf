#!/usr/bin/env bash
# `infx search` against a dense sweep on the real llama.cpp llama-server of ../shared/realserver
# (issue 23): the same configurations (examples/configs/llamacpp.yaml, its recipe), the same SLO,
# the same server shape, once searched (bracketing + interpolation, at most MAX_PROBES loads per
# configuration) and once swept densely (`--strategy dense`: every concurrency LO..HI measured
# once). Both keep one llama-server up per configuration, started from the recipe with the
# environment of the range's top (-np HI, LLAMA_CTX = HI × (ISL + OSL + 64) so every slot holds a
# request). Checks, per configuration: the search used at most MAX_PROBES probes and one server
# start; its best concurrency agrees with the dense sweep's (the largest concurrency passing with
# every smaller one passing too) within one step. Prints the per-probe figures of both, the
# verdict, the elapsed times and the load average before and after (the numbers are measurements
# on a shared 2-core machine: read them with the load).
# usage: benchmarks/slo-search-vs-dense.sh [SLO='tpot.p50<=25ms'] [LO=1] [HI=32] [MAX_PROBES=8]
#   INFX=<launcher> (default ./infx), OUT=<dir> (default a fresh /tmp directory)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SLO=${1:-'tpot.p50<=25ms'}; LO=${2:-1}; HI=${3:-32}; MAX_PROBES=${4:-8}
INFX=${INFX:-$ROOT/infx}
OUT=${OUT:-$(mktemp -d /tmp/infx-slo-search.XXXX)}
CFG="$ROOT/examples/configs/llamacpp.yaml"
mkdir -p "$OUT"
# ISL 256 + OSL 64 per request (the config's workload), 64 tokens of slack per slot
export INFX_LLAMA_CTX=$((HI * (256 + 64 + 64)))
load() { uptime | sed 's/.*load average/load average/'; }
echo "start: $(date -u +%FT%TZ), $(load), SLO $SLO, conc $LO..$HI, max probes $MAX_PROBES, ctx $INFX_LLAMA_CTX, out $OUT"
t0=$(date +%s)
"$INFX" search "$CFG" --slo "$SLO" --range "$LO:$HI" --max-probes "$MAX_PROBES" --out "$OUT/search" \
  >"$OUT/search.txt" 2>"$OUT/search.err" || { cat "$OUT/search.err" >&2; exit 1; }
t1=$(date +%s)
echo "search done in $((t1 - t0)) s, $(load)"
"$INFX" search "$CFG" --slo "$SLO" --range "$LO:$HI" --strategy dense --out "$OUT/dense" \
  >"$OUT/dense.txt" 2>"$OUT/dense.err" || { cat "$OUT/dense.err" >&2; exit 1; }
t2=$(date +%s)
echo "dense sweep done in $((t2 - t1)) s, $(load)"
python3 - "$OUT" "$MAX_PROBES" <<'PY'
import json, sys
out, max_probes = sys.argv[1], int(sys.argv[2])
s = json.load(open(f"{out}/search/search.json"))
d = json.load(open(f"{out}/dense/search.json"))
ok = True
def row(p):
    t = ", ".join(f"{x['term']}: {x['mean'] * (1000 if x['key'] != 'goodput' and 'intvty' not in x['key'] else 1):.2f}"
                  for x in p["terms"])
    return f"  conc {int(p['load']):3d}  {p['verdict']:9s}  ratio {p['ratio'] if p['ratio'] is not None else float('nan'):.3f}  ({t}{'' if 'failure' not in p else ' FAILED ' + p['failure']})"
def side(name, c, key):
    print(f" {name}: best {c.get('best')} {c.get('bracket')} in {c.get('probes_used')} probes "
          f"({c.get('measurements')} measurements), {c.get('server_starts')} server start(s), stop {c.get('stop')}")
    for p in sorted(c["probes"], key=lambda p: p[key]):
        print(row(p))
    for a in c.get("anomalies", []):
        print(f"  {a['kind']}: {a['message']}")
for cs, cd in zip(s["configurations"], d["configurations"]):
    print(f"configuration {cs['pattern']}")
    side("search", cs, "order")
    side("dense ", cd, "load")
    b1, b2 = cs.get("best"), cd.get("best")
    agree = (b1 is None and b2 is None) or (b1 is not None and b2 is not None and abs(b1 - b2) <= 1)
    checks = {"probes <= %d" % max_probes: cs.get("probes_used", 99) <= max_probes,
              "one server start": cs.get("server_starts") == 1,
              "boundary within one step of the dense sweep": agree}
    for k, v in checks.items():
        print(f" {'PASS' if v else 'FAIL'}: {k}")
        ok = ok and v
print("RESULT:", "PASS" if ok else "FAIL")
PY
echo "end: $(date -u +%FT%TZ), $(load)"
