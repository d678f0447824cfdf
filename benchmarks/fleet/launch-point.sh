#!/usr/bin/env bash
# Harness: wall-clock time of `infx fleet launch` for one single-node 8k/1k point at conc 2 on the
# embedded simulator (defaults: 10 x conc prompts, 2 x conc warm-ups), end to end through the CLI
# (JVM start, projection, simulator, readiness, client, normalization, job_event.json).
# Usage: benchmarks/fleet/launch-point.sh [ADAPTER=local|slurm] [RUNS=3]
# The Slurm variant needs the local Slurm up (shared/slurm/start-local-slurm.sh).
set -euo pipefail
adapter="${1:-local}"
runs="${2:-3}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/row.json" <<'ROW'
{"image": "lmsysorg/sglang:v0.5.16-cu130", "model": "deepseek-ai/DeepSeek-R1-0528", "model-prefix": "dsr1",
 "precision": "fp8", "framework": "sglang", "runner": "h200", "isl": 8192, "osl": 1024, "tp": 8, "pp": 1,
 "dcp-size": 1, "pcp-size": 1, "conc": 2, "max-model-len": 9472, "ep": 1, "dp-attn": false,
 "spec-decoding": "none", "exp-name": "dsr1_8k1k", "disagg": false, "run-eval": false}
ROW
"$root/infx" --version >/dev/null   # build once, outside the timing
for i in $(seq 1 "$runs"); do
  out="$work/out-$i"
  start=$(date +%s.%N)
  "$root/infx" fleet launch --row "$work/row.json" --runner "infx-bench_$i" --adapter "$adapter" --out "$out" -q >/dev/null
  end=$(date +%s.%N)
  printf '%s run %d: %.1f s (load %s)\n' "$adapter" "$i" "$(awk -v a="$start" -v b="$end" 'BEGIN{print b-a}')" "$(cut -d' ' -f1 /proc/loadavg)"
done
