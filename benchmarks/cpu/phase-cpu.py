# CPU of a client process over its measured phase, from sample-threads.py's per-thread samples.
# usage: phase-cpu.py infx|python SAMPLES RESULT.json
#   infx: phase = benchmark_start/end_time_unix of the raw result; split by thread group
#   python: phase = (result file's mtime - duration) .. mtime (the reference writes it at the end)
import collections, json, os, re, sys
kind, samples_file, result = sys.argv[1:4]
samples = [json.loads(l) for l in open(samples_file) if l.strip()]
res = json.load(open(result))
if kind == "infx":
    st, en = res["benchmark_start_time_unix"], res["benchmark_end_time_unix"]
else:
    en = os.path.getmtime(result); st = en - res["duration"]
a = max((s for s in samples if s["t"] <= st), key=lambda s: s["t"])
after = [s for s in samples if s["t"] >= en]
b = min(after, key=lambda s: s["t"]) if after else samples[-1]
tick = a["tick"]
last = {}
for s in samples:
    if s["t"] > b["t"]:
        break
    for tid, v in s["threads"].items():
        # alive at the phase's start or born during it; a thread that ended keeps its last value
        if tid in a["threads"] or s["t"] > a["t"]:
            last[tid] = v
groups = collections.Counter()
for tid, (name, ticks) in last.items():
    groups[re.sub(r"[-#]?\d+$", "", name)] += ticks - a["threads"].get(tid, [name, 0])[1]
n = res["completed"]
total = sum(groups.values()) * 1000 / tick
line = f"{kind:6s} {os.path.basename(result)}: phase {en - st:.2f} s, {n} requests, CPU {total:.0f} ms = {total / max(1, n):.2f} ms/request"
if kind == "infx":
    c = res["infx"]["client"]
    line += (f" (JVM's own figure {c['cpu_percent_of_one_core'] / 100 * (en - st) * 1000 / max(1, n):.2f});"
             f" io_threads {c['io_threads']}, jit {c.get('jit')}, warm-up {c['client_warmup_requests']}")
    line += " | " + ", ".join(f"{g} {v * 1000 / tick / max(1, n):.2f}" for g, v in groups.most_common() if v)
print(line)
