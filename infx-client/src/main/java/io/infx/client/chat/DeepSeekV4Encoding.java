package io.infx.client.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.chat.internal.PyJson;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * InferenceX's DeepSeek-V4 prompt encoding, ported line for line from
 * {@code utils/bench_serving/encoding_dsv4.py} ({@code encode_messages}), which
 * {@code benchmark_serving.py --use-chat-template --dsv4} uses instead of the tokenizer's Jinja
 * template: {@code <｜begin▁of▁sentence｜>}, {@code <｜User｜>…<｜Assistant｜>} framing, {@code <think>}
 * handling by thinking mode, tools rendered into the system prompt, tool calls as DSML blocks,
 * tool results merged into user turns, task tokens and the "max" reasoning-effort preamble.
 * The reference's output parser ({@code parse_message_from_completion_text}) is not ported: a
 * load generator only encodes.
 *
 * <p>Messages are maps as in the OpenAI API ({@code role}, {@code content}, {@code tools},
 * {@code tool_calls}, {@code reasoning_content}, {@code tool_call_id}, …). Checked against the
 * reference's own output in {@code DeepSeekV4EncodingTest}.
 */
public final class DeepSeekV4Encoding {

  /** The reference's {@code thinking_mode}. */
  public enum ThinkingMode {
    CHAT, THINKING
  }

  public static final String BOS_TOKEN = "<｜begin▁of▁sentence｜>";
  public static final String EOS_TOKEN = "<｜end▁of▁sentence｜>";
  static final String THINKING_START = "<think>";
  static final String THINKING_END = "</think>";
  static final String DSML = "｜DSML｜";
  static final String USER_SP = "<｜User｜>";
  static final String ASSISTANT_SP = "<｜Assistant｜>";
  static final String LATEST_REMINDER_SP = "<｜latest_reminder｜>";
  static final Map<String, String> TASK_TOKENS = Map.of("action", "<｜action｜>", "query",
      "<｜query｜>", "authority", "<｜authority｜>", "domain", "<｜domain｜>", "title", "<｜title｜>",
      "read_url", "<｜read_url｜>");

  static final String REASONING_EFFORT_MAX =
      "Reasoning Effort: Absolute maximum with no shortcuts permitted.\n"
      + "You MUST be very thorough in your thinking and comprehensively decompose the problem to"
      + " resolve the root cause, rigorously stress-testing your logic against all potential paths,"
      + " edge cases, and adversarial scenarios.\n"
      + "Explicitly write out your entire deliberation process, documenting every intermediate"
      + " step, considered alternative, and rejected hypothesis to ensure absolutely no assumption"
      + " is left unchecked.\n\n";

  static final String TOOLS_TEMPLATE = """
      ## Tools

      You have access to a set of tools to help answer the user's question. You can invoke tools \
      by writing a "<{dsml_token}tool_calls>" block like the following:

      <{dsml_token}tool_calls>
      <{dsml_token}invoke name="$TOOL_NAME">
      <{dsml_token}parameter name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE\
      </{dsml_token}parameter>
      ...
      </{dsml_token}invoke>
      <{dsml_token}invoke name="$TOOL_NAME2">
      ...
      </{dsml_token}invoke>
      </{dsml_token}tool_calls>

      String parameters should be specified as is and set `string="true"`. For all other types \
      (numbers, booleans, arrays, objects), pass the value in JSON format and set `string="false"`.

      If thinking_mode is enabled (triggered by {thinking_start_token}), you MUST output your \
      complete reasoning inside {thinking_start_token}...{thinking_end_token} BEFORE any tool calls \
      or final response.

      Otherwise, output directly after {thinking_end_token} with tool calls or final response.

      ### Available Tool Schemas

      {tool_schemas}

      You MUST strictly follow the above defined tool name and parameter schemas to invoke tool calls.
      """;

  /** Like Python's {@code json.loads}: one JSON value, nothing after it. */
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private DeepSeekV4Encoding() {}

  /**
   * {@code encode_messages(messages, thinking_mode)} with the reference's defaults (no context,
   * drop_thinking, BOS added, no reasoning effort) — what {@code --dsv4} sends with
   * {@link ThinkingMode#THINKING}.
   */
  public static String encodeMessages(List<? extends Map<String, ?>> messages, ThinkingMode mode) {
    return encodeMessages(messages, mode, List.of(), true, true, null);
  }

