#!/usr/bin/env python3
"""Random mutations of thresholds-like YAML, with what PyYAML's safe_load does with each.

    python3 yaml-safe-load-fuzz.py SEED COUNT OUT.json
    INFX_PYYAML_FUZZ=OUT.json mvn -B -o -pl infx-core test -Dtest=PythonYamlTest

PythonYamlTest.randomMutationsMostlyAgreeWithPyYaml replays OUT.json through PythonYaml and
prints how many inputs differ (the figure in docs/decisions.md: seeds 1 and 7, 3,000 and 6,000
inputs, PyYAML 6.0.3). Each mutation inserts, deletes or doubles one of YAML's indicator
characters, a tab, CR, a non-ASCII letter, a digit or a dot, one to three times.
"""
import random, json, yaml, sys
random.seed(int(sys.argv[1]))
bases = [
 "# Model thresholds override task defaults.\ndefault:\n  gsm8k: 0.90\n  gpqa_diamond_cot_n_shot: 0.30\n  swebench_lite: 0.50\nmodels:\n  dsr1:\n    gsm8k: 0.91\n  glm5.1: {gsm8k: 0.93}\n  kimi: [1, 2, 'x']\n",
 '{"default": {"gsm8k": 0.85, "x": [1, 2.5, "a"]}, "models": {"dsv4": {"gsm8k": 0.90}}}\n',
 "a: &x {b: 1}\nc:\n  <<: *x\n  d: |\n    text\n  e: >-\n    folded\n  f: \"q\\tq\"\n  g: 'it''s'\n- z\n",
 "%YAML 1.1\n---\nlist:\n  - a\n  - b: c\n    d: e\n  - [f, g]\n? complex\n: value\n...\n",
]
chars = list(":[]{},-?'\"\t#&*!|>%@` \n\\") + ["\r", "\u00e9", "x", "1", "."]
out = []
for i in range(int(sys.argv[2])):
    s = random.choice(bases)
    for _ in range(random.randint(1, 3)):
        op = random.random(); pos = random.randint(0, len(s))
        if op < 0.4: s = s[:pos] + random.choice(chars) + s[pos:]
        elif op < 0.8 and pos < len(s): s = s[:pos] + s[pos+1:]
        else: s = s[:pos] + random.choice(chars) * 2 + s[pos:]
    r = {"input": s}
    try:
        v = yaml.safe_load(s); r["ok"] = True
    except yaml.YAMLError as e:
        r.update(type=type(e).__name__, yaml_error=True, message=str(e))
    except Exception as e:
        r.update(type=type(e).__name__, yaml_error=False, message=str(e))
    out.append(r)
json.dump(out, open(sys.argv[3], "w"), ensure_ascii=False)
