# CPU and wake-ups of a client process over its measured phase, from sample-threads.py's
# per-thread samples.
# usage: phase-cpu.py infx|python SAMPLES RESULT.json
#   infx: phase = benchmark_start/end_time_unix of the raw result; split by thread group
#   python: phase = (result file's mtime - duration) .. mtime (the reference writes it at the end)
# Prints CPU per request (user + system), then the system share, and wake-ups (voluntary context
# switches) per request and per output token chunk, in total and per thread group.
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
sys_ticks = 0
wake = collections.Counter()
invol = 0
for tid, v in last.items():
    name = v[0]
    base = a["threads"].get(tid, [name, 0, 0, 0, 0, 0])
    g = re.sub(r"[-#]?\d+$", "", name)
    groups[g] += v[1] - base[1]
    if len(v) >= 6 and len(base) >= 6:  # samples of the older two-field format have no split
        sys_ticks += v[3] - base[3]
        wake[g] += v[4] - base[4]
        invol += v[5] - base[5]
n = res["completed"]
chunks = res.get("total_output_tokens") or 0
total = sum(groups.values()) * 1000 / tick
line = f"{kind:6s} {os.path.basename(result)}: phase {en - st:.2f} s, {n} requests, CPU {total:.0f} ms = {total / max(1, n):.3f} ms/request"
if total:
    line += f" ({sys_ticks * 1000 / tick * 100 / total:.0f} % system)"
if wake:
    w = sum(wake.values())
    line += f"; wake-ups {w / max(1, n):.1f}/request"
    if chunks:
        line += f", {w / chunks:.2f}/output token"
    line += f", involuntary switches {invol / max(1, n):.1f}/request"
if kind == "infx":
    c = res["infx"]["client"]
    line += (f" (JVM's own CPU figure {c['cpu_percent_of_one_core'] / 100 * (en - st) * 1000 / max(1, n):.3f} ms/request);"
             f" io_threads {c['io_threads']}, jit {c.get('jit')}, warm-up {c['client_warmup_requests']}")
    line += " | CPU ms/request: " + ", ".join(f"{g} {v * 1000 / tick / max(1, n):.3f}" for g, v in groups.most_common() if v)
    if wake:
        line += " | wake-ups/request: " + ", ".join(f"{g} {v / max(1, n):.1f}" for g, v in wake.most_common() if v)
print(line)
