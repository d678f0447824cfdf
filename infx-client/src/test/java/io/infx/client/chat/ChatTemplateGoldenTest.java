package io.infx.client.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * infx's chat-template rendering against two real renderers, byte for byte, on every template of
 * {@code shared/chat-templates} (70 models) and the conversations of
 * {@code chat-templates/conversations.json} (plain, system+user, multi-turn with and without a
 * system message; add_generation_prompt true and false):
 * <ul>
 *   <li>{@code goldens/jinja2/} — Python jinja2 3.1.6 set up as transformers sets it up (the
 *       engine {@code benchmark_serving.py}'s {@code apply_chat_template} runs): every case must
 *       match, errors included (where jinja2 raises, infx must raise);</li>
 *   <li>{@code goldens/peer/} — {@code @huggingface/jinja} 0.5.11 under Node: every case must
 *       match except the peer deviations listed in {@link #PEER_DEVIATIONS}, each with its cause.</li>
 * </ul>
 * Goldens are committed; {@code benchmarks/chat-templates/README.md} says how to regenerate them.
 * The templates themselves are read from the shared folder; when absent the test is skipped.
 */
class ChatTemplateGoldenTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Templates where {@code @huggingface/jinja} 0.5.11 differs from jinja2 (and so from
   * transformers); infx follows jinja2 there.
   */
  static final Map<String, String> PEER_DEVIATIONS = Map.of(
      "ByteDance-Seed-OSS", "peer refuses integer dict keys ({0: ...}); jinja2 allows them",
      "meetkai-functionary-medium-v3.1", "peer errors on selectattr over none (tools=None);"
          + " jinja2 never reaches it",
      "tencent-Hy3", "peer lacks a callable the template uses; jinja2 renders it",
      "HuggingFaceTB-SmolLM3-3B", "peer's str.lstrip('\\n') strips all whitespace, not just"
          + " newlines (system_multi_turn cases)",
      "Qwen-QwQ-32B", "same lstrip('\\n') deviation as SmolLM3 (system_multi_turn cases)");

  static Path templatesDir() {
    String env = System.getenv("INFX_SHARED");
    Path base = env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("infx.repo.root", ".")).toAbsolutePath().resolve("../shared");
    return base.resolve("chat-templates").normalize();
  }

  static JsonNode resource(String name) throws IOException {
    try (InputStream in = ChatTemplateGoldenTest.class.getResourceAsStream("/chat-templates/" + name)) {
      if (in == null) {
        throw new IOException("missing test resource chat-templates/" + name);
      }
      return JSON.readTree(in);
    }
  }

  @TestFactory
  Stream<DynamicTest> everyTemplateMatchesJinja2AndThePeer() throws IOException {
    Path dir = templatesDir();
    if (!Files.isDirectory(dir)) {
      return Stream.of(DynamicTest.dynamicTest("chat templates absent", () -> assumeTrue(false,
          "chat templates not found at " + dir + " (set INFX_SHARED); skipping")));
    }
    JsonNode spec = resource("conversations.json");
    List<String> names;
    try (Stream<Path> s = Files.list(dir)) {
      names = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jinja")).sorted()
          .toList();
    }
    assertThat(names).hasSizeGreaterThanOrEqualTo(70);
    List<DynamicTest> tests = new ArrayList<>();
    for (String file : names) {
      String name = file.substring(0, file.length() - ".jinja".length());
      tests.add(DynamicTest.dynamicTest(name, () -> checkTemplate(dir.resolve(file), name, spec)));
    }
    return tests.stream();
  }

  private static void checkTemplate(Path file, String name, JsonNode spec) throws Exception {
    String source = Files.readString(file);
    JsonNode jinja2 = resource("goldens/jinja2/" + name + ".json");
    JsonNode peer = resource("goldens/peer/" + name + ".json");
    assertThat(sha256(source)).as("template changed since the goldens were made; regenerate them")
        .isEqualTo(jinja2.get("template_sha256").asText());
    Map<String, Object> ctx = JSON.convertValue(spec.get("context"), new TypeReference<>() {});
    Clock clock = Clock.fixed(Instant.parse((String) ctx.get("now")), ZoneOffset.UTC);
    ChatTemplate t = null;
    RuntimeException compileError = null;
    try {
      t = ChatTemplate.of(source).withClock(clock).withSpecialTokens(Map.of(
          "bos_token", ctx.get("bos_token"), "eos_token", ctx.get("eos_token")));
    } catch (ChatTemplateException e) {
      compileError = e;
    }
    int peerMatches = 0;
    int rendered = 0;
    var fields = spec.get("conversations").fields();
    while (fields.hasNext()) {
      var conv = fields.next();
      List<Map<String, Object>> messages = JSON.convertValue(conv.getValue(), new TypeReference<>() {});
      for (JsonNode agp : spec.get("add_generation_prompt")) {
        String key = conv.getKey() + "/" + (agp.asBoolean() ? "gen" : "nogen");
        JsonNode want = jinja2.get("cases").get(key);
        if (want.has("error")) {
          if (compileError == null) {
            ChatTemplate tt = t;
            assertThatThrownBy(() -> tt.render(messages, agp.asBoolean(), Map.of()))
                .as("%s %s: jinja2 raised %s", name, key, want.get("error").asText())
                .isInstanceOf(ChatTemplateException.class);
          }
          continue;
        }
        if (compileError != null) {
          throw new AssertionError(name + ": jinja2 renders " + key + " but infx cannot compile: "
              + compileError.getMessage(), compileError);
        }
        String got = t.render(messages, agp.asBoolean(), Map.of());
        rendered++;
        assertThat(got).as("%s %s vs jinja2", name, key).isEqualTo(want.get("output").asText());
        JsonNode p = peer.get("cases").get(key);
        if (p.has("output") && p.get("output").asText().equals(got)) {
          peerMatches++;
        } else if (!PEER_DEVIATIONS.containsKey(name)) {
          throw new AssertionError(name + " " + key + ": infx matches jinja2 but not the peer ("
              + p + "), and the template is not a listed peer deviation");
        }
      }
    }
    if (!PEER_DEVIATIONS.containsKey(name) && rendered > 0) {
      assertThat(peerMatches).as(name + " peer matches").isGreaterThan(0);
    }
  }

  static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
        .digest(s.getBytes(StandardCharsets.UTF_8)));
  }
}
