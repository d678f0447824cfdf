package io.infx.client.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.client.chat.DeepSeekV4Encoding.ThinkingMode;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The DeepSeek-V4 encoder against the output of InferenceX's own {@code encoding_dsv4.py} on 14
 * conversations (tools, tool calls and results, reasoning, tasks, developer, reminders, both
 * thinking modes); goldens made by {@code benchmarks/chat-templates/render-dsv4.py}.
 */
class DeepSeekV4EncodingTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicTest> matchesTheReferenceEncoder() throws Exception {
    JsonNode g = ChatTemplateGoldenTest.resource("dsv4/goldens.json");
    assertThat(g.get("cases")).hasSizeGreaterThanOrEqualTo(14);
    return java.util.stream.StreamSupport.stream(g.get("cases").spliterator(), false)
        .map(c -> DynamicTest.dynamicTest(c.get("name").asText(), () -> {
          List<Map<String, Object>> messages = JSON.convertValue(c.get("messages"),
              new TypeReference<>() {});
          JsonNode o = c.get("options");
          ThinkingMode mode = ThinkingMode.valueOf(o.get("thinking_mode").asText().toUpperCase());
          String got = DeepSeekV4Encoding.encodeMessages(messages, mode, List.of(),
              o.path("drop_thinking").asBoolean(true), o.path("add_default_bos_token").asBoolean(true),
              o.hasNonNull("reasoning_effort") ? o.get("reasoning_effort").asText() : null);
          assertThat(got).isEqualTo(c.get("output").asText());
        }));
  }

  @Test
  void theReferenceClientsSingleUserPromptInThinkingMode() {
    assertThat(DeepSeekV4Encoding.encodeMessages(
        List.of(Map.of("role", "user", "content", "a")), ThinkingMode.THINKING))
        .isEqualTo("<｜begin▁of▁sentence｜><｜User｜>a<｜Assistant｜><think>");
  }

  @Test
  void refusesWhatTheReferenceRefuses() {
    assertThatThrownBy(() -> DeepSeekV4Encoding.encodeMessages(
        List.of(Map.of("role", "robot", "content", "x")), ThinkingMode.CHAT))
        .hasMessageContaining("Unknown role: robot");
    assertThatThrownBy(() -> DeepSeekV4Encoding.encodeMessages(
        List.of(Map.of("role", "user", "content", "x", "task", "nope")), ThinkingMode.CHAT))
        .hasMessageContaining("Invalid task: 'nope'");
    assertThatThrownBy(() -> DeepSeekV4Encoding.encodeMessages(
        List.of(Map.of("role", "user", "content", "x")), ThinkingMode.CHAT, List.of(), true, true,
        "low")).hasMessageContaining("Invalid reasoning effort: low");
  }
}
