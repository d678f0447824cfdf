"""Second peer, the engine transformers itself uses: renders the cases of render-goldens.mjs with
Python's jinja2 set up as Hugging Face transformers' apply_chat_template sets it up
(ImmutableSandboxedEnvironment, trim_blocks, lstrip_blocks, loopcontrols, the {% generation %} tag,
tojson with ensure_ascii=False, raise_exception, strftime_now; tools=None and documents=None) and
writes goldens/jinja2/<template>.json; prints where it differs from @huggingface/jinja's goldens.

    python3 render-jinja2.py [TEMPLATES_DIR] [GOLDENS_DIR]
"""
import datetime, json, os, sys
import hashlib
import jinja2, jinja2.ext
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

here = os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "../../infx-client/src/test/resources/chat-templates")
tdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../../shared/chat-templates")
gdir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(res, "goldens")
spec = json.load(open(os.path.join(res, "conversations.json"), encoding="utf-8"))
now = datetime.datetime.fromisoformat(spec["context"]["now"].replace("Z", "+00:00"))

def raise_exception(message):
    raise jinja2.exceptions.TemplateError(message)

def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

class Generation(jinja2.ext.Extension):
    """transformers' AssistantTracker without the mask: {% generation %} renders its body."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_render"), [], [], body).set_lineno(lineno)

    def _render(self, caller):
        return caller()

env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                    extensions=[Generation, jinja2.ext.loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
env.globals["strftime_now"] = lambda fmt: now.strftime(fmt)

same = differ = 0
for name in sorted(f for f in os.listdir(tdir) if f.endswith(".jinja")):
    golden = json.load(open(os.path.join(gdir, "peer", name[:-6] + ".json"), encoding="utf-8"))
    source = open(os.path.join(tdir, name), encoding="utf-8").read()
    mine = {"template": name, "template_sha256": hashlib.sha256(source.encode("utf-8")).hexdigest(),
            "peer": f"jinja2 {jinja2.__version__} (as transformers sets it up)", "cases": {}}
    try:
        t = env.from_string(source)
    except Exception as e:
        t, perr = None, f"{type(e).__name__}: {e}"
    for conv, messages in spec["conversations"].items():
        for agp in spec["add_generation_prompt"]:
            key = f"{conv}/{'gen' if agp else 'nogen'}"
            try:
                if t is None:
                    raise RuntimeError(perr)
                out = {"output": t.render(messages=messages, tools=None, documents=None, add_generation_prompt=agp,
                                          bos_token=spec["context"]["bos_token"], eos_token=spec["context"]["eos_token"])}
            except Exception as e:
                out = {"error": f"{type(e).__name__}: {e}"}
            mine["cases"][key] = out
            peer = golden["cases"][key]
            if ("output" in out) == ("output" in peer) and out.get("output") == peer.get("output"):
                same += 1
            else:
                differ += 1
                print(f"DIFF {name} {key}\n  jinja2: {json.dumps(out, ensure_ascii=False)[:300]}\n  peer:   {json.dumps(peer, ensure_ascii=False)[:300]}")
    os.makedirs(os.path.join(gdir, "jinja2"), exist_ok=True)
    with open(os.path.join(gdir, "jinja2", name[:-6] + ".json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(mine, ensure_ascii=False, indent=2) + "\n")
print(f"jinja2 vs @huggingface/jinja: {same} same, {differ} different")
