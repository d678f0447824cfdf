package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BenchServeCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void inferenceXFlagsAgainstTheSimulatorWriteANormalizableRawResult(@TempDir Path dir)
      throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder()
        .decodeStepBase(Duration.ofMillis(1)).build())) {
      int rc = run("bench", "serve", "--backend", "openai-chat", "--base-url",
          sim.baseUri().toString(), "--endpoint", "/v1/chat/completions", "--model", "tiny",
          "--dataset-name", "random", "--random-input-len", "64", "--random-output-len", "16",
          "--random-range-ratio", "0.8", "--num-prompts", "24", "--max-concurrency", "4",
          "--request-rate", "inf", "--ignore-eos", "--num-warmups", "8",
          "--percentile-metrics", "ttft,tpot,itl,e2el", "--save-result", "--result-dir",
          dir.toString(), "--result-filename", "r.json", "--metadata", "a=b", "--disable-tqdm",
          "--hlog", dir.resolve("r.hlog").toString());
      assertThat(rc).as(err.toString()).isZero();
      assertThat(out.toString()).contains("Serving Benchmark Result").contains("Successful requests:                     24");
      JsonNode raw = Json.mapper().readTree(dir.resolve("r.json").toFile());
      var reader = new org.HdrHistogram.HistogramLogReader(dir.resolve("r.hlog").toFile());
      java.util.Map<String, Long> counts = new java.util.TreeMap<>();
      org.HdrHistogram.EncodableHistogram h;
      while ((h = reader.nextIntervalHistogram()) != null) {
        counts.put(h.getTag(), ((org.HdrHistogram.Histogram) h).getTotalCount());
      }
      assertThat(counts.get("ttft")).isEqualTo(24L);
      assertThat(counts.get("e2el")).isEqualTo(24L);
      assertThat(counts.get("itl")).isPositive();
      assertThat(counts.get("lateness")).isEqualTo(24L);   // one send-lateness value per measured request
      assertThat(counts.get("tpot")).isEqualTo(24L);       // one TPOT per request (12–16 tokens each)
      assertThat(raw.get("completed").asInt()).isEqualTo(24);
      assertThat(raw.get("a").asText()).isEqualTo("b");
      assertThat(raw.get("tokenizer_id").asText()).isEqualTo("tiny");
      assertThat(raw.get("infx").get("workload").get("tokenizer").asText()).isEqualTo("builtin");
      // the simulator is on loopback: one I/O thread and C2 only in the client's warm-up, said in
      // the result and on stderr
      JsonNode client = raw.get("infx").get("client");
      assertThat(client.get("io_threads").asInt()).isEqualTo(1);
      assertThat(client.get("io_threads_reason").asText()).isEqualTo("loopback_server");
      assertThat(client.get("jit").asText()).isEqualTo("tiered-warmup");
      assertThat(err.toString()).contains("infx: I/O threads: 1 (server on loopback")
          .contains("infx: client JIT: tiered during the client warm-up, then C1 only");
      assertThat(raw.get("output_lens").size()).isEqualTo(24);
      for (JsonNode len : raw.get("output_lens")) {
        assertThat(len.asInt()).isBetween(12, 16);
      }
      // the results normalizer accepts it as the reference would
      Path env = dir.resolve("env.json");
      java.nio.file.Files.writeString(env, "{\"RUNNER_TYPE\":\"h200\",\"FRAMEWORK\":\"vllm\","
          + "\"PRECISION\":\"fp8\",\"SPEC_DECODING\":\"none\",\"RESULT_FILENAME\":\"r\","
          + "\"ISL\":\"64\",\"OSL\":\"16\",\"DISAGG\":\"false\",\"MODEL_PREFIX\":\"tiny\","
          + "\"IMAGE\":\"img\",\"TP\":\"1\",\"EP_SIZE\":\"1\",\"DP_ATTENTION\":\"false\"}");
      StringWriter o2 = new StringWriter();
      int rc2 = Main.run(new String[] {"results", "process", "--dir", dir.toString(),
          "--env-file", env.toString()}, new PrintWriter(o2), new PrintWriter(err));
      assertThat(rc2).as(err.toString()).isZero();
      JsonNode agg = Json.mapper().readTree(o2.toString());
      assertThat(agg.get("conc").asInt()).isEqualTo(4);
      assertThat(agg.get("median_intvty").asDouble()).isPositive();
    }
  }

  @Test
  void numRunsKeepsEveryRunAndPrintsTheirStatistics(@TempDir Path dir) throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
      int rc = run("bench", "serve", "--backend", "vllm", "--base-url", sim.baseUri().toString(),
          "--model", "m", "--tokenizer", "builtin", "--random-input-len", "16",
          "--random-output-len", "4", "--num-prompts", "4", "--max-concurrency", "2", "--ignore-eos",
          "--save-result", "--result-dir", dir.toString(), "--result-filename", "x.json",
          "--disable-tqdm", "--num-runs", "3");
      assertThat(rc).as(err.toString()).isZero();
      for (int k = 1; k <= 3; k++) {
        assertThat(dir.resolve("x-run" + k + ".json")).exists();
      }
      assertThat(dir.resolve("x.json")).doesNotExist();
      assertThat(out.toString()).contains("Repetitions (3 runs)").contains("95% interval of the mean")
          .contains("Median TPOT (ms)");
    }
    assertThat(run("bench", "serve", "--model", "m", "--num-runs", "0")).isEqualTo(2);
  }

  @Test
  void hlogIntervalWritesOneHistogramPerIntervalThatAddUpToTheRun(@TempDir Path dir)
      throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.builder()
        .decodeStepBase(Duration.ofMillis(2)).build())) {
      int rc = run("bench", "serve", "--backend", "vllm", "--base-url", sim.baseUri().toString(),
          "--model", "m", "--tokenizer", "builtin", "--random-input-len", "16",
          "--random-output-len", "16", "--num-prompts", "24", "--max-concurrency", "4",
          "--ignore-eos", "--disable-tqdm", "--save-result", "--result-dir", dir.toString(),
          "--result-filename", "r.json", "--hlog", dir.resolve("r.hlog").toString(),
          "--hlog-interval", "10ms");
      assertThat(rc).as(err.toString()).isZero();
    }
    var reader = new org.HdrHistogram.HistogramLogReader(dir.resolve("r.hlog").toFile());
    java.util.Map<String, List<org.HdrHistogram.Histogram>> byTag = new java.util.TreeMap<>();
    org.HdrHistogram.EncodableHistogram h;
    while ((h = reader.nextIntervalHistogram()) != null) {
      byTag.computeIfAbsent(h.getTag(), k -> new ArrayList<>()).add((org.HdrHistogram.Histogram) h);
    }
    JsonNode raw = Json.mapper().readTree(dir.resolve("r.json").toFile());
    // 6 rounds of ~32 ms requests: several 10 ms intervals, however loaded the machine
    assertThat(byTag.get("ttft").size()).isGreaterThan(2);
    assertThat(byTag.get("lateness")).hasSize(1);
    for (String tag : List.of("ttft", "tpot", "e2el")) {
      assertThat(byTag.get(tag).stream().mapToLong(x -> x.getTotalCount()).sum()).as(tag)
          .isEqualTo(24);
    }
    assertThat(byTag.get("itl").stream().mapToLong(x -> x.getTotalCount()).sum())
        .isEqualTo(raw.get("total_output_tokens").asLong() - 24); // one gap per token after the first
    List<org.HdrHistogram.Histogram> ttft = byTag.get("ttft");
    for (int i = 1; i < ttft.size(); i++) {
      assertThat(ttft.get(i).getStartTimeStamp()).isGreaterThanOrEqualTo(ttft.get(i - 1).getStartTimeStamp());
    }
    assertThat(run("bench", "serve", "--model", "m", "--hlog-interval", "1s")).isEqualTo(2);
    assertThat(err.toString()).contains("--hlog-interval needs --hlog FILE");
  }

  @Test
  void numRunsSaysNoSamplesForAMetricARunHasNoneOf(@TempDir Path dir) throws Exception {
    // one output token per request: no TPOT sample in any run (the reference would average zeros)
    try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
      int rc = run("bench", "serve", "--backend", "vllm", "--base-url", sim.baseUri().toString(),
          "--model", "m", "--tokenizer", "builtin", "--random-input-len", "16",
          "--random-output-len", "1", "--num-prompts", "2", "--max-concurrency", "2", "--ignore-eos",
          "--disable-tqdm", "--num-runs", "2");
      assertThat(rc).as(err.toString()).isZero();
      assertThat(out.toString())
          .containsPattern("Median TPOT \\(ms\\) +n/a \\(no samples in 2 of 2 runs\\)")
          .containsPattern("Median TTFT \\(ms\\) +[0-9]");
    }
  }

  @Test
  void failureGateExitsOneAfterSaving(@TempDir Path dir) throws Exception {
    io.infx.client.sim.Faults f = io.infx.client.sim.Faults.always(
        io.infx.client.sim.Faults.Kind.HTTP_500);
    try (SimServer sim = SimServer.start(SimConfig.builder().faults(f).build())) {
      int rc = run("bench", "serve", "--backend", "vllm", "--base-url", sim.baseUri().toString(),
          "--model", "m", "--tokenizer", "builtin", "--random-input-len", "8",
          "--random-output-len", "4", "--num-prompts", "5", "--max-concurrency", "2",
          "--save-result", "--result-dir", dir.toString(), "--result-filename", "x.json",
          "--disable-tqdm");
      assertThat(rc).isEqualTo(1);
      assertThat(err.toString())
          .contains("FAIL: request failure rate 100.0% exceeds 5% threshold (0/5 completed)");
      assertThat(dir.resolve("x.json")).exists();
    }
  }

  @Test
  void usageErrorsAreClearAndExitTwo() {
    assertThat(run("bench", "serve", "--model", "m", "--backend", "tgi")).isEqualTo(2);
    assertThat(err.toString()).contains("legacy backend").doesNotContain("\tat ");
    err.getBuffer().setLength(0);
    assertThat(run("bench", "serve", "--model", "m", "--goodput", "ttft")).isEqualTo(2);
    assertThat(err.toString()).contains("KEY:VALUE");
    err.getBuffer().setLength(0);
    assertThat(run("bench", "serve", "--model", "m", "--backend", "openai-chat",
        "--endpoint", "/v1/completions", "--tokenizer", "builtin", "--base-url",
        "http://127.0.0.1:9")).isEqualTo(2);
    assertThat(err.toString()).contains("chat/completions");
    err.getBuffer().setLength(0);
    // the reference's own check and wording, before any connection is tried
    assertThat(run("bench", "serve", "--model", "m", "--dsv4", "--tokenizer", "builtin",
        "--base-url", "http://127.0.0.1:9")).isEqualTo(2);
    assertThat(err.toString()).contains("--dsv4 requires --use-chat-template to be set.")
        .doesNotContain("\tat ");
    err.getBuffer().setLength(0);
    // the library says numPrompts (ServeJob's attribute); the command line names the flag typed
    assertThat(run("bench", "serve", "--model", "m", "--num-prompts", "0", "--tokenizer", "builtin",
        "--base-url", "http://127.0.0.1:9")).isEqualTo(2);
    assertThat(err.toString()).contains("infx: error: --num-prompts must be ≥ 1, got 0")
        .doesNotContain("numPrompts");
  }

  @Test
  void useChatTemplateWrapsPromptsAgainstTheSimulator(@TempDir Path dir) throws Exception {
    Path template = dir.resolve("t.jinja");
    // no spaces around the content: the built-in tokenizer's counts then add up exactly, so the
    // reference's accounting (template tokens taken off the input length) gives the requested ISL
    java.nio.file.Files.writeString(template, "{{ bos_token }}[INST]{{ messages[0].content }}[/INST]");
    try (SimServer sim = SimServer.start(SimConfig.builder()
        .decodeStepBase(Duration.ofMillis(1)).build())) {
      int rc = run("bench", "serve", "--backend", "vllm", "--base-url", sim.baseUri().toString(),
          "--model", "tiny", "--tokenizer", "builtin", "--use-chat-template", "--chat-template",
          template.toString(), "--random-input-len", "48", "--random-output-len", "4",
          "--num-prompts", "6", "--max-concurrency", "2", "--disable-tqdm", "--save-result",
          "--result-dir", dir.toString(), "--result-filename", "c.json");
      assertThat(rc).as(err.toString()).isZero();
      assertThat(err.toString()).contains("infx: chat template: " + template);
      JsonNode raw = Json.mapper().readTree(dir.resolve("c.json").toFile());
      assertThat(raw.get("completed").asInt()).isEqualTo(6);
      assertThat(raw.get("infx").get("workload").get("chat_template").asText())
          .isEqualTo(template.toString());
      // the simulator counts with the same built-in tokenizer: it agrees with every input length
      assertThat(raw.get("infx").get("tokens").get("usage_prompt_token_mismatches").asInt()).isZero();
      for (JsonNode len : raw.get("input_lens")) {
        assertThat(len.asInt()).isEqualTo(48);
      }
    }
  }

  @Test
  void aServerThatIsNotThereFailsBeforeAnyPromptIsBuilt() {
    // port 9 (discard) has no listener here: the error says so, not "no local tokenizer"
    assertThat(run("bench", "serve", "--model", "m", "--base-url", "http://127.0.0.1:9",
        "--dataset-name", "random", "--num-prompts", "4")).isEqualTo(1);
    assertThat(err.toString()).contains("cannot connect to http://127.0.0.1:9")
        .contains("is the server running?").doesNotContain("tokenizer").doesNotContain("\tat ");
  }

  @Test
  void simServesForABoundedTime() {
    long t0 = System.nanoTime();
    assertThat(run("sim", "--port", "0", "--for", "300ms")).isZero();
    assertThat(out.toString()).startsWith("http://127.0.0.1:");
    assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(20).toNanos());
  }

  @Test
  void clientJitIsTieredTieredWarmupOrC1() {
    assertThat(BenchServeCommand.jitMode("tiered")).isEqualTo(io.infx.client.ClientJit.Mode.TIERED);
    assertThat(BenchServeCommand.jitMode("tiered-warmup"))
        .isEqualTo(io.infx.client.ClientJit.Mode.TIERED_WARMUP);
    assertThat(BenchServeCommand.jitMode("C1")).isEqualTo(io.infx.client.ClientJit.Mode.C1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> BenchServeCommand.jitMode("c2"))
        .isInstanceOf(io.infx.core.UsageException.class)
        .hasMessageContaining("--client-jit must be tiered, tiered-warmup or c1, got 'c2'");
  }

  @Test
  void randomInputLenBasisIsServerOrClient() {
    assertThat(BenchServeCommand.parseInputLenBasis("server")).isTrue();
    assertThat(BenchServeCommand.parseInputLenBasis("client")).isFalse();
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> BenchServeCommand.parseInputLenBasis("tokens"))
        .isInstanceOf(io.infx.core.UsageException.class)
        .hasMessageContaining("--random-input-len-basis must be server or client");
  }
}
