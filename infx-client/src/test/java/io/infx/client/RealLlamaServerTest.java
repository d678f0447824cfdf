package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.tokenizer.BuiltinTokenizer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Against the real llama.cpp {@code llama-server} of {@code ../shared/realserver} (or
 * {@code INFX_REALSERVER}): every request completes at c = 1, 4 and 16 on both
 * {@code /v1/completions} and {@code /v1/chat/completions}, although the server closes the
 * connection after each stream despite its {@code Keep-Alive} header. Skipped, with the reason,
 * where the server is absent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RealLlamaServerTest {

  private Path home;
  private Path state;
  private int port;
  private URI uri;

  static Optional<Path> realServer() {
    String env = System.getenv("INFX_REALSERVER");
    Optional<Path> p = env != null && !env.isBlank() ? Optional.of(Path.of(env))
        : SharedDir.find("realserver");
    return p.filter(d -> Files.isExecutable(d.resolve("bin/llama-server"))
        && Files.isExecutable(d.resolve("start-llama-server.sh")));
  }

  @BeforeAll
  void start() throws Exception {
    Optional<Path> rs = realServer();
    assumeTrue(rs.isPresent(), "no llama-server: neither INFX_REALSERVER nor "
        + SharedDir.describe("realserver") + " holds bin/llama-server and start-llama-server.sh");
    home = rs.get();
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
    if (home != null && uri != null) {
      ProcessBuilder pb = new ProcessBuilder(home.resolve("stop-llama-server.sh").toString(),
          String.valueOf(port)).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("INFX_REALSERVER_STATE", state.toString());
      Process p = pb.start();
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  private ServeResult run(ServingBackend backend, int conc, int n) {
    List<Prompt> prompts = RandomDataset.generate(BuiltinTokenizer.instance(), 64, 8, 1.0, 0, n,
        conc);
    return ServeBenchmark.builder()
        .client(ClientOptions.builder().baseUri(uri)
            .deadlines(Deadlines.all(Duration.ofSeconds(120))).build())
        .backend(backend).model("tiny").prompts(prompts)
        .body(BodyOptions.builder().ignoreEos(true).build())
        .load(LoadModel.closed(conc)).build().run();
  }

  @Test
  void everyRequestCompletesAtConcurrency1_4_16OnBothApis() {
    for (ServingBackend b : List.of(ServingBackend.VLLM, ServingBackend.OPENAI_CHAT)) {
      for (int conc : new int[] {1, 4, 16}) {
        ServeResult r = run(b, conc, Math.max(16, 2 * conc));
        ServeMetrics m = r.metrics(MetricOptions.defaults());
        assertThat(m.failed()).as(b + " c=" + conc + ": " + m.firstFailures()).isZero();
        assertThat(m.completed()).as(b + " c=" + conc).isEqualTo(Math.max(16, 2 * conc));
        assertThat(r.sentRecords()).allSatisfy(rec -> {
          assertThat(rec.outputTokens()).isEqualTo(8);
          assertThat(rec.connectionReused()).isFalse();
        });
      }
    }
  }

  /**
   * What llama-server streams (observed): one token per chunk, except where it withholds an
   * incomplete UTF-8 sequence and sends it with the next token (or sends an empty chunk); usage
   * only on the last chunk, {@code continuous_usage_stats} ignored. So per-token ITL is
   * {@code usage-total} for most requests and {@code tokenizer} (with the server's own
   * {@code tokenizer.json}, bounded by the usage total) for the rest — never per-chunk.
   */
  @Test
  void perTokenItlComesFromTheUsageTotalOrTheTokenizerNeverPerChunk() {
    Path tokJson = home.resolve("tokenizer/tokenizer.json");
    assumeTrue(Files.isRegularFile(tokJson), "no " + tokJson);
    try (io.infx.client.tokenizer.HfTokenizer tok =
        io.infx.client.tokenizer.HfTokenizer.load(tokJson, "llama")) {
      List<Prompt> prompts = RandomDataset.generate(tok, 32, 64, 1.0, 0, 8, 0);
      ServeResult r = ServeBenchmark.builder()
          .client(ClientOptions.builder().baseUri(uri).fallbackTokenizer(tok)
              .deadlines(Deadlines.all(Duration.ofSeconds(120))).build())
          .backend(ServingBackend.VLLM).model("tiny").prompts(prompts)
          .body(BodyOptions.builder().ignoreEos(true).temperature(1.0).continuousUsageStats(true)
              .build())
          .load(LoadModel.closed(2)).build().run();
      ServeMetrics m = r.metrics(MetricOptions.defaults());
      assertThat(m.completed()).isEqualTo(8);
      assertThat(m.itlPolicies()).as("continuous_usage_stats is ignored by llama-server")
          .doesNotContainKeys(ItlPolicy.USAGE_DELTAS, ItlPolicy.PER_CHUNK);
      long chunks = m.tokensPerChunk().values().stream().mapToLong(Long::longValue).sum();
      assertThat(m.tokensPerChunk().getOrDefault(1, 0L)).as("%s", m.tokensPerChunk())
          .isGreaterThanOrEqualTo(chunks * 95 / 100);
      for (RequestRecord rec : r.sentRecords()) {
        int attributed = java.util.Arrays.stream(rec.tokensPerChunk().orElseThrow()).sum();
        assertThat(attributed).as("never more than the server generated")
            .isBetween(rec.tokenChunks(), rec.outputTokens());
      }
    }
  }
}
