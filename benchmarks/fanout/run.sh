#!/usr/bin/env bash
# Times the same 8-point sweep on the local Slurm with --max-parallel 1 and 4 and checks that both
# leave the same rows (identity and conc; the measured numbers differ run to run).
# Needs a running local Slurm (../shared/slurm/start-local-slurm.sh). Usage: benchmarks/fanout/run.sh [OUT]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
OUT="${1:-/tmp/infx-fanout}"
rm -rf "$OUT"; mkdir -p "$OUT"
for n in 1 4; do
  start=$(date +%s.%N)
  "$ROOT/infx" run "$ROOT/benchmarks/fanout/sweep.yaml" --adapter slurm --adapter-option slurm.gpus=0 \
    --runner-config "$ROOT/examples/configs/runners.yaml" --max-parallel "$n" --out "$OUT/p$n" >"$OUT/p$n.stdout" 2>"$OUT/p$n.stderr"
  end=$(date +%s.%N)
  printf 'max-parallel %s: %.1f s\n' "$n" "$(echo "$end - $start" | bc)"
done
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
def rows(n):
    rs = json.load(open(f"{out}/p{n}/results_bmk/agg_bmk.json"))
    flat = [r for x in rs for r in (x if isinstance(x, list) else [x])]
    return sorted((r["hw"], r["framework"], r["tp"], r["conc"], r["simulated"]) for r in flat)
a, b = rows(1), rows(4)
print(f"rows: {len(a)} vs {len(b)}; same identities: {a == b}")
PY