  /**
   * The reference's {@code encode_messages}.
   *
   * @param context already-encoded preceding messages (the prompt then has no BOS)
   * @param reasoningEffort {@code "max"}, {@code "high"} or null
   * @throws IllegalArgumentException where the reference asserts or raises (an unknown role, a
   *     {@code tool} message left unmerged, an unknown task, an empty developer message)
   */
  public static String encodeMessages(List<? extends Map<String, ?>> messages, ThinkingMode mode,
      List<? extends Map<String, ?>> context, boolean dropThinking, boolean addDefaultBosToken,
      String reasoningEffort) {
    Objects.requireNonNull(mode, "mode");
    List<Map<String, Object>> ctx = copyAll(context);
    List<Map<String, Object>> msgs = mergeToolMessages(copyAll(messages));
    List<Map<String, Object>> all = new ArrayList<>(ctx);
    all.addAll(msgs);
    msgs = new ArrayList<>(sortToolResultsByCallOrder(all).subList(ctx.size(), ctx.size() + msgs.size()));
    if (!ctx.isEmpty()) {
      ctx = sortToolResultsByCallOrder(mergeToolMessages(ctx));
    }
    List<Map<String, Object>> full = new ArrayList<>(ctx);
    full.addAll(msgs);
    StringBuilder prompt = new StringBuilder(addDefaultBosToken && ctx.isEmpty() ? BOS_TOKEN : "");
    boolean effectiveDrop = dropThinking;
    for (Map<String, Object> m : full) {
      if (truthy(m.get("tools"))) {
        effectiveDrop = false;
        break;
      }
    }
    int numToRender;
    int contextLen;
    if (mode == ThinkingMode.THINKING && effectiveDrop) {
      full = dropThinkingMessages(full);
      numToRender = full.size() - dropThinkingMessages(ctx).size();
      contextLen = full.size() - numToRender;
    } else {
      numToRender = msgs.size();
      contextLen = ctx.size();
    }
    for (int i = 0; i < numToRender; i++) {
      prompt.append(renderMessage(i + contextLen, full, mode, effectiveDrop, reasoningEffort));
    }
    return prompt.toString();
  }

  // ---- message rendering (render_message) -------------------------------------------------

