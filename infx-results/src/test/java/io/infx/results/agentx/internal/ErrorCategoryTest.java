package io.infx.results.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class ErrorCategoryTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static String category(String json) throws Exception {
    JsonNode n = JSON.readTree(json);
    return ErrorCategory.of(n);
  }

  @Test
  void categoriesFromSpecExamples() throws Exception {
    // spec §3.2
    assertThat(category("{\"type\":\"HTTPStatusError\",\"code\":500}")).isEqualTo("HTTPStatusError");
    assertThat(category("\"TimeoutError: request exceeded 600s\\nsecond line\"")).isEqualTo("TimeoutError");
    assertThat(category("{\"code\":429}")).isEqualTo("429");
    assertThat(category("{\"message\":\"context length exceeded: 300000 > 262144\"}"))
        .isEqualTo("context length exceeded");
    assertThat(category("{\"detail\":\"no usable field\"}")).isEqualTo("unknown");
  }

  @Test
  void fallbacksAndLimits() throws Exception {
    assertThat(category("{\"type\":\"\",\"error_type\":\"Boom\"}")).isEqualTo("Boom");
    assertThat(category("{\"status\":true}")).isEqualTo("True");
    assertThat(category("{\"code\":500.0}")).isEqualTo("500.0");
    assertThat(category("{\"message\":\"\",\"error\":\"Inner: x\"}")).isEqualTo("Inner");
    assertThat(category("\": leading colon\"")).isEqualTo("unknown");
    assertThat(category("\"   \"")).isEqualTo("unknown");
    assertThat(category("\"" + "x".repeat(200) + "\"")).hasSize(120);
  }
}
