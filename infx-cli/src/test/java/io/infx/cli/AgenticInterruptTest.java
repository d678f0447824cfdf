package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11: SIGINT during {@code bench agentic} used to leave a {@code .tmp} file behind and no
 * export. Now the replay stops at the signal, cancels what is still in flight after the grace, and
 * writes its exports atomically: the records of the requests that finished, and no temp file.
 */
class AgenticInterruptTest {

  @TempDir Path dir;

  @Test
  @Timeout(240)
  void sigintMidReplayWritesTheExportsOfWhatFinishedAndNoTempFile() throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder().blockSize(64)
        .decodeStepBase(Duration.ofMillis(15)).build())) {
      Path results = dir.resolve("results");
      Path log = dir.resolve("out.txt");
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      // a one-hour replay: only the signal can end it within the test's time
      Process p = new ProcessBuilder(List.of(java.toString(), "-cp",
          System.getProperty("java.class.path"), Main.class.getName(), "bench", "agentic",
          "--base-url", sim.baseUri().toString(), "--model", "infx-sim", "--users", "2",
          "--trace", "synthetic:traces=5,turns=50,api=0.02,think=0.02,out=16", "--duration", "3600",
          "--warmup-requests-per-lane", "0", "--benchmark-grace-period", "5",
          "--result-dir", results.toString(), "--run-id", "interrupt-test", "--tokenizer", "builtin"))
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
      while (sim.stats().requestsFinished() < 4 && System.nanoTime() < deadline && p.isAlive()) {
        Thread.sleep(50);
      }
      assertThat(sim.stats().requestsFinished()).as(() -> "requests completed first; output: " + read(log))
          .isGreaterThanOrEqualTo(4);
      new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("stopped within the grace").isTrue();
      String output = read(log);
      assertThat(p.exitValue()).as(output).isEqualTo(130);
      assertThat(output).contains("SIGINT").contains("Successful requests:").doesNotContain("Exception");

      try (var files = Files.walk(results)) {
        assertThat(files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()).toList())
            .as("no temp file is left").noneMatch(n -> n.endsWith(".tmp") || n.startsWith("."))
            .contains("profile_export.jsonl");
      }
      List<String> records = Files.readAllLines(results.resolve("aiperf_artifacts/profile_export.jsonl"));
      assertThat(records).as("one record per request that finished before the stop").isNotEmpty();
      assertThat(records).allSatisfy(r -> assertThat(r).startsWith("{").endsWith("}"));
      // nothing is invented: no more records than requests the server saw finish or cut off
      assertThat(records.size()).isLessThanOrEqualTo((int) sim.stats().requestsReceived());
    }
  }

  private static String read(Path f) {
    try {
      return Files.readString(f, StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
