package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 29: {@code infx bench serve --num-prompts 2 --max-concurrency 1} under {@code -Xmx256m}
 * against a server sending one endless SSE line did not finish in 180 s, although the client's
 * streams are capped at 8 MiB per line. The benchmark's streams were not the cause: the start-up
 * probes ({@code GET /version}, {@code /v1/models}, {@code POST /tokenize}) read their answers
 * with the JDK client's unbounded body handlers, whose timeout covers only the response head, so
 * the endless answer was buffered until {@link OutOfMemoryError} killed the JDK client's selector
 * thread and the probe waited forever. Run here as a user runs it: the command line in a child JVM
 * with a 256 MiB heap, against {@link EndlessLineServer} (every probe and the first streaming
 * request get the endless line).
 *
 * <p>Timing on a loaded 2-core machine: a hang is unbounded, so the process is given 150 s before
 * it counts as hung; the proof that the limits, not the process's exit, ended each endless answer
 * is load-independent: the bytes the server got to write into each (a few MiB past the limits,
 * against the whole heap before), and each answer's own duration (&lt; 30 s, typically
 * milliseconds).
 */
class EndlessSseLineTest {

  private static final long HANG_SECONDS = 150;
  /** The largest limit read is 16 MiB (/metrics); socket buffers add a few MiB. */
  private static final long MAX_ENDLESS_BYTES = 64L << 20;

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(EndlessLineServer.Line.class)
  @Timeout(240)
  void benchServeEndsWithThatRequestOversizeTheOtherCompletedAndTheRawResultWritten(
      EndlessLineServer.Line line) throws Exception {
    try (EndlessLineServer server = new EndlessLineServer(line, 1)) {
      Run run = run(List.of("bench", "serve", "--base-url", server.uri().toString(), "--model", "m",
          "--tokenizer", "builtin", "--num-prompts", "2", "--max-concurrency", "1",
          "--random-input-len", "16", "--random-output-len", "3", "--save-result",
          "--result-dir", dir.toString(), "--result-filename", "raw.json", "--disable-tqdm"));
      // 1 of 2 completed: the reference's failure gate (> 5 % failed) makes the exit code 1
      assertThat(run.exit).as(run.output).isEqualTo(1);
      assertThat(run.output).contains("oversize:").contains("raw result written")
          .contains("FAIL: request failure rate 50.0% exceeds 5% threshold (1/2 completed)")
          .doesNotContain("OutOfMemoryError").doesNotContain("Exception");
      JsonNode raw = Json.mapper().readTree(dir.resolve("raw.json").toFile());
      assertThat(raw.get("completed").asInt()).isEqualTo(1);
      assertThat(raw.at("/infx/accounting/failed").asInt()).isEqualTo(1);
      assertThat(raw.at("/infx/failures/by_class/oversize").asInt()).isEqualTo(1);
      assertThat(raw.at("/infx/failures/first/0/class").asText()).isEqualTo("oversize");
      assertThat(server.normal.get()).as("the other request was served normally").isEqualTo(1);
      assertEndlessAnswersCutShort(server, run);
    }
  }

  @Test
  @Timeout(240)
  void benchAgenticEndsWithThatRequestOversizeAndTheMetricsScrapeBounded() throws Exception {
    // the 4th streaming request is a measured one (the 1st is the lane's primer, a warm-up whose
    // failure aborts the run by design)
    try (EndlessLineServer server = new EndlessLineServer(EndlessLineServer.Line.DATA, 4)) {
      Path results = dir.resolve("results");
      Run run = run(List.of("bench", "agentic", "--base-url", server.uri().toString(),
          "--model", "m", "--users", "1",
          "--trace", "synthetic:traces=2,turns=3,api=0.02,think=0.02,out=3", "--duration", "5",
          "--warmup-requests-per-lane", "0", "--benchmark-grace-period", "5",
          "--result-dir", results.toString(), "--tokenizer", "builtin", "--no-progress"));
      assertThat(run.exit).as(run.output).isZero();
      assertThat(run.output).doesNotContain("OutOfMemoryError").doesNotContain("Exception");
      List<String> records = Files.readAllLines(
          results.resolve("aiperf_artifacts/profile_export.jsonl"));
      assertThat(records.stream().filter(r -> r.contains("\"type\":\"OversizeError\"")))
          .hasSize(1);
      assertThat(server.endless).as("the /metrics scrapes met the endless line too")
          .anyMatch(e -> e.request().startsWith("GET /metrics"));
      assertEndlessAnswersCutShort(server, run);
    }
  }

  private static void assertEndlessAnswersCutShort(EndlessLineServer server, Run run)
      throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.endless.size() < server.endlessStarted.get() && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    assertThat(server.endless).as("every endless answer ended").hasSize(server.endlessStarted.get());
    assertThat(server.endless).as("probes and the stream all met the endless line")
        .hasSizeGreaterThanOrEqualTo(3);
    assertThat(server.endless).as(run.output).allSatisfy(e -> {
      assertThat(e.bytes()).as("bytes written into %s", e.request()).isLessThan(MAX_ENDLESS_BYTES);
      assertThat(e.millis()).as("ms %s lasted", e.request()).isLessThan(30_000);
    });
  }

  private record Run(int exit, String output) {}

  private Run run(List<String> args) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(args);
    Path log = dir.resolve("out.txt");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile())
        .start();
    boolean ended = p.waitFor(HANG_SECONDS, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(ended).as("ended within %d s (else hung); output:%n%s", HANG_SECONDS, output)
        .isTrue();
    return new Run(p.exitValue(), output);
  }
}
