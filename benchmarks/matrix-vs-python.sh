#!/usr/bin/env bash
# infx against the Python reference generator, timed ALTERNATELY on the same machine (so load
# drifts hit both equally): the whole `generate full-sweep` process over both real InferenceX
# masters. Prints each run's wall seconds, both medians and the ratio infx / Python (issue 13:
# at most 0.5). Needs python3 with pydantic 2 and PyYAML for the reference.
#   usage: benchmarks/matrix-vs-python.sh [pairs] [shared-dir]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PAIRS="${1:-10}"
SHARED="${2:-${INFX_SHARED:-$ROOT/../shared}}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp -r "$SHARED/conformance/matrix/configs" "$WORK/"
cd "$WORK"
args=(full-sweep --config-files configs/nvidia-master.yaml configs/amd-master.yaml
      --runner-config configs/runners.yaml)
infx=("$ROOT/infx" generate "${args[@]}")
py=(env PYTHONPATH="$SHARED/reference/matrix" python3 -m infx.matrix.generate "${args[@]}")
"${infx[@]}" > infx.json   # builds the jar and the CDS archive when needed
"${py[@]}" > py.json
cmp -s infx.json py.json || { echo "outputs differ: infx.json vs py.json" >&2; exit 1; }
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
walls_infx=(); walls_py=()
for _ in $(seq "$PAIRS"); do
  a=$( { /usr/bin/time -f "%e" "${infx[@]}" > /dev/null; } 2>&1 | tail -1)
  b=$( { /usr/bin/time -f "%e" "${py[@]}" > /dev/null; } 2>&1 | tail -1)
  walls_infx+=("$a"); walls_py+=("$b")
  echo "infx ${a}s  python ${b}s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mi=$(median "${walls_infx[@]}"); mp=$(median "${walls_py[@]}")
echo "median infx ${mi}s, median python ${mp}s, ratio $(echo "scale=2; $mi / $mp" | bc) over $PAIRS pairs"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
