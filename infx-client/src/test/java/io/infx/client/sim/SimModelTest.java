package io.infx.client.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulator's engine model as {@link SimConfig} describes it: at most {@code maxNumSeqs}
 * sequences run and the rest queue; the first step of a sequence includes prefilling its
 * uncached prompt tokens at {@code prefillTokensPerSecond}; whole {@code blockSize} blocks of a
 * previously seen prefix are cached (the last prompt token is always computed) and reported as
 * {@code usage.prompt_tokens_details.cached_tokens}; {@code /tokenize} counts with the builtin
 * tokenizer; {@code /metrics} uses vLLM's metric names.
 *
 * <p>Timing assertions are lower bounds implied by the model (the engine never runs a step
 * faster than its modelled time), measured on the simulator's true timeline, plus one
 * comparison with a margin of several hundred milliseconds.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SimModelTest {

  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  /** A finished streaming request: its id, the parsed data chunks and the usage chunk. */
  private record Streamed(String requestId, List<JsonNode> chunks, JsonNode usage) {
    int cachedTokens() {
      return usage.path("prompt_tokens_details").path("cached_tokens").asInt(0);
    }
  }

  private static HttpResponse<String> post(URI uri, String json) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
  }

  private static CompletableFuture<Streamed> streamAsync(SimServer sim, ObjectNode body) {
    body.put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
    HttpRequest r = HttpRequest.newBuilder(sim.baseUri().resolve("/v1/completions"))
        .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
    return HTTP.sendAsync(r, HttpResponse.BodyHandlers.ofString()).thenApply(resp -> {
      assertThat(resp.statusCode()).as(resp.body()).isEqualTo(200);
      List<JsonNode> chunks = new ArrayList<>();
      JsonNode usage = null;
      for (String line : resp.body().split("\n")) {
        if (!line.startsWith("data: ") || line.equals("data: [DONE]")) {
          continue;
        }
        try {
          JsonNode n = Json.mapper().readTree(line.substring(6));
          chunks.add(n);
          if (n.path("choices").isEmpty() && n.has("usage")) {
            usage = n.get("usage");
          }
        } catch (Exception e) {
          throw new AssertionError("bad chunk " + line, e);
        }
      }
      assertThat(usage).as("usage chunk").isNotNull();
      return new Streamed(resp.headers().firstValue("x-request-id").orElseThrow(), chunks, usage);
    });
  }

  private static Streamed stream(SimServer sim, ObjectNode body) throws Exception {
    return streamAsync(sim, body).get(60, TimeUnit.SECONDS);
  }

  private static ObjectNode idsPrompt(int[] ids, int maxTokens) {
    ObjectNode b = Json.mapper().createObjectNode();
    b.put("model", "m");
    ArrayNode a = b.putArray("prompt");
    for (int id : ids) {
      a.add(id);
    }
    b.put("max_tokens", maxTokens);
    b.put("ignore_eos", true);
    return b;
  }

  private static ObjectNode textPrompt(String text, int maxTokens) {
    ObjectNode b = Json.mapper().createObjectNode();
    b.put("model", "m");
    b.put("prompt", text);
    b.put("max_tokens", maxTokens);
    return b;
  }

  private static Timeline timeline(SimServer sim, String id) throws InterruptedException {
    await(() -> sim.timeline(id).isPresent(), "timeline of " + id);
    return sim.timeline(id).orElseThrow();
  }

  private static void await(BooleanSupplier cond, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.sleep(5);
    }
  }

  /** Server-side TTFT in seconds: first token chunk written − request fully read. */
  private static double ttft(Timeline t) {
    return (t.firstTokenNanos() - t.arrivalNanos()) / 1e9;
  }

  private static int[] randomIds(long seed, int n) {
    SplittableRandom r = new SplittableRandom(seed);
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = r.nextInt(BuiltinTokenizer.VOCAB_SIZE);
    }
    return ids;
  }

  /** Prometheus text: {@code name{labels} value} samples by name (labels dropped). */
  private static Map<String, Double> scrape(SimServer sim) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(sim.baseUri().resolve("/metrics"))
        .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    Map<String, Double> out = new HashMap<>();
    Map<String, String> types = new HashMap<>();
    for (String line : r.body().split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] p = line.split(" ");
        types.put(p[2], p[3]);
        continue;
      }
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      String name = line.substring(0, brace >= 0 ? brace : space);
      out.put(name, Double.parseDouble(line.substring(space + 1)));
      assertThat(types).as("a # TYPE line precedes " + name).containsKey(name);
      if (name.endsWith("_total")) {
        assertThat(types.get(name)).as(name).isEqualTo("counter");
      }
    }
    return out;
  }

  @Test
  void maxNumSeqsCapsRunningSequencesAndTheRestQueue() throws Exception {
    // 6 requests of 60 tokens, ≥ 10 ms per step: one wave of 2 lasts ≥ 0.6 s
    SimConfig cfg = SimConfig.builder().maxNumSeqs(2).decodeStepBase(Duration.ofMillis(10))
        .build();
    try (SimServer sim = SimServer.start(cfg)) {
      List<CompletableFuture<Streamed>> fs = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        fs.add(streamAsync(sim, textPrompt("request number " + i, 60)));
      }
      int maxRunning = 0;
      int maxWaiting = 0;
      Map<String, Double> during = null;
      while (!fs.stream().allMatch(CompletableFuture::isDone)) {
        SimStats s = sim.stats();
        maxRunning = Math.max(maxRunning, s.running());
        maxWaiting = Math.max(maxWaiting, s.waiting());
        if (during == null && s.waiting() > 0) {
          during = scrape(sim);
        }
        Thread.sleep(2);
      }
      assertThat(maxRunning).as("most sequences running at once").isEqualTo(2);
      assertThat(maxWaiting).as("most sequences queued at once").isBetween(1, 4);
      assertThat(during).as("/metrics scraped while requests were queued").isNotNull();
      assertThat(during.get("vllm:num_requests_running")).isBetween(0.0, 2.0);
      assertThat(during.get("vllm:num_requests_waiting")).isBetween(0.0, 4.0);
      for (CompletableFuture<Streamed> f : fs) {
        Streamed s = f.get(60, TimeUnit.SECONDS);
        assertThat(s.usage().get("completion_tokens").asInt()).isEqualTo(60);
      }
      // all six ran to completion; the queued ones started only after a slot freed, so the
      // latest first token came at least one whole wave (60 steps of ≥ 10 ms) after the
      // earliest one
      List<Timeline> ts = new ArrayList<>();
      for (CompletableFuture<Streamed> f : fs) {
        ts.add(timeline(sim, f.get().requestId()));
      }
      long firstStart = ts.stream().mapToLong(Timeline::firstTokenNanos).min().orElseThrow();
      long lastStart = ts.stream().mapToLong(Timeline::firstTokenNanos).max().orElseThrow();
      assertThat(lastStart - firstStart).isGreaterThanOrEqualTo(59 * 10_000_000L);
    }
  }

  @Test
  void prefillTimeGrowsWithUncachedPromptTokensAndPrefixHitsAreWholeBlocks() throws Exception {
    // 5,000 prompt tokens/s: 4,000 uncached tokens cost ≥ 0.8 s of prefill in the first step
    SimConfig cfg = SimConfig.builder().prefillTokensPerSecond(5_000)
        .decodeStepBase(Duration.ofMillis(2)).build();
    int[] a = randomIds(1, 4000);
    int[] b = Arrays.copyOf(a, 3000);
    System.arraycopy(randomIds(2, 1000), 0, b, 2000, 1000); // shares a's first 2,000 tokens
    int[] d = Arrays.copyOf(a, 1000); // 62 whole blocks of 16 (992 tokens) + 8 tokens
    try (SimServer sim = SimServer.start(cfg)) {
      Streamed first = stream(sim, idsPrompt(a, 2));
      Streamed again = stream(sim, idsPrompt(a, 2));
      Streamed partial = stream(sim, idsPrompt(b, 2));
      Streamed shorter = stream(sim, idsPrompt(d, 2));

      // usage: prompt tokens as sent; cached = min(whole blocks × 16, prompt − 1)
      assertThat(first.usage().get("prompt_tokens").asInt()).isEqualTo(4000);
      assertThat(first.cachedTokens()).isZero();
      assertThat(again.cachedTokens()).isEqualTo(Math.min(4000 / 16 * 16, 4000 - 1));
      assertThat(partial.cachedTokens()).isEqualTo(2000);
      assertThat(shorter.cachedTokens()).isEqualTo(1000 / 16 * 16);

      Timeline t1 = timeline(sim, first.requestId());
      Timeline t2 = timeline(sim, again.requestId());
      Timeline t3 = timeline(sim, partial.requestId());
      assertThat(t1.cachedTokens()).isZero();
      assertThat(t2.cachedTokens()).isEqualTo(again.cachedTokens());
      assertThat(t3.promptTokens()).isEqualTo(3000);
      // prefill lower bounds from the model: uncached / 5,000 tok/s (10 % slack for the clock
      // reading at step start)
      assertThat(ttft(t1)).as("TTFT of 4,000 uncached tokens").isGreaterThan(0.9 * 4000 / 5000.0);
      assertThat(ttft(t3)).as("TTFT of 1,000 uncached tokens").isGreaterThan(0.9 * 1000 / 5000.0);
      // the cached repeat prefills one token: far faster than the cold request
      assertThat(ttft(t2)).as("TTFT of the cached repeat").isLessThan(ttft(t1) - 0.3);

      Map<String, Double> m = scrape(sim);
      assertThat(m.get("vllm:prefix_cache_queries_total")).isEqualTo(4000 + 4000 + 3000 + 1000.0);
      assertThat(m.get("vllm:prefix_cache_hits_total")).isEqualTo(3999 + 2000 + 992.0);
    }
    // with prefix caching off, a repeat pays the whole prefill again
    try (SimServer sim = SimServer.start(SimConfig.builder().from(cfg).prefixCaching(false)
        .build())) {
      stream(sim, idsPrompt(a, 2));
      Streamed again = stream(sim, idsPrompt(a, 2));
      assertThat(again.cachedTokens()).isZero();
      assertThat(ttft(timeline(sim, again.requestId()))).isGreaterThan(0.9 * 4000 / 5000.0);
    }
  }

  @Test
  void slowdownStretchesDecodeAndPrefillSteps() throws Exception {
    // slowdown 3 on 10 ms steps and 10,000 prompt tok/s: every step takes ≥ 30 ms and 2,000
    // uncached prompt tokens ≥ 0.6 s of prefill; the same requests without it take a third
    SimConfig base = SimConfig.builder().prefillTokensPerSecond(10_000)
        .decodeStepBase(Duration.ofMillis(10)).build();
    SimConfig slow = SimConfig.builder().from(base).slowdown(3.0).build();
    try (SimServer sim = SimServer.start(slow)) {
      Timeline t = timeline(sim, stream(sim, idsPrompt(randomIds(7, 2000), 20)).requestId());
      assertThat(ttft(t)).as("TTFT: 3 × (10 ms + 2,000 / 10,000 tok/s)").isGreaterThan(0.9 * 3 * 0.21);
      double decode = (t.lastTokenNanos() - t.firstTokenNanos()) / 1e9;
      assertThat(decode).as("19 decode steps of ≥ 3 × 10 ms").isGreaterThan(0.9 * 19 * 0.030);
    }
    assertThat(SimConfig.defaults().slowdown()).isEqualTo(1.0);
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
          .as("slowdown " + bad)
          .isThrownBy(() -> SimConfig.builder().slowdown(bad).build());
    }
  }

  @Test
  void tokenizeCountsWithTheBuiltinTokenizer() throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.defaults())) {
      // by the builtin rules: "Hello" "," " world" "!" " 123" → 5 tokens
      HttpResponse<String> r = post(sim.baseUri().resolve("/tokenize"),
          "{\"prompt\":\"Hello, world! 123\"}");
      assertThat(r.statusCode()).isEqualTo(200);
      JsonNode n = Json.mapper().readTree(r.body());
      assertThat(n.get("count").asInt()).isEqualTo(5);
      String text = " ba be bi some Words, 42 and (parens).";
      JsonNode m = Json.mapper().readTree(post(sim.baseUri().resolve("/tokenize"),
          Json.mapper().createObjectNode().put("prompt", text).toString()).body());
      int[] expected = BuiltinTokenizer.instance().encode(text);
      assertThat(m.get("count").asInt()).isEqualTo(expected.length);
      int[] tokens = new int[m.get("tokens").size()];
      for (int i = 0; i < tokens.length; i++) {
        tokens[i] = m.get("tokens").get(i).asInt();
      }
      assertThat(tokens).isEqualTo(expected);
      // " ba", " be", " bi" are the vocabulary's first three words: ids 0, 1, 2
      assertThat(Arrays.copyOf(tokens, 3)).containsExactly(0, 1, 2);
      assertThat(m.get("max_model_len").asInt()).isEqualTo(SimConfig.defaults().maxModelLen());

      // chat messages: /tokenize counts the same prompt the chat endpoint charges as usage
      String msgs = "[{\"role\":\"system\",\"content\":\"be brief\"},"
          + "{\"role\":\"user\",\"content\":\"Hello, world!\"}]";
      int tokenized = Json.mapper().readTree(post(sim.baseUri().resolve("/tokenize"),
          "{\"messages\":" + msgs + "}").body()).get("count").asInt();
      HttpResponse<String> chat = post(sim.baseUri().resolve("/v1/chat/completions"),
          "{\"model\":\"m\",\"messages\":" + msgs + ",\"max_tokens\":2,\"stream\":true,"
              + "\"stream_options\":{\"include_usage\":true}}");
      String usageLine = Arrays.stream(chat.body().split("\n"))
          .filter(l -> l.contains("\"choices\":[]")).findFirst().orElseThrow();
      int charged = Json.mapper().readTree(usageLine.substring(6)).get("usage")
          .get("prompt_tokens").asInt();
      assertThat(tokenized).isEqualTo(charged).isGreaterThan(BuiltinTokenizer.instance()
          .count("be brief") + BuiltinTokenizer.instance().count("Hello, world!"));
    }
  }

  @Test
  void metricsUseVllmNamesAndCountWhatWasSent() throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.defaults())) {
      Map<String, Double> before = scrape(sim);
      assertThat(before).containsKeys("vllm:num_requests_running", "vllm:num_requests_waiting",
          "vllm:prompt_tokens_total", "vllm:generation_tokens_total",
          "vllm:request_success_total", "vllm:prefix_cache_queries_total",
          "vllm:prefix_cache_hits_total", "vllm:num_preemptions_total");
      assertThat(before.get("vllm:request_success_total")).isZero();
      String[] prompts = {"one two three", "Hello, world!", "a b c d e f g", "x"};
      int[] max = {3, 7, 11, 1};
      long promptSum = 0;
      long genSum = 0;
      for (int i = 0; i < prompts.length; i++) {
        Streamed s = stream(sim, textPrompt(prompts[i], max[i]));
        int count = BuiltinTokenizer.instance().count(prompts[i]);
        assertThat(s.usage().get("prompt_tokens").asInt()).isEqualTo(count);
        assertThat(s.usage().get("completion_tokens").asInt()).isEqualTo(max[i]);
        promptSum += count;
        genSum += max[i];
      }
      await(() -> sim.stats().requestsFinished() == prompts.length, "4 finished requests");
      Map<String, Double> after = scrape(sim);
      assertThat(after.get("vllm:request_success_total")).isEqualTo(4.0);
      assertThat(after.get("vllm:prompt_tokens_total")).isEqualTo((double) promptSum);
      assertThat(after.get("vllm:generation_tokens_total")).isEqualTo((double) genSum);
      assertThat(after.get("vllm:num_requests_running")).isZero();
      assertThat(after.get("vllm:num_requests_waiting")).isZero();
      assertThat(after.get("vllm:num_preemptions_total")).isZero();
    }
  }
}
