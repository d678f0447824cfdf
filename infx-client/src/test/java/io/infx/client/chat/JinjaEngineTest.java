package io.infx.client.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The Jinja engine feature by feature — trim_blocks/lstrip_blocks and {@code -} whitespace control,
 * loop controls, namespace scoping, Python str/dict methods, filters, tests, undefined handling and
 * errors — against outputs of jinja2 3.1.6 set up as transformers sets it up
 * ({@code benchmarks/chat-templates/render-engine-cases.py} → {@code engine-cases.json}).
 */
class JinjaEngineTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  Stream<DynamicTest> matchesJinja2CaseByCase() throws Exception {
    JsonNode cases = ChatTemplateGoldenTest.resource("engine-cases.json").get("cases");
    assertThat(cases.size()).isGreaterThanOrEqualTo(30);
    return StreamSupport.stream(cases.spliterator(), false).map(c -> DynamicTest.dynamicTest(
        c.get("template").asText().replace("\n", "\\n"), () -> {
          Map<String, Object> ctx = JSON.convertValue(c.get("context"), new TypeReference<>() {});
          String src = c.get("template").asText();
          if (c.has("error")) {
            String want = c.get("error").asText();
            String kind = want.substring(0, want.indexOf(':'));
            assertThatThrownBy(() -> ChatTemplate.of(src).render(List.of(), false, ctx))
                .isInstanceOf(ChatTemplateException.class)
                .hasMessageContaining(kind.equals("TemplateError") ? want.substring(want.indexOf(':') + 2)
                    : want);
          } else {
            assertThat(ChatTemplate.of(src).render(List.of(), false, ctx))
                .isEqualTo(c.get("output").asText());
          }
        }));
  }

  @Test
  void syntaxErrorsNameTheLineAndColumn() {
    assertThatThrownBy(() -> ChatTemplate.of("line1\n{% if x %}\n{{ 1 + }}\n{% endif %}"))
        .isInstanceOf(ChatTemplateException.class).hasMessageContaining("line 3");
    assertThatThrownBy(() -> ChatTemplate.of("{% for x in y %}never closed"))
        .hasMessageContaining("endfor");
    assertThatThrownBy(() -> ChatTemplate.of("{% frobnicate %}"))
        .hasMessageContaining("unknown tag 'frobnicate'").hasMessageContaining("line 1, column 4");
  }

  @Test
  void strftimeNowReadsTheGivenClock() {
    ChatTemplate t = ChatTemplate.of("{{ strftime_now('%d %b %Y') }}|{{ strftime_now('%-d %B') }}")
        .withClock(java.time.Clock.fixed(java.time.Instant.parse("2026-03-05T10:00:00Z"),
            java.time.ZoneOffset.UTC));
    assertThat(t.render(List.of(), false, Map.of())).isEqualTo("05 Mar 2026|5 March");
  }

  @Test
  void extraVariablesOverrideTheDefaults() {
    ChatTemplate t = ChatTemplate.of("{{ enable_thinking }}/{{ tools }}/{{ add_generation_prompt }}");
    assertThat(t.render(List.of(), true, Map.of("enable_thinking", false)))
        .isEqualTo("False/None/True");
  }
}
