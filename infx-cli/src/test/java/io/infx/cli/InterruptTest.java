package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11: SIGINT during {@code bench serve} used to write nothing, not even the requests that
 * had completed. Now the command stops sending, lets in-flight requests finish within the grace,
 * and saves exactly what finished, marked incomplete, atomically.
 */
class InterruptTest {

  @TempDir Path dir;

  @Test
  @Timeout(180)
  void sigintAfterSomeCompletedRequestsLeavesAValidRawResultHoldingExactlyThem() throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder()
        .decodeStepBase(Duration.ofMillis(15)).build())) {
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      List<String> cmd = new ArrayList<>(List.of(java.toString(), "-cp",
          System.getProperty("java.class.path"), Main.class.getName(), "bench", "serve",
          "--base-url", sim.baseUri().toString(), "--model", "m", "--tokenizer", "builtin",
          "--random-input-len", "16", "--random-output-len", "40", "--num-prompts", "400",
          "--max-concurrency", "2", "--ignore-eos", "--save-result", "--save-detailed",
          "--result-dir", dir.toString(), "--result-filename", "raw.json", "--disable-tqdm"));
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
          .redirectOutput(dir.resolve("../out.txt").normalize().toFile()).start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (sim.stats().requestsFinished() < 3 && System.nanoTime() < deadline && p.isAlive()) {
        Thread.sleep(50);
      }
      assertThat(sim.stats().requestsFinished())
          .as(() -> "some requests completed first; output: " + readQuietly(dir.resolve("../out.txt").normalize()))
          .isGreaterThanOrEqualTo(3);
      new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("stopped within the grace").isTrue();
      String output = Files.readString(dir.resolve("../out.txt").normalize(), StandardCharsets.UTF_8);
      assertThat(p.exitValue()).as(output).isEqualTo(130);
      assertThat(output).contains("SIGINT").contains("marked incomplete").doesNotContain("Exception");

      try (var files = Files.list(dir)) {
        assertThat(files.map(f -> f.getFileName().toString()).toList())
            .as("the raw result and no temp file").containsExactly("raw.json");
      }
      JsonNode raw = Json.mapper().readTree(dir.resolve("raw.json").toFile());
      JsonNode x = raw.get("infx");
      assertThat(x.get("incomplete").asBoolean()).isTrue();
      assertThat(x.get("interrupted_by").asText()).isEqualTo("SIGINT");
      JsonNode acc = x.get("accounting");
      int completed = acc.get("completed").asInt();
      assertThat(acc.get("sent").asInt()).isEqualTo(completed + acc.get("failed").asInt()
          + acc.get("cancelled").asInt());
      assertThat(acc.get("conserved").asBoolean()).isTrue();
      assertThat(acc.get("requested").asInt()).isEqualTo(400);
      assertThat(acc.get("not_sent").asInt()).isPositive();
      // the default 10 s grace let the in-flight requests finish: every stream the server
      // completed is a completed record, and nothing else is
      assertThat(completed).isEqualTo(sim.stats().requestsFinished());
      assertThat(raw.get("completed").asInt()).isEqualTo(completed);
      // the detailed arrays have one slot per requested prompt; exactly the completed ones hold a TTFT
      assertThat(raw.get("ttfts")).hasSize(400);
      int measured = 0;
      for (JsonNode t : raw.get("ttfts")) {
        measured += t.asDouble() > 0 ? 1 : 0;
      }
      assertThat(measured).isEqualTo(completed);
    }
  }

  private static String readQuietly(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
