package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ClientOptions.apiKey}: every request (generation and profiler calls) carries
 * {@code Authorization: Bearer <key>}, no header is sent without a key (spec §8 Q12), and the key
 * never appears in {@link ClientOptions#toString()}, the raw result file or the printed output.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ApiKeyTest {

  private static final String KEY = "sk-infx-test-7f3a9c1e5b2d";

  /** A tiny OpenAI-compatible server that records the Authorization header of every request. */
  private static final class RecordingServer implements AutoCloseable {
    final HttpServer server;
    final ExecutorService pool = Executors.newFixedThreadPool(4);
    final List<String> seen = new CopyOnWriteArrayList<>(); // "<path> <header or (none)>"

    RecordingServer() throws IOException {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.setExecutor(pool);
      server.createContext("/", this::handle);
      server.start();
    }

    URI base() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange ex) throws IOException {
      try (ex) {
        ex.getRequestBody().readAllBytes();
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        seen.add(ex.getRequestURI().getPath() + " " + (auth == null ? "(none)" : auth));
        if (!ex.getRequestURI().getPath().equals("/v1/completions")) {
          ex.sendResponseHeaders(200, -1);
          return;
        }
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        for (String t : new String[] {" ba", " be", " bi"}) {
          out.write(("data: {\"choices\":[{\"index\":0,\"text\":\"" + t + "\"}]}\n\n")
              .getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
        out.write(("data: {\"choices\":[],\"usage\":{\"prompt_tokens\":8,"
            + "\"completion_tokens\":3,\"total_tokens\":11}}\n\ndata: [DONE]\n\n")
            .getBytes(StandardCharsets.UTF_8));
      }
    }

    @Override
    public void close() {
      server.stop(0);
      pool.shutdownNow();
    }
  }

  private static ImmutableServeJob.Builder job(RecordingServer s, Path dir) {
    return ServeJob.builder().backend(ServingBackend.VLLM).baseUrl(s.base()).model("org/model")
        .tokenizer("builtin").numPrompts(5).randomInputLen(8).randomOutputLen(3)
        .maxConcurrency(2).saveResult(true).saveDetailed(true).resultDir(dir)
        .resultFilename("raw.json").progress(false)
        .deadlines(Deadlines.all(Duration.ofSeconds(20)));
  }

  @Test
  void everyRequestCarriesTheBearerKeyAndNothingPrintsOrSavesIt(@TempDir Path dir)
      throws Exception {
    try (RecordingServer s = new RecordingServer()) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      ServeJob.Outcome o = job(s, dir).apiKey(KEY).numWarmups(2).profile(true).build()
          .run(new PrintWriter(out), new PrintWriter(err));
      assertThat(o.exitCode()).as(err.toString()).isZero();
      assertThat(o.metrics().completed()).isEqualTo(5);

      // the provenance probe (/version, /v1/models), the input-length probe's /tokenize (answered
      // without tokens, so it asks nothing more), 2 warm-ups + 5 measured and the two profiler
      // calls, all with the key
      assertThat(s.seen).hasSize(12);
      assertThat(s.seen).contains("/tokenize Bearer " + KEY);
      assertThat(s.seen).contains("/version Bearer " + KEY, "/v1/models Bearer " + KEY);
      assertThat(s.seen).allSatisfy(h -> assertThat(h).endsWith(" Bearer " + KEY));
      assertThat(s.seen).filteredOn(h -> h.startsWith("/v1/completions ")).hasSize(7);
      assertThat(s.seen).contains("/start_profile Bearer " + KEY, "/stop_profile Bearer " + KEY);

      String raw = Files.readString(o.rawFile().orElseThrow());
      assertThat(raw).contains("\"completed\":5").doesNotContain(KEY);
      assertThat(out.toString()).contains("Successful requests:").doesNotContain(KEY);
      assertThat(err.toString()).doesNotContain(KEY);
      ClientOptions used = o.result().clientOptions();
      assertThat(used.apiKey()).hasValue(KEY);
      assertThat(used.toString()).doesNotContain(KEY).doesNotContain("7f3a9c");
      assertThat(o.result().benchmark().toString()).doesNotContain(KEY);
      // no file the run left behind holds it either
      try (var files = Files.walk(dir)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertThat(Files.readString(f)).as(f.toString()).doesNotContain(KEY);
        }
      }
    }
  }

  @Test
  void withoutAKeyNoAuthorizationHeaderIsSent(@TempDir Path dir) throws Exception {
    try (RecordingServer s = new RecordingServer()) {
      ServeJob.Outcome o = job(s, dir).build().run(new PrintWriter(new StringWriter()),
          new PrintWriter(new StringWriter()));
      assertThat(o.metrics().completed()).isEqualTo(5);
      // the provenance probe (/version, /v1/models), the input-length probe's /tokenize and the
      // 5 measured requests, none with a key
      assertThat(s.seen).hasSize(8).allSatisfy(h -> assertThat(h).endsWith(" (none)"));
      assertThat(s.seen).filteredOn(h -> h.startsWith("/v1/completions ")).hasSize(5);
    }
  }

  @Test
  void clientOptionsToStringMasksTheKey() {
    ClientOptions o = ClientOptions.builder().baseUri(URI.create("http://h:1")).apiKey(KEY)
        .build();
    assertThat(o.toString()).doesNotContain(KEY).contains("apiKey=***");
    assertThat(ClientOptions.builder().baseUri(URI.create("http://h:1")).build().toString())
        .contains("apiKey=none");
  }
}
