#!/usr/bin/env bash
# Whole-process time of `./infx generate full-sweep` over the real InferenceX masters (the shared
# conformance corpus's configs/), jar and CDS archive already built. Prints every run's wall and
# CPU (user+sys) seconds, their medians, and the machine load before and after.
#   usage: benchmarks/matrix-cli-time.sh [runs] [corpus-configs-dir]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RUNS="${1:-15}"
CONFIGS="${2:-${INFX_SHARED:-$ROOT/../shared}/conformance/matrix/configs}"
cd "$CONFIGS/.."
cmd=("$ROOT/infx" generate full-sweep --config-files configs/nvidia-master.yaml configs/amd-master.yaml
     --runner-config configs/runners.yaml)
"${cmd[@]}" > /dev/null   # builds the jar and the CDS archive when needed
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
walls=(); cpus=()
for _ in $(seq "$RUNS"); do
  out=$( { /usr/bin/time -f "%e %U %S" "${cmd[@]}" > /dev/null; } 2>&1 | tail -1)
  read -r wall user sys <<< "$out"
  cpu=$(echo "$user + $sys" | bc)
  walls+=("$wall"); cpus+=("$cpu")
  echo "wall ${wall}s cpu ${cpu}s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median wall $(median "${walls[@]}")s, median cpu $(median "${cpus[@]}")s over $RUNS runs"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
