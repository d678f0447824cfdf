"""Goldens for infx's DeepSeek-V4 encoder: runs InferenceX's own encoding_dsv4.py (the file
benchmark_serving.py imports for --dsv4) on the cases below and writes
infx-client/src/test/resources/chat-templates/dsv4/goldens.json.

    python3 render-dsv4.py [PATH/TO/bench_serving]
"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
ref = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "../../../shared/realserver/python-client/bench_serving")
sys.path.insert(0, ref)
import encoding_dsv4 as e  # noqa: E402

TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Weather of a city",
          "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
                         "required": ["city"]}}}]
CALL = [{"id": "c1", "type": "function", "function": {"name": "get_weather",
         "arguments": "{\"city\": \"Paris\", \"days\": 3, \"units\": {\"t\": \"°C\"}, \"ok\": true, \"r\": 1.5}"}}]
CALL2 = [{"id": "c2", "type": "function", "function": {"name": "get_weather", "arguments": "not json"}},
         {"id": "c3", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": \"x\"}"}}]

cases = [
    ("reference_prompt", [{"role": "user", "content": "a"}], {"thinking_mode": "thinking"}),
    ("user_chat", [{"role": "user", "content": "Hello — ünïcode ✓"}], {"thinking_mode": "chat"}),
    ("system_user", [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}],
     {"thinking_mode": "thinking"}),
    ("multi_turn_thinking", [
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "A1", "reasoning_content": "think1"},
        {"role": "user", "content": "Q2"}], {"thinking_mode": "thinking"}),
    ("multi_turn_keep_thinking", [
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "A1", "reasoning_content": "think1"},
        {"role": "user", "content": "Q2"}], {"thinking_mode": "thinking", "drop_thinking": False}),
    ("multi_turn_chat", [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "A1"},
        {"role": "user", "content": "Q2"}], {"thinking_mode": "chat"}),
    ("tools_and_calls", [
        {"role": "system", "content": "You can call tools.", "tools": TOOLS},
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": "", "reasoning_content": "need tool", "tool_calls": CALL},
        {"role": "tool", "tool_call_id": "c1", "content": "Sunny"},
        {"role": "user", "content": "Thanks"}], {"thinking_mode": "thinking"}),
    ("tool_results_sorted", [
        {"role": "user", "content": "Go"},
        {"role": "assistant", "content": None, "tool_calls": CALL2},
        {"role": "tool", "tool_call_id": "c3", "content": "second"},
        {"role": "tool", "tool_call_id": "c2", "content": [{"type": "text", "text": "first"}, {"type": "image"}]}],
     {"thinking_mode": "thinking"}),
    ("developer_response_format", [
        {"role": "developer", "content": "Dev says", "tools": TOOLS, "response_format": {"type": "json_object"}},
        {"role": "user", "content": "U"}], {"thinking_mode": "chat"}),
    ("reasoning_effort_max", [{"role": "user", "content": "Hard"}],
     {"thinking_mode": "thinking", "reasoning_effort": "max"}),
    ("latest_reminder_and_wo_eos", [
        {"role": "user", "content": "Q"},
        {"role": "latest_reminder", "content": "Remember"},
        {"role": "assistant", "content": "partial", "wo_eos": True}], {"thinking_mode": "thinking"}),
    ("task_query", [{"role": "user", "content": "find", "task": "query"}], {"thinking_mode": "thinking"}),
    ("task_action", [{"role": "user", "content": "act", "task": "action"}], {"thinking_mode": "chat"}),
    ("no_bos", [{"role": "user", "content": "x"}], {"thinking_mode": "thinking", "add_default_bos_token": False}),
]
out = []
for name, messages, kw in cases:
    out.append({"name": name, "messages": messages, "options": kw,
                "output": e.encode_messages(json.loads(json.dumps(messages)), **kw)})
dst = os.path.join(here, "../../infx-client/src/test/resources/chat-templates/dsv4/goldens.json")
with open(dst, "w", encoding="utf-8") as f:
    f.write(json.dumps({"source": "InferenceX utils/bench_serving/encoding_dsv4.py", "cases": out},
                       ensure_ascii=False, indent=2) + "\n")
print(f"{len(out)} cases -> {os.path.normpath(dst)}")
