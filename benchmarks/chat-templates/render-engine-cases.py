"""Jinja engine cases (whitespace control, loop controls, namespace, Python str methods, filters,
tests, errors) rendered by jinja2 as transformers sets it up; writes the expected outputs that
JinjaEngineTest checks: python3 render-engine-cases.py > ../../infx-client/src/test/resources/chat-templates/engine-cases.json
"""
import json, jinja2, jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment
def raise_exception(m): raise jinja2.exceptions.TemplateError(m)
def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[jinja2.ext.loopcontrols])
env.filters["tojson"] = tojson
env.globals["raise_exception"] = raise_exception
cases = [
 ("{% if true %}\n  yes\n{% endif %}\nend", {}),
 ("a  {%- if true -%}  b  {%- endif -%}  c", {}),
 ("  {% for x in xs %}\n  {{ x }}\n  {% endfor %}\n", {"xs": [1, 2]}),
 ("{% for x in xs %}{% if x == 2 %}{% continue %}{% endif %}{% if x == 4 %}{% break %}{% endif %}{{ x }}{% endfor %}", {"xs": [1, 2, 3, 4, 5]}),
 ("{% set ns = namespace(n=0) %}{% for x in xs %}{% set ns.n = ns.n + x %}{% endfor %}{{ ns.n }}", {"xs": [1, 2, 3]}),
 ("{% set n = 0 %}{% for x in xs %}{% set n = n + x %}{% endfor %}{{ n }}", {"xs": [1, 2, 3]}),
 ("{{ '  a b  '.strip() }}|{{ 'xxhixx'.strip('x') }}|{{ 'a,b,,c'.split(',') }}|{{ ' a  b '.split() }}|{{ 'a<think>b</think>c'.split('</think>')[-1] }}", {}),
 ("{{ 'Hello'.startswith('He') }} {{ 'Hello'.endswith(('x', 'lo')) }} {{ 'ab'.upper() }} {{ 'AB'.lower() }} {{ 'hello world'.title() }} {{ 'a-b-c'.replace('-', '+', 1) }}", {}),
 ("{{ '\n\nx\n'.lstrip('\n') }}|{{ 'x  \n'.rstrip() }}|{{ 'abc'[::-1] }}|{{ 'abcdef'[1:4] }}|{{ [1,2,3,4][-2:] }}", {}),
 ("{{ {'a': 1, 'b': [1, 2.5, none, true, 'x']} }}|{{ ('a',) }}|{{ 1.0 }}|{{ 1e20 }}|{{ none }}|{{ \"it's\" }}", {}),
 ("{{ {'b': 'é', 'a': [1, 2]} | tojson }}|{{ {'b': 1, 'a': 2} | tojson(indent=2, sort_keys=true) }}", {}),
 ("{{ x }}|{{ x is defined }}|{{ x | default('d') }}|{{ x | length }}|{% for i in x %}no{% endfor %}|{{ m.missing }}|{{ m.missing is defined }}", {"m": {}}),
 ("{{ m.get('a', 'z') }} {{ m.get('q', 'z') }} {% for k, v in m.items() %}{{ k }}={{ v }};{% endfor %} {{ m | dictsort }} {{ 'a' in m }} {{ 'q' not in m }}", {"m": {"b": 2, "a": 1}}),
 ("{% macro f(a, b='B') %}[{{ a }}{{ b }}]{% endmacro %}{{ f(1) }}{{ f(1, 2) }}{{ f(a=3, b=4) }}", {}),
 ("{% for x in xs %}{{ loop.index }}/{{ loop.length }}{{ ',' if not loop.last }}{% endfor %}|{% for x in xs if x > 1 %}{{ loop.index0 }}:{{ x }} {% endfor %}", {"xs": [1, 2, 3]}),
 ("{{ xs | selectattr('r', 'equalto', 'u') | map(attribute='c') | join(',') }}|{{ xs | rejectattr('r', 'equalto', 'u') | list | length }}|{{ xs | map(attribute='r') | unique | list }}", {"xs": [{"r": "u", "c": "1"}, {"r": "a", "c": "2"}, {"r": "u", "c": "3"}]}),
 ("{{ 'a\nb\n\nc' | indent(2) }}|{{ 'a\nb' | indent(2, true) }}|{{ ' x ' | trim }}|{{ 3 | string + 'x' }}|{{ '5' | int + 1 }}|{{ [3,1,2] | sort }}|{{ 7 // 2 }} {{ -7 // 2 }} {{ -7 % 3 }} {{ 7 / 2 }} {{ 2 ** 10 }}", {}),
 ("{{ 'x' ~ 1 ~ none }}|{{ [1] + [2] }}|{{ 'ab' * 2 }}|{{ 1 if false }}|{{ (1, 2) == (1, 2) }} {{ [1] == (1,) }} {{ 1 == 1.0 }} {{ true == 1 }}", {}),
 ("{% set s %}inner {{ 1 + 1 }}{% endset %}[{{ s }}]{% filter upper %}up{% endfilter %}", {}),
 ("{{ '{}-{}'.format(1, 'a') }} {{ '{x}!'.format(x=2) }} {{ '%s=%d' % ('k', 3) }} {{ 'abc' | capitalize }} {{ 'a b c' | wordcount }}", {}),
 ("{# comment #}\n{%- raw %}{{ not }}{% endraw %}\n{{ 1 }}", {}),
 ("{{ xs[0].a }} {{ xs.0.a }} {{ xs[5] }}|{{ (xs | first).a }} {{ (xs | last).a }} {{ xs | count }}", {"xs": [{"a": 1}, {"a": 2}]}),
 ("{{ 'abc' is string }} {{ 1 is number }} {{ 1 is integer }} {{ 1.5 is float }} {{ {} is mapping }} {{ [] is iterable }} {{ 'x' is sequence }} {{ none is none }} {{ true is boolean }} {{ 3 is odd }} {{ 4 is divisibleby 2 }} {{ x is undefined }}", {}),
 ("{%- for m in messages -%}\n  {%- if m.role == 'user' -%}\n    U:{{ m.content }}\n  {%- else -%}\n    A:{{ m.content }}\n  {%- endif -%}\n{%- endfor -%}\n", {"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]}),
 ("line1\n    {% if true %}\n    kept\n    {% endif %}\n{{ 'x' }}   {% if true %}inline{% endif %}\n", {}),
]
out = []
for src, ctx in cases:
    try:
        r = env.from_string(src).render(**ctx)
        out.append({"template": src, "context": ctx, "output": r})
    except Exception as e:
        out.append({"template": src, "context": ctx, "error": f"{type(e).__name__}: {e}"})
errs = [
 ("{{ raise_exception('boom') }}", {}),
 ("{{ xs.append(1) }}", {"xs": []}),
 ("{{ x.y }}", {}),
 ("{{ 'a' + 1 }}", {}),
 ("{{ none | length }}", {}),
 ("{% for x in none %}{% endfor %}", {}),
 ("{% set ns = {} %}{% set ns.a = 1 %}", {}),
]
for src, ctx in errs:
    try:
        r = env.from_string(src).render(**ctx); out.append({"template": src, "context": ctx, "output": r})
    except Exception as e:
        out.append({"template": src, "context": ctx, "error": f"{type(e).__name__}: {e}"})
print(json.dumps({"source": "jinja2 " + jinja2.__version__ + " as transformers sets it up (h12t engine cases)", "cases": out}, ensure_ascii=False, indent=1))
