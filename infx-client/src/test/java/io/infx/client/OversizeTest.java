package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A server streaming one never-ending {@code data:} line used to grow the SSE line buffer until
 * {@link OutOfMemoryError} killed the I/O dispatch thread. Now only that request fails, as
 * {@code oversize}, and the other streams and the client keep working.
 */
class OversizeTest {

  @Test
  @Timeout(120)
  void anEndlessDataLineFailsOnlyThatRequestUnderA256MbHeap() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx256m", "-XX:+ExitOnOutOfMemoryError",
        "-cp", System.getProperty("java.class.path"), OversizeProbe.class.getName())
        .redirectErrorStream(true).start();
    String out;
    try (var in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    List<String> lines = out.lines().filter(l -> !l.startsWith("SLF4J")).toList();
    assertThat(lines.subList(0, 4)).as(out)
        .containsExactly("oversize 0", "ok 3", "ok 3", "ok 3");
    assertThat(out).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
    long sent = Long.parseLong(lines.get(4).replace("endless bytes sent ", ""));
    // the client hung up soon after the 8 MiB limit instead of reading on
    assertThat(sent).isLessThan(200L << 20);
  }

  @Test
  @Timeout(60)
  void aSmallLimitFailsTheLongStreamAndKeepsTheOthers() throws Exception {
    try (HostileServer server = new HostileServer();
        StreamingClient c = StreamingClient.create(ClientOptions.builder().baseUri(server.uri())
            .maxSseEventBytes(64 * 1024).maxConnections(4)
            .deadlines(Deadlines.all(Duration.ofSeconds(30))).build())) {
      List<CompletableFuture<RequestRecord>> fs = new ArrayList<>();
      for (String prompt : List.of("normal", "endless", "normal", "endless")) {
        fs.add(c.send(OversizeProbe.request(prompt)));
      }
      List<RequestRecord> rs = new ArrayList<>();
      for (CompletableFuture<RequestRecord> f : fs) {
        rs.add(f.get(30, TimeUnit.SECONDS));
      }
      assertThat(rs.get(0).success()).isTrue();
      assertThat(rs.get(2).success()).isTrue();
      for (RequestRecord r : List.of(rs.get(1), rs.get(3))) {
        assertThat(r.failure()).get().satisfies(f -> {
          assertThat(f.kind()).isEqualTo(FailureClass.OVERSIZE);
          assertThat(f.message()).contains("65536 bytes");
        });
      }
      assertThat(c.send(OversizeProbe.request("again")).get(30, TimeUnit.SECONDS).success())
          .as("the I/O threads survived").isTrue();
      assertThat(c.inFlight()).isZero();
    }
  }
}
