package io.infx.client.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.infx.client.ServingBackend;
import io.infx.client.ServeJob;
import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.UsageException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --use-chat-template} end to end: the prompts that reach the server are wrapped in the
 * template (or the DeepSeek-V4 framing), and the input-length accounting is the reference's (the
 * template's own tokens are taken off the requested input length, so a wrapped prompt has the
 * requested ISL when the tokenizer's counts add up, as the built-in one's do).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChatTemplateServeTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHATML = "{% for m in messages %}<|im_start|>{{ m.role }}\n"
      + "{{ m.content }}<|im_end|>\n{% endfor %}"
      + "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}";

  private HttpServer server;
  private final List<String> prompts = new CopyOnWriteArrayList<>();

  /** A completions server that records each prompt and streams one token with usage. */
  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/completions", ex -> {
      JsonNode body = JSON.readTree(ex.getRequestBody());
      String prompt = body.get("prompt").asText();
      prompts.add(prompt);
      int n = BuiltinTokenizer.instance().count(prompt);
      String sse = "data: {\"choices\":[{\"index\":0,\"text\":\" ba\"}]}\n\n"
          + "data: {\"choices\":[{\"index\":0,\"text\":\"\",\"finish_reason\":\"length\"}],"
          + "\"usage\":{\"prompt_tokens\":" + n + ",\"completion_tokens\":1}}\n\n"
          + "data: [DONE]\n\n";
      ex.getResponseHeaders().add("Content-Type", "text/event-stream");
      byte[] b = sse.getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, b.length);
      try (OutputStream os = ex.getResponseBody()) {
        os.write(b);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private ServeJob.Outcome run(io.infx.client.ImmutableServeJob.Builder job) {
    return job.build().run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
  }

  private io.infx.client.ImmutableServeJob.Builder job() {
    return ServeJob.builder().backend(ServingBackend.parse("vllm"))
        .baseUrl(URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
        .model("m").tokenizer("builtin").randomInputLen(40).randomOutputLen(4)
        .randomRangeRatio(1.0).numPrompts(6).maxConcurrency(2).progress(false);
  }

  @Test
  void promptsReachTheServerWrappedInTheTemplateWithTheRequestedLength(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("chat_template.jinja");
    Files.writeString(file, CHATML);
    ServeJob.Outcome o = run(job().useChatTemplate(true).chatTemplate(file));
    assertThat(o.exitCode()).isZero();
    assertThat(prompts).hasSize(6);
    for (String p : prompts) {
      assertThat(p).startsWith("<|im_start|>user\n")
          .endsWith("<|im_end|>\n<|im_start|>assistant\n");
      // the reference's accounting: 40 requested, the template's own tokens taken off the body
      assertThat(BuiltinTokenizer.instance().count(p)).isEqualTo(40);
    }
    assertThat(o.metrics().usagePromptMismatches()).isZero();
  }

  @Test
  void dsv4PromptsCarryTheDeepSeekV4Framing() {
    ServeJob.Outcome o = run(job().useChatTemplate(true).dsv4(true));
    assertThat(o.exitCode()).isZero();
    assertThat(prompts).hasSize(6).allSatisfy(p -> assertThat(p)
        .startsWith("<｜begin▁of▁sentence｜><｜User｜>").endsWith("<｜Assistant｜><think>"));
  }

  @Test
  void dsv4WithoutUseChatTemplateIsRefusedAsTheReferenceRefusesIt() {
    assertThatThrownBy(() -> run(job().dsv4(true))).isInstanceOf(UsageException.class)
        .hasMessage("dsv4 requires useChatTemplate to be set.");
    assertThat(prompts).isEmpty();
  }

  @Test
  void aBuiltinTokenizerWithoutATemplateFileIsAClearUsageError() {
    assertThatThrownBy(() -> run(job().useChatTemplate(true))).isInstanceOf(UsageException.class)
        .hasMessageContaining("pass chatTemplate FILE");
  }

  @Test
  void anInputLengthShorterThanTheTemplateIsRefused() {
    assertThatThrownBy(() -> RandomDataset.generate(BuiltinTokenizer.instance(), 3, 4, 1.0, 0, 2,
        0, PromptTemplate.deepSeekV4())).isInstanceOf(UsageException.class)
        .hasMessageContaining("shorter than the chat template's own");
  }

  @Test
  void withoutATemplateTheDatasetIsUnchanged() {
    List<Prompt> plain = RandomDataset.generate(BuiltinTokenizer.instance(), 32, 4, 0.5, 0, 8, 7);
    List<Prompt> none = RandomDataset.generate(BuiltinTokenizer.instance(), 32, 4, 0.5, 0, 8, 7,
        null);
    assertThat(none).isEqualTo(plain);
  }

  @Test
  void aTokenizerDirectoryWithATokenizerConfigTemplateIsFound(@TempDir Path dir)
      throws IOException {
    Files.writeString(dir.resolve("tokenizer_config.json"), JSON.writeValueAsString(
        java.util.Map.of("bos_token", java.util.Map.of("content", "<s>"), "eos_token", "</s>",
            "chat_template", List.of(java.util.Map.of("name", "tool_use", "template", "T"),
                java.util.Map.of("name", "default", "template",
                    "{{ bos_token }}[INST] {{ messages[0]['content'] }} [/INST]")))));
    ChatTemplate t = ChatTemplate.load(dir);
    assertThat(t.render(List.of(io.infx.client.ChatMessage.user("hi")), true))
        .isEqualTo("<s>[INST] hi [/INST]");
    Files.writeString(dir.resolve("chat_template.jinja"), "{{ eos_token }}jinja file wins");
    assertThat(ChatTemplate.load(dir).render(List.of(io.infx.client.ChatMessage.user("hi")), true))
        .isEqualTo("</s>jinja file wins");
  }
}