  static String renderMessage(int index, List<Map<String, Object>> messages, ThinkingMode mode,
      boolean dropThinking, String reasoningEffort) {
    if (index < 0 || index >= messages.size()) {
      throw new IllegalArgumentException("message index " + index + " out of range");
    }
    if (reasoningEffort != null && !reasoningEffort.equals("max") && !reasoningEffort.equals("high")) {
      throw new IllegalArgumentException("Invalid reasoning effort: " + reasoningEffort);
    }
    StringBuilder prompt = new StringBuilder();
    Map<String, Object> msg = messages.get(index);
    int lastUserIdx = findLastUserIndex(messages);
    Object role = msg.get("role");
    Object content = msg.get("content");
    Object tools = msg.get("tools");
    Object responseFormat = msg.get("response_format");
    Object toolCalls = msg.get("tool_calls");
    Object reasoningContent = msg.get("reasoning_content");
    boolean woEos = truthy(msg.getOrDefault("wo_eos", false));
    List<Object> toolDefs = truthy(tools) ? toolsFromOpenAi(tools) : null;
    List<Map<String, Object>> calls = truthy(toolCalls) ? toolCallsFromOpenAi(toolCalls) : null;

    if (index == 0 && mode == ThinkingMode.THINKING && "max".equals(reasoningEffort)) {
      prompt.append(REASONING_EFFORT_MAX);
    }
    if ("system".equals(role)) {
      prompt.append(truthy(content) ? PyJson.str(content) : "");
      if (toolDefs != null) {
        prompt.append("\n\n").append(renderTools(toolDefs));
      }
      if (truthy(responseFormat)) {
        prompt.append("\n\n").append(responseFormat(responseFormat));
      }
    } else if ("developer".equals(role)) {
      if (!truthy(content)) {
        throw new IllegalArgumentException("Invalid message for role `developer`: " + msg);
      }
      StringBuilder dev = new StringBuilder(USER_SP).append(PyJson.str(content));
      if (toolDefs != null) {
        dev.append("\n\n").append(renderTools(toolDefs));
      }
      if (truthy(responseFormat)) {
        dev.append("\n\n").append(responseFormat(responseFormat));
      }
      prompt.append(dev);
    } else if ("user".equals(role)) {
      prompt.append(USER_SP);
      Object blocks = msg.get("content_blocks");
      if (truthy(blocks)) {
        List<String> parts = new ArrayList<>();
        for (Object b : (List<?>) blocks) {
          Map<?, ?> block = (Map<?, ?>) b;
          Object type = block.get("type");
          if ("text".equals(type)) {
            parts.add(PyJson.str(getOr(block, "text", "")));
          } else if ("tool_result".equals(type)) {
            Object tc = getOr(block, "content", "");
            if (tc instanceof List<?> l) {
              List<String> texts = new ArrayList<>();
              for (Object o : l) {
                Map<?, ?> bb = (Map<?, ?>) o;
                texts.add("text".equals(bb.get("type")) ? PyJson.str(getOr(bb, "text", ""))
                    : "[Unsupported " + PyJson.str(bb.get("type")) + "]");
              }
              tc = String.join("\n\n", texts);
            }
            parts.add("<tool_result>" + PyJson.str(tc) + "</tool_result>");
          } else {
            parts.add("[Unsupported " + PyJson.str(type) + "]");
          }
        }
        prompt.append(String.join("\n\n", parts));
      } else {
        prompt.append(truthy(content) ? PyJson.str(content) : "");
      }
    } else if ("latest_reminder".equals(role)) {
      prompt.append(LATEST_REMINDER_SP).append(PyJson.str(content));
    } else if ("tool".equals(role)) {
      throw new IllegalArgumentException("deepseek_v4 merges tool messages into user; please"
          + " preprocess with merge_tool_messages()");
    } else if ("assistant".equals(role)) {
      String thinkingPart = "";
      StringBuilder tcContent = new StringBuilder();
      if (calls != null) {
        List<String> tcList = new ArrayList<>();
        for (Map<String, Object> tc : calls) {
          tcList.add("<" + DSML + "invoke name=\"" + PyJson.str(tc.get("name")) + "\">\n"
              + encodeArgumentsToDsml(tc) + "\n</" + DSML + "invoke>");
        }
        tcContent.append("\n\n").append("<" + DSML + "tool_calls>\n")
            .append(String.join("\n", tcList)).append("\n</" + DSML + "tool_calls>");
      }
      String summary = truthy(content) ? PyJson.str(content) : "";
      String rc = truthy(reasoningContent) ? PyJson.str(reasoningContent) : "";
      boolean prevHasTask = index - 1 >= 0 && messages.get(index - 1).get("task") != null;
      if (mode == ThinkingMode.THINKING && !prevHasTask) {
        if (!dropThinking || index > lastUserIdx) {
          thinkingPart = rc + THINKING_END;
        }
      }
      prompt.append(thinkingPart).append(summary).append(tcContent);
      if (!woEos) {
        prompt.append(EOS_TOKEN);
      }
    } else {
      throw new IllegalArgumentException("Unknown role: " + PyJson.str(role));
    }

    if (index + 1 < messages.size()) {
      Object next = messages.get(index + 1).get("role");
      if (!"assistant".equals(next) && !"latest_reminder".equals(next)) {
        return prompt.toString();
      }
    }
    Object task = msg.get("task");
    if (task != null) {
      String sp = TASK_TOKENS.get(String.valueOf(task));
      if (!(task instanceof String) || sp == null) {
        throw new IllegalArgumentException("Invalid task: '" + PyJson.str(task) + "'. Valid tasks are: "
            + TASK_TOKENS.keySet());
      }
      if (!task.equals("action")) {
        prompt.append(sp);
      } else {
        prompt.append(ASSISTANT_SP);
        prompt.append(mode != ThinkingMode.THINKING ? THINKING_END : THINKING_START);
        prompt.append(sp);
      }
    } else if ("user".equals(role) || "developer".equals(role)) {
      prompt.append(ASSISTANT_SP);
      if (!dropThinking && mode == ThinkingMode.THINKING) {
        prompt.append(THINKING_START);
      } else if (dropThinking && mode == ThinkingMode.THINKING && index >= lastUserIdx) {
        prompt.append(THINKING_START);
      } else {
        prompt.append(THINKING_END);
      }
    }
    return prompt.toString();
  }

