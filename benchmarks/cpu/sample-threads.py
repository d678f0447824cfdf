# Per-thread CPU ticks of a process every 0.1 s, one JSON line per sample (benchmarks/client-cpu.sh).
# usage: sample.py PID OUT  -- every 0.1 s: wall time, per-thread (tid, name, utime+stime ticks)
import os, sys, time, json
pid, out = sys.argv[1], sys.argv[2]
f = open(out, "w")
tick = os.sysconf("SC_CLK_TCK")
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
            rows[tid] = [name, int(fields[11]) + int(fields[12])]
        f.write(json.dumps({"t": time.time(), "tick": tick, "threads": rows}) + "\n"); f.flush()
    except FileNotFoundError:
        break
    time.sleep(0.1)
