#!/usr/bin/env bash
# Overhead and scale figures of the client (issue 4, docs/performance.md › Client): the simulator
# runs as its own process (`infx sim`), ClientHarness drives it and compares the client's arrival
# stamps with the simulator's true timeline (GET /infx/timeline/<id>).
#   usage: benchmarks/client-overhead.sh overhead [STREAMS…]     (default 64 256 1024)
#          benchmarks/client-overhead.sh scale [STREAMS=10000] [TOKENS=2000]
# SIM_OPTS adds simulator options (e.g. "--io-threads 2"); SIM_PREFIX / CLIENT_PREFIX prefix the two processes (e.g. "taskset -c 1" / "taskset -c 0" to
# give each its own core); HARNESS_JAVA_OPTS adds JVM options to the client.
# Needs benchmarks/target/benchmarks.jar (mvn -q -B package -pl benchmarks -am -DskipTests).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JAR="$ROOT/benchmarks/target/benchmarks.jar"
MODE="${1:-overhead}"; shift || true
PORT=18471
LOG=$(mktemp /tmp/infx-sim.XXXX.log)
start_sim() {  # $@: extra simulator options
  ${SIM_PREFIX:-} "$ROOT/infx" sim --port "$PORT" --max-num-seqs 20000 --timeline-capacity 100000 ${SIM_OPTS:-} "$@" > "$LOG" 2>&1 &
  SIM=$!
  trap 'kill $SIM 2>/dev/null || true' EXIT
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && return; sleep 0.2; done
  echo "simulator did not start: $(cat "$LOG")" >&2; exit 1
}
case "$MODE" in
  overhead)
    start_sim
    for s in "${@:-64 256 1024}"; do
      for n in $s; do
        echo "== $(cut -d' ' -f1-3 /proc/loadavg) (load before)"
        ${CLIENT_PREFIX:-} java -Xmx1g ${HARNESS_JAVA_OPTS:-} -cp "$JAR" io.infx.benchmarks.client.ClientHarness overhead \
          --sim-url "http://127.0.0.1:$PORT" --streams "$n" --requests $((n * 10 > 5000 ? n * 10 : 5000)) --tokens 64
      done
    done ;;
  scale)
    STREAMS="${1:-10000}"; TOKENS="${2:-2000}"
    ulimit -n "$(ulimit -Hn)" 2>/dev/null || true   # 10k streams need > 10k descriptors per process
    start_sim --decode-step-ms 20 --decode-step-per-seq-us 0
    echo "== $(cut -d' ' -f1-3 /proc/loadavg) (load before)"
    java -Xmx2g -cp "$JAR" io.infx.benchmarks.client.ClientHarness scale \
      --sim-url "http://127.0.0.1:$PORT" --streams "$STREAMS" --tokens "$TOKENS" ;;
  *) echo "usage: $0 overhead [STREAMS…] | scale [STREAMS] [TOKENS]" >&2; exit 2 ;;
esac
