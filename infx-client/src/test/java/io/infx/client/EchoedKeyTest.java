package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway that echoes the request headers in its 401 body used to put
 * {@code Authorization: Bearer <key>} verbatim into {@code raw.json}. The key must reach no file
 * and no output, while the rest of the failure body is kept.
 */
@Timeout(60)
class EchoedKeyTest {

  private static final String KEY = "sk-echo-test-4b9e0c2a11";

  @Test
  void anEchoingServerLeavesNoKeyInAnyFileOrOutput(@TempDir Path dir) throws Exception {
    try (HostileServer s = new HostileServer("echo")) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      ServeJob.Outcome o = ServeJob.builder().backend(ServingBackend.VLLM).baseUrl(s.uri()).model("m")
          .tokenizer("builtin").numPrompts(4).randomInputLen(8).randomOutputLen(3)
          .maxConcurrency(2).saveResult(true).saveDetailed(true).resultDir(dir)
          .resultFilename("raw.json").progress(false).apiKey(KEY)
          .deadlines(Deadlines.all(Duration.ofSeconds(20))).build()
          .run(new PrintWriter(out), new PrintWriter(err));
      assertThat(o.metrics().completed()).isZero();
      RequestFailure f = o.result().records().get(0).orElseThrow().failure().orElseThrow();
      assertThat(f.status()).isEqualTo(401);
      // the echo arrived (the test server really echoed the header) and was masked
      assertThat(f.body()).contains("Authorization: Bearer ***").doesNotContain(KEY);
      String raw = Files.readString(dir.resolve("raw.json"));
      assertThat(raw).contains("Bearer ***").doesNotContain(KEY).doesNotContain("4b9e0c2a11");
      assertThat(out.toString() + err).doesNotContain(KEY);
      try (var files = Files.walk(dir)) {
        for (Path p : files.filter(Files::isRegularFile).toList()) {
          assertThat(Files.readString(p)).as(p.toString()).doesNotContain(KEY);
        }
      }
    }
  }
}
