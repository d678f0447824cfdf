package io.infx.client.sim;

import java.nio.charset.StandardCharsets;

/** Writes vLLM-shaped SSE chunks ({@code data: <json>\n\n}) without a JSON library. */
final class ChunkWriter {

  static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

  private ChunkWriter() {}

  private static StringBuilder head(SimEngine.Seq s, String object) {
    StringBuilder sb = new StringBuilder(200);
    sb.append("data: {\"id\":\"").append(s.id).append("\",\"object\":\"").append(object)
        .append("\",\"created\":").append(s.created).append(",\"model\":");
    quote(sb, s.model);
    return sb;
  }

  static byte[] chatRole(SimEngine.Seq s) {
    StringBuilder sb = head(s, "chat.completion.chunk");
    sb.append(",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
        + "\"logprobs\":null,\"finish_reason\":null}]}\n\n");
    return bytes(sb);
  }

  static byte[] chatContent(SimEngine.Seq s, CharSequence text, int usageTokens) {
    StringBuilder sb = head(s, "chat.completion.chunk");
    sb.append(",\"choices\":[{\"index\":0,\"delta\":{\"content\":");
    quote(sb, text);
    sb.append("},\"logprobs\":null,\"finish_reason\":null}]");
    usage(sb, s, usageTokens);
    sb.append("}\n\n");
    return bytes(sb);
  }

  static byte[] chatFinish(SimEngine.Seq s, int usageTokens) {
    StringBuilder sb = head(s, "chat.completion.chunk");
    sb.append(",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,"
        + "\"finish_reason\":\"length\",\"stop_reason\":null}]");
    usage(sb, s, usageTokens);
    sb.append("}\n\n");
    return bytes(sb);
  }

  static byte[] completionText(SimEngine.Seq s, CharSequence text, boolean last, int usageTokens) {
    StringBuilder sb = head(s, "text_completion");
    sb.append(",\"choices\":[{\"index\":0,\"text\":");
    quote(sb, text);
    sb.append(",\"logprobs\":null,\"finish_reason\":")
        .append(last ? "\"length\"" : "null").append(",\"stop_reason\":null}]");
    usage(sb, s, usageTokens);
    sb.append("}\n\n");
    return bytes(sb);
  }

  static byte[] usage(SimEngine.Seq s) {
    StringBuilder sb = head(s, s.chat ? "chat.completion.chunk" : "text_completion");
    sb.append(",\"choices\":[]");
    usage(sb, s, s.generated);
    sb.append("}\n\n");
    return bytes(sb);
  }

  static byte[] inStreamError(String message) {
    StringBuilder sb = new StringBuilder("data: {\"error\":{\"object\":\"error\",\"message\":");
    quote(sb, message);
    sb.append(",\"type\":\"InternalServerError\",\"param\":null,\"code\":500}}\n\n");
    return bytes(sb);
  }

  private static void usage(StringBuilder sb, SimEngine.Seq s, int completion) {
    if (completion < 0) {
      return;
    }
    sb.append(",\"usage\":{\"prompt_tokens\":").append(s.promptTokens)
        .append(",\"total_tokens\":").append(s.promptTokens + completion)
        .append(",\"completion_tokens\":").append(completion);
    if (s.cached > 0) {
      sb.append(",\"prompt_tokens_details\":{\"cached_tokens\":").append(s.cached).append('}');
    }
    sb.append('}');
  }

  /** Appends {@code s} as a JSON string literal. */
  static void quote(StringBuilder sb, CharSequence s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }

  private static byte[] bytes(StringBuilder sb) {
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
