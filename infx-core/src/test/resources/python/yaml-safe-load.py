#!/usr/bin/env python3
"""Writes yaml-safe-load.json: what PyYAML's yaml.safe_load does with each input below.

    python3 yaml-safe-load.py > yaml-safe-load.json      (PyYAML 6.0.3, CPython 3.11.7 here)

For every input: the exception class and str(exception) when safe_load raises (a yaml.YAMLError
or a built-in error), else repr() of the value when it holds only dict/list/str/int/float/bool/None
("value"), else only "ok". PythonYamlTest replays every input through infx's PythonYaml.
The inputs are ours; every expected output is PyYAML's.
"""
import json
import sys

import yaml

INPUTS = [
    # thresholds files as InferenceX writes them, and plain typing
    "# Model thresholds override task defaults.\ndefault:\n  gsm8k: 0.90\n  gpqa_diamond_cot_n_shot: 0.30\n"
    "  swebench_lite: 0.50\nmodels:\n  dsr1:\n    gsm8k: 0.91\n  glm5.1:\n    gsm8k: 0.93\n",
    '{"default": {"gsm8k": 0.85}, "models": {"dsv4": {"gsm8k": 0.90}}}\n',
    "", "# only a comment\n", "---\n", "~\n", "- 1\n- 2\n", "gsm8k: 0.9\n",
    "a: yes\nb: No\nc: on\nd: 0x1F\ne: 010\nf: 1_000\ng: 1:30\nh: .5\ni: 1e3\nj: -.inf\nk: null\nl: ''\nm: 0b101\n",
    "a: 1\na: 2\n", "a:\n  b: 1\n  b: 2\n  c: 3\n", "1: a\n'1': b\nTrue: c\n1.0: d\n", "? a\n? b\n: c\n",
    "x:\n  <<: {a: 1}\n  a: 2\n  <<: {b: 3}\n", "base: &b {gsm8k: 0.9}\nmodels:\n  dsr1:\n    <<: *b\n    gpqa: 0.3\n",
    "m: &m [{a: 1}, {b: 2}]\nn:\n  <<: [{a: 1, c: 1}, {a: 2, b: 2}]\n", "a: &x 1\nb: *x\n", "&x a: *x\n",
    "a: ! x\n", "a: ! 1\n", "a: !!str 1\n", "a: !!float 1\n", "a: !!int '1_000'\n", "a: !!null x\n", "=: 1\n",
    "a: !!float 1e3\n", "a: !!float inf\n", "a: !!int -0x1f\n", "a: !!bool YES\n", "a: [b: c, d]\n",
    "a: {b, c: d, e}\n", "a: {? b : c}\n", "'a': \"b\\tc\"\n", "a: |\n  x\n  y\n", "a: >-\n  x\n  y\n",
    "key with a very long simple key that goes on and on and on for more than eighty characters: no\n",
    "- a\n -b\n", "a: 12:30:45\n", "a: 0o17\n", "a: 0b12\n", "%YAML 1.1\n---\na: 1\n", "--- a\n...\n",
    # reader
    "x: \x01\n", "default:\n  gsm8k: 0.9\x07\n", "a: [1, 2]\n\x1b\n", "a: \ufffe\n",
    # scanner
    "a: b: c\n", "\tdefault: 1\n", "default:\n\tgsm8k: 0.9\n", "a: 1\n  b: 2\n", "@foo\n", "`x`\n", "%x\n",
    "key: 'unterminated\n", "key: \"unterminated\n", "a: \"\\q\"\n", "a: \"\\x4\"\n", "a: \"\\u12G4\"\n",
    "a: |0\n  x\n", "a: |x\n  x\n", "a: >-+\n x\n", "a: |1x\n", "a: !<foo bar\n", "a: !<foo>bar\n", "a: &\n",
    "a: *\n", "a: & x\n", "a: *x y\n", "%YAML 1.1 x\n---\na\n", "%YAML x\n---\na\n", "%YAML 1.x\n---\na\n",
    "%TAG !x tag:a,\n---\nb\n", "%TAG !x! \n---\nb\n", "a:\n- b\n  c: d\n", "a\nb: c\n",
    "a: 'b\n---\n'\n", "a: \"b\n...\nc\"\n", "a: b\n\n\n   c: d\n", "'a\n  b': c\n", "\"a\nb\": c\n",
    "a: !!int -\n", "- a\n  - b\n", "a: - b\n", "a: ? b\n", "? a\n  ? b\n", "[a, b]]: c\n",
    "x: 'it''s'\n  y: 1\n", "a: b\r\nc: d: e\r\n", "a: b\rc: [\r", "a: \u00e9t\u00e9 [\n  b: ]\n",
    "a:\n  b\n c: d\n", "{a: 1, b}: c\n",
    # parser
    "default: [gsm8k: 0.9\n", "default:\n  gsm8k: 0.9\n bad: 1\n", "default: {gsm8k: 0.9\n",
    "- a\nb: c\n", "{a: 1}}\n", "[1, 2]]\n", "a: |\n  x\n y\n", "default:\n  gsm8k: 0.90\n  - x\n",
    "%YAML 1.1\n%YAML 1.1\n---\na\n", "a: [1, 2\nb: 3\n", "a:\n  - 1\n - 2\n", "%YAML 2.0\n---\na\n",
    "%TAG !a! tag:a,\n%TAG !a! tag:b,\n---\nx\n", "x: !b!foo 1\n", "? a\n- b\n", "- a\n? b\n",
    "a: b\n- c\n", "[a, b\n", "{a\n", "- [a, {b: c]\n", "a: b\n\"c\": d: e\n", "a: b # c\n  d: e\n",
    ": a\n", "- - - a\n  - b\n c\n", "\ufeffa: [\n", "a: b\u2028c: [\n", "a: 'x' y\n", "a: \"x\" y\n",
    "a: [x] y\n", "a:\n  - b\n  -c: d\n  - e: f\n g\n", "default:\n  gsm8k: 0.9\nmodels:\n  dsr1: |\n    x\n  y: [\n",
    "a: {b: [c, {d: e}}\n", "---\na: 1\n--- !x\n", "a: !x\n", "a: [\n", "a: {\n", "[\n", "a: &x\n",
    "default: {gsm8k: 0.9, gpqa_diamond_cot_n_shot: 0.3, swebench_lite: 0.5, some_other_task_with_a_long_name: 0.7 another_task: 0.4}\n",
    '{"default": {"gsm8k": 0.9,}, "models": {"dsr1": {"gsm8k": 0.91}\n',
    "# seuil: d\u00e9j\u00e0 vu\ndefault:\n  gsm8k: 0.9\n  \u00e9t\u00e9: [1, 2\n",
    "a: " + "x" * 120 + " [\n", "k" * 100 + ": v: w\n",
    # composer
    "default: &a 1\nmodels: *b\n", "--- a\n--- b\n", "a: &x 1\nb: &x 2\n", "---\n- a\n--- x\n...\n- b\n",
    "default: {gsm8k: 0.9}\n---\nmodels: {}\n", "a: *x\nb: &x 1\n",
    # constructor
    "x: !foo 1\n", "x: !!python/object:os.system 1\n", "!!python/name:os.system\n", "a: =\n",
    "[a, b]: c\n", "{a: b}: c\n", "? - a\n: b\n", "{[a]: b}\n", "a: !!map x\n", "a: !!seq x\n",
    "a: !!int [1]\n", "a: !!str [1]\n", "<<: 1\n", "a: {<<: [1]}\n", "k: 1\nk2: !!merge x\n",
    "a: !!set [a]\n", "a: !!omap {a: 1}\n", "a: !!omap [a]\n", "a: !!pairs [{a: 1, b: 2}]\n",
    "a: !threshold 0.9\nb: !!int ninety\n", "a: [!x 1]\nb: !y 2\n", "a: {b: !x 1}\nc: !y 2\n",
    "a: !!int ninety\n", "a: !!int 0xZZ\n", "a: !!int 1.5\n", "a: !!int 0b2\n", "a: !!int 08\n",
    "a: !!float abc\n", "a: !!float ''\n", "a: !!float 1.2.3\n", "a: !!bool maybe\n", "a: !!bool 1\n",
    "a: 2026-13-45\n", "a: 2026-02-30\n", "a: 2026-01-01 25:00:00\n", "a: 2026-01-01 10:61:00\n",
    "a: 2026-01-01T10:00:00+25:00\n", "a: 2026-01-01T10:00:00-24:00\n", "a: 0000-01-01\n",
    "a: !!timestamp x\n", "a: !!timestamp 2026-01-01\n", "a: 2024-02-29\n", "a: !!int ''\n",
]


def plain(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return True
    if isinstance(v, list):
        return all(plain(x) for x in v)
    if isinstance(v, dict):
        return all(plain(k) and plain(x) for k, x in v.items())
    return False


def main():
    out = []
    for text in INPUTS:
        r = {"input": text}
        try:
            v = yaml.safe_load(text)
            r["ok"] = True
            if plain(v):
                r["value"] = repr(v)
        except yaml.YAMLError as e:
            r.update(type=type(e).__name__, yaml_error=True, message=str(e))
        except Exception as e:  # noqa: BLE001 - the built-in errors safe_load lets through
            r.update(type=type(e).__name__, yaml_error=False, message=str(e))
        out.append(r)
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
