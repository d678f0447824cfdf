package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.tokenizer.HfTokenizer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Input lengths as the real llama.cpp {@code llama-server} of {@code ../shared/realserver} (or
 * {@code INFX_REALSERVER}) counts them, with the model's own {@code tokenizer.json}: on
 * {@code /v1/completions} every request's {@code usage.prompt_tokens} is exactly the requested
 * ISL (the server's BOS counted in, measured by {@link PromptFramingProbe}); on chat the template's
 * own tokens are measured and the input length check does not raise a false alarm. Skipped, with
 * the reason, where the server or the tokenizer is absent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RealLlamaServerInputLengthTest {

  private Path home;
  private Path state;
  private int port;
  private URI uri;
  private HfTokenizer tokenizer;

  @BeforeAll
  void start() throws Exception {
    String env = System.getenv("INFX_REALSERVER");
    Optional<Path> rs = (env != null && !env.isBlank() ? Optional.of(Path.of(env))
        : SharedDir.find("realserver"))
        .filter(d -> Files.isExecutable(d.resolve("bin/llama-server"))
            && Files.isExecutable(d.resolve("start-llama-server.sh"))
            && Files.isRegularFile(d.resolve("tokenizer/tokenizer.json")));
    assumeTrue(rs.isPresent(), "no llama-server: neither INFX_REALSERVER nor "
        + SharedDir.describe("realserver") + " holds bin/llama-server, start-llama-server.sh and"
        + " tokenizer/tokenizer.json");
    home = rs.get();
    tokenizer = HfTokenizer.load(home.resolve("tokenizer/tokenizer.json"), "tiny");
    state = Files.createTempDirectory("infx-realserver");
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort(); // a free port, handed to the script (it cannot take port 0)
    }
    ProcessBuilder pb = new ProcessBuilder(home.resolve("start-llama-server.sh").toString(),
        String.valueOf(port), "4", "8192")
        .redirectErrorStream(true).redirectOutput(state.resolve("start.out").toFile());
    pb.environment().put("INFX_REALSERVER_STATE", state.toString());
    Process p = pb.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(Files.readString(state.resolve("start.out"))).isZero();
    uri = URI.create("http://127.0.0.1:" + port);
  }

  @AfterAll
  void stop() throws IOException, InterruptedException {
    if (tokenizer != null) {
      tokenizer.close();
    }
    if (home != null && uri != null) {
      ProcessBuilder pb = new ProcessBuilder(home.resolve("stop-llama-server.sh").toString(),
          String.valueOf(port)).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("INFX_REALSERVER_STATE", state.toString());
      pb.start().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private ServeResult run(ServingBackend backend, List<Prompt> prompts, OptionalInt framing) {
    return ServeBenchmark.builder()
        .client(ClientOptions.builder().baseUri(uri)
            .deadlines(Deadlines.all(Duration.ofSeconds(120))).build())
        .backend(backend).model("tiny").prompts(prompts).expectedFraming(framing)
        .body(BodyOptions.builder().ignoreEos(true).build())
        .load(LoadModel.closed(4)).build().run();
  }

  @Test
  void theProbeFindsTheBosAndTheChatTemplate() {
    PromptFramingProbe.Framing f = PromptFramingProbe.probe(uri, Optional.empty(), "tiny");
    // the model's tokenizer_config.json: add_bos_token true, add_eos_token false
    assertThat(f.specialTokens()).hasValue(1);
    // llama-server's default ChatML-style template around "a":
    // "<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\n" plus BOS, minus "a" itself
    int rendered = tokenizer.count("<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\n");
    assertThat(f.chatTokens()).hasValue(1 + rendered - 1);
  }

  @Test
  void completionsPromptsAreExactlyTheRequestedLengthAsTheServerCountsThem() {
    PromptFramingProbe.Framing f = PromptFramingProbe.probe(uri, Optional.empty(), "tiny");
    int special = f.specialTokens().orElseThrow();
    for (int isl : new int[] {256, 1000}) {
      // range ratio 0.5: lengths vary per request, each must still be hit exactly
      List<Prompt> prompts = RandomDataset.generate(tokenizer, isl, 4, 0.5, 0, 16, isl, null,
          special);
      ServeResult r = run(ServingBackend.VLLM, prompts, OptionalInt.of(0));
      ServeMetrics m = r.metrics(MetricOptions.defaults());
      assertThat(m.failed()).as("ISL %d: %s", isl, m.firstFailures()).isZero();
      assertThat(r.sentRecords()).hasSize(16).allSatisfy(rec -> {
        assertThat(rec.usagePromptTokens()).as("ISL %d: server count", isl)
            .hasValue(rec.promptTokens());
        assertThat(rec.promptTokens()).isBetween(isl / 2, isl);
      });
      // range ratio 1: every request is the requested ISL itself
      List<Prompt> fixed = RandomDataset.generate(tokenizer, isl, 4, 1.0, 0, 8, isl + 1, null,
          special);
      ServeResult rf = run(ServingBackend.VLLM, fixed, OptionalInt.of(0));
      assertThat(rf.sentRecords()).hasSize(8).allSatisfy(rec ->
          assertThat(rec.usagePromptTokens()).as("ISL %d fixed", isl).hasValue(isl));
      assertThat(rf.metrics(MetricOptions.defaults()).inputLengthCheck().maxDeviation()).isZero();
    }
  }

  @Test
  void withoutCountingTheBosEveryPromptIsOneTokenLongerOnTheServer() {
    // the reference's construction (what infx did before): the server's BOS comes on top
    List<Prompt> prompts = RandomDataset.generate(tokenizer, 256, 4, 1.0, 0, 8, 3);
    ServeResult r = run(ServingBackend.VLLM, prompts, OptionalInt.empty());
    assertThat(r.sentRecords()).allSatisfy(rec ->
        assertThat(rec.usagePromptTokens()).hasValue(257));
  }

  @Test
  void chatTemplateTokensAreMeasuredAndTheCheckDoesNotFalseAlarm() {
    PromptFramingProbe.Framing f = PromptFramingProbe.probe(uri, Optional.empty(), "tiny");
    // at ISL 64 a message meeting the template 1-2 tokens differently is a 2-3 % difference
    for (int isl : new int[] {64, 256}) {
      List<Prompt> prompts = RandomDataset.generate(tokenizer, isl, 4, 0.8, 0, 12, isl);
      ServeResult r = run(ServingBackend.OPENAI_CHAT, prompts, f.chatTokens());
      ServeMetrics m = r.metrics(MetricOptions.defaults());
      assertThat(m.failed()).as("%s", m.firstFailures()).isZero();
      InputLengthCheck ic = m.inputLengthCheck();
      assertThat(ic.framingMeasured()).isTrue();
      assertThat(ic.framingTokens()).isEqualTo(f.chatTokens().orElseThrow());
      assertThat(ic.verdict()).as("ISL %d: %s", isl, ic.message())
          .isEqualTo(InputLengthCheck.Verdict.OK);
      assertThat(ic.compared()).isEqualTo(12);
    }
  }
}