  private static String responseFormat(Object schema) {
    return "## Response Format:\n\nYou MUST strictly adhere to the following schema to reply:\n"
        + PyJson.dumps(schema);
  }

  static String renderTools(List<Object> tools) {
    List<String> schemas = new ArrayList<>();
    for (Object t : tools) {
      schemas.add(PyJson.dumps(t));
    }
    return TOOLS_TEMPLATE.replace("{tool_schemas}", String.join("\n", schemas))
        .replace("{dsml_token}", DSML).replace("{thinking_start_token}", THINKING_START)
        .replace("{thinking_end_token}", THINKING_END);
  }

  /** {@code encode_arguments_to_dsml}: JSON arguments as DSML parameters, strings verbatim. */
  static String encodeArgumentsToDsml(Map<String, Object> toolCall) {
    Object raw = toolCall.get("arguments");
    Map<String, Object> args;
    try {
      Object parsed = JSON.readValue(String.valueOf(raw), Object.class);
      if (!(parsed instanceof Map)) {
        throw new IllegalArgumentException("tool call arguments are JSON but not an object: " + raw);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> m = (Map<String, Object>) parsed;
      args = m;
    } catch (JsonProcessingException | RuntimeException e) {
      if (e instanceof IllegalArgumentException iae && iae.getMessage().startsWith("tool call")) {
        throw iae;
      }
      args = new LinkedHashMap<>();
      args.put("arguments", raw);
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Object> e : args.entrySet()) {
      Object v = e.getValue();
      out.add("<" + DSML + "parameter name=\"" + e.getKey() + "\" string=\""
          + (v instanceof String ? "true" : "false") + "\">"
          + (v instanceof String s ? s : PyJson.dumps(v)) + "</" + DSML + "parameter>");
    }
    return String.join("\n", out);
  }

  static int findLastUserIndex(List<Map<String, Object>> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      Object r = messages.get(i).get("role");
      if ("user".equals(r) || "developer".equals(r)) {
        return i;
      }
    }
    return -1;
  }

  private static List<Object> toolsFromOpenAi(Object tools) {
    List<Object> out = new ArrayList<>();
    for (Object t : (List<?>) tools) {
      out.add(((Map<?, ?>) t).get("function"));
    }
    return out;
  }

