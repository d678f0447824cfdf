# Per-thread CPU and wake-ups of a process every 0.1 s, one JSON line per sample
# (benchmarks/client-cpu.sh, client-capacity.sh).
# usage: sample-threads.py PID OUT
#   every 0.1 s: wall time, per thread: [name, utime+stime ticks, utime, stime,
#   voluntary context switches, involuntary context switches]. A voluntary switch is the thread
#   blocking (epoll_wait, a lock, a sleep) and later being woken: its count is the wake-ups.
import os, sys, time, json
pid, out = sys.argv[1], sys.argv[2]
f = open(out, "w")
tick = os.sysconf("SC_CLK_TCK")


def switches(tid):
    v = n = 0
    try:
        for line in open(f"/proc/{pid}/task/{tid}/status"):
            if line.startswith("voluntary_ctxt_switches:"):
                v = int(line.split()[1])
            elif line.startswith("nonvoluntary_ctxt_switches:"):
                n = int(line.split()[1])
    except OSError:
        pass
    return v, n


while True:
    try:
        rows = {}
        for tid in os.listdir(f"/proc/{pid}/task"):
            try:
                s = open(f"/proc/{pid}/task/{tid}/stat").read()
            except OSError:
                continue
            name = s[s.index("(") + 1:s.rindex(")")]
            fields = s[s.rindex(")") + 2:].split()
            ut, st = int(fields[11]), int(fields[12])
            rows[tid] = [name, ut + st, ut, st, *switches(tid)]
        f.write(json.dumps({"t": time.time(), "tick": tick, "threads": rows}) + "\n"); f.flush()
    except FileNotFoundError:
        break
    time.sleep(0.1)
