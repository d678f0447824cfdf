package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The category an errored request is counted under (spec §3.2): for an error object the first
 * non-empty of {@code type}, {@code error_type}, {@code code}, {@code class}, {@code status};
 * otherwise the first line of its message up to the first {@code :}, at most 120 characters;
 * {@code "unknown"} when nothing is left.
 */
final class ErrorCategory {

  private static final String[] KEYS = {"type", "error_type", "code", "class", "status"};

  private ErrorCategory() {}

  static String of(JsonNode error) {
    JsonNode message;
    if (error.isObject()) {
      for (String key : KEYS) {
        JsonNode v = error.get(key);
        if (v != null && !v.isNull() && !(v.isTextual() && v.textValue().isEmpty())) {
          return JsonValues.pyStr(v);
        }
      }
      JsonNode m = error.get("message");
      message = JsonValues.truthy(m) ? m : error.get("error");
    } else {
      message = error;
    }
    if (!JsonValues.truthy(message)) {
      return "unknown";
    }
    String text = JsonValues.pyStr(message).strip();
    String firstLine = text.split("\\R", 2)[0];
    if (firstLine.isEmpty()) {
      return "unknown";
    }
    String head = firstLine.split(":", 2)[0];
    if (head.isEmpty()) {
      head = "unknown";
    }
    return head.length() > 120 ? head.substring(0, 120) : head;
  }
}