  private static List<Map<String, Object>> toolCallsFromOpenAi(Object calls) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Object c : (List<?>) calls) {
      Map<?, ?> fn = (Map<?, ?>) ((Map<?, ?>) c).get("function");
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", fn.get("name"));
      m.put("arguments", fn.get("arguments"));
      out.add(m);
    }
    return out;
  }

  // ---- preprocessing ----------------------------------------------------------------------

  /** {@code merge_tool_messages}: tool results become tool_result blocks of a user message. */
  static List<Map<String, Object>> mergeToolMessages(List<Map<String, Object>> messages) {
    List<Map<String, Object>> merged = new ArrayList<>();
    for (Map<String, Object> original : messages) {
      Map<String, Object> msg = deepCopy(original);
      Object role = msg.get("role");
      Map<String, Object> last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if ("tool".equals(role)) {
        Map<String, Object> block = new LinkedHashMap<>();
        block.put("type", "tool_result");
        block.put("tool_use_id", msg.getOrDefault("tool_call_id", ""));
        block.put("content", msg.getOrDefault("content", ""));
        if (last != null && "user".equals(last.get("role")) && last.containsKey("content_blocks")) {
          blocks(last).add(block);
        } else {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("role", "user");
          m.put("content_blocks", new ArrayList<>(List.of(block)));
          merged.add(m);
        }
      } else if ("user".equals(role)) {
        Map<String, Object> text = new LinkedHashMap<>();
        text.put("type", "text");
        text.put("text", msg.getOrDefault("content", ""));
        if (last != null && "user".equals(last.get("role")) && last.containsKey("content_blocks")
            && last.get("task") == null) {
          blocks(last).add(text);
        } else {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("role", "user");
          m.put("content", msg.getOrDefault("content", ""));
          m.put("content_blocks", new ArrayList<>(List.of(text)));
          for (String k : List.of("task", "wo_eos", "mask")) {
            if (msg.containsKey(k)) {
              m.put(k, msg.get(k));
            }
          }
          merged.add(m);
        }
      } else {
        merged.add(msg);
      }
    }
    return merged;
  }

  /** {@code sort_tool_results_by_call_order}: tool results in the order the calls were made. */
  static List<Map<String, Object>> sortToolResultsByCallOrder(List<Map<String, Object>> messages) {
    Map<Object, Integer> order = new HashMap<>();
    for (Map<String, Object> msg : messages) {
      Object role = msg.get("role");
      if ("assistant".equals(role) && truthy(msg.get("tool_calls"))) {
        order = new HashMap<>();
        List<?> calls = (List<?>) msg.get("tool_calls");
        for (int i = 0; i < calls.size(); i++) {
          Map<?, ?> tc = (Map<?, ?>) calls.get(i);
          Object id = tc.get("id");
          if (!truthy(id)) {
            Object fn = tc.get("function");
            id = fn instanceof Map<?, ?> f ? getOr(f, "id", "") : "";
          }
          if (truthy(id)) {
            order.put(id, i);
          }
        }
      } else if ("user".equals(role) && truthy(msg.get("content_blocks"))) {
        List<Map<String, Object>> blocks = blocks(msg);
        List<Map<String, Object>> tool = new ArrayList<>();
        for (Map<String, Object> b : blocks) {
          if ("tool_result".equals(b.get("type"))) {
            tool.add(b);
          }
        }
        if (tool.size() > 1 && !order.isEmpty()) {
          Map<Object, Integer> o = order;
          List<Map<String, Object>> sorted = new ArrayList<>(tool);
          sorted.sort((a, b) -> Integer.compare(o.getOrDefault(getOr(a, "tool_use_id", ""), 0),
              o.getOrDefault(getOr(b, "tool_use_id", ""), 0)));
          int k = 0;
          List<Map<String, Object>> out = new ArrayList<>();
          for (Map<String, Object> b : blocks) {
            out.add("tool_result".equals(b.get("type")) ? sorted.get(k++) : b);
          }
          msg.put("content_blocks", out);
        }
      }
    }
    return messages;
  }

  /** {@code _drop_thinking_messages}: earlier reasoning and developer turns dropped. */
  static List<Map<String, Object>> dropThinkingMessages(List<Map<String, Object>> messages) {
    int lastUser = findLastUserIndex(messages);
    List<Map<String, Object>> out = new ArrayList<>();
    List<String> keep = List.of("user", "system", "tool", "latest_reminder", "direct_search_results");
    for (int i = 0; i < messages.size(); i++) {
      Map<String, Object> msg = messages.get(i);
      Object role = msg.get("role");
      if (keep.contains(role) || i >= lastUser) {
        out.add(msg);
      } else if ("assistant".equals(role)) {
        Map<String, Object> copy = new LinkedHashMap<>(msg);
        copy.remove("reasoning_content");
        out.add(copy);
      }
    }
    return out;
  }

  // ---- helpers ----------------------------------------------------------------------------

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> blocks(Map<String, Object> msg) {
    return (List<Map<String, Object>>) msg.get("content_blocks");
  }

  private static Object getOr(Map<?, ?> m, String k, Object def) {
    return m.containsKey(k) ? m.get(k) : def;
  }

  private static List<Map<String, Object>> copyAll(List<? extends Map<String, ?>> in) {
    List<Map<String, Object>> out = new ArrayList<>();
    if (in != null) {
      for (Map<String, ?> m : in) {
        out.add(deepCopy(m));
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> deepCopy(Map<String, ?> m) {
    return (Map<String, Object>) deepCopyValue(m);
  }

  private static Object deepCopyValue(Object v) {
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), deepCopyValue(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>();
      l.forEach(x -> out.add(deepCopyValue(x)));
      return out;
    }
    return v;
  }

  /** Python truthiness of a JSON-like value. */
  static boolean truthy(Object v) {
    if (v == null) {
      return false;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (v instanceof String s) {
      return !s.isEmpty();
    }
    if (v instanceof List<?> l) {
      return !l.isEmpty();
    }
    if (v instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }
}
