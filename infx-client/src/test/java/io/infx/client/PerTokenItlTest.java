package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.core.JsonFactory;
import io.infx.client.dataset.Prompt;
import io.infx.client.load.LoadModel;
import io.infx.client.metrics.SampleStats;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.client.tokenizer.Tokenizer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Per-token ITL: the entries rule, the attribution policies, and a paced server's truth. */
class PerTokenItlTest {

  private static final long MS = 1_000_000L;

  private static double[] entries(long[] nanos, int[] k) {
    List<Double> out = new ArrayList<>();
    PerTokenItl.entries(nanos, k, out::add);
    return out.stream().mapToDouble(Double::doubleValue).toArray();
  }

  // ---- the entries rule (hand-computed expectations) ----

  @Test
  void aChunkOfKTokensGivesKEntriesOfItsGapOverK() {
    // chunks at 100, 110, 130, 131, 150 ms carrying 1, 2, 1, 0, 2 tokens:
    // 10/2, 10/2 | 20 | (0 tokens: its 1 ms runs on) | (150-130)/2, (150-130)/2
    double[] e = entries(new long[] {100 * MS, 110 * MS, 130 * MS, 131 * MS, 150 * MS},
        new int[] {1, 2, 1, 0, 2});
    assertThat(e).containsExactly(new double[] {0.005, 0.005, 0.020, 0.010, 0.010},
        within(1e-12));
  }

  @Test
  void theFirstChunksExtraTokensGetNoEntryAndTheEntriesSumToTheSpan() {
    // 4 tokens per chunk, 40 ms apart: the pace is 10 ms; 12 tokens → 8 entries (N − k0)
    double[] e = entries(new long[] {0, 40 * MS, 80 * MS}, new int[] {4, 4, 4});
    double[] expected = new double[8];
    Arrays.fill(expected, 0.010);
    assertThat(e).containsExactly(expected, within(1e-12));
  }

  @Test
  void perChunkFallbackIsTheChunkGaps() {
    double[] e = entries(new long[] {0, 7 * MS, 19 * MS}, null);
    assertThat(e).containsExactly(new double[] {0.007, 0.012}, within(1e-12));
  }

  // ---- the policy ----

  @Test
  void usageDeltasWinAndClampAtZero() {
    PerTokenItl.Attribution a = PerTokenItl.attribute(4, new int[] {1, 3, 3, 5}, 5,
        List.of("a", "b", "c", "d"), BuiltinTokenizer.instance());
    assertThat(a.policy()).isEqualTo(ItlPolicy.USAGE_DELTAS);
    assertThat(a.tokensPerChunk()).containsExactly(1, 2, 0, 2);
  }

  @Test
  void aUsageTotalEqualToTheChunksProvesOneTokenEach() {
    PerTokenItl.Attribution a = PerTokenItl.attribute(3, null, 3, null, null);
    assertThat(a.policy()).isEqualTo(ItlPolicy.USAGE_TOTAL);
    assertThat(a.tokensPerChunk()).containsExactly(1, 1, 1);
  }

  @Test
  void theTokenizerCountsEachChunkAfterItsPredecessor() {
    Tokenizer t = BuiltinTokenizer.instance();
    PerTokenItl.Attribution a = PerTokenItl.attribute(3, null, -1,
        List.of(" ba be", " bi", " bo bu da"), t);
    assertThat(a.policy()).isEqualTo(ItlPolicy.TOKENIZER);
    assertThat(a.tokensPerChunk()).containsExactly(2, 1, 3);
  }

  @Test
  void aTokenizerThatPrependsAWordMarkerIsNotFooledByChunksThatStartAWord() {
    // a SentencePiece-like counter: every text gets a leading marker token when it starts with a
    // space (as LLaMA's normalizer prepends ▁): counted alone, " bi" would be 2 tokens
    Tokenizer marker = new Tokenizer() {
      @Override
      public String id() {
        return "marker";
      }

      @Override
      public int vocabSize() {
        return 1;
      }

      @Override
      public int[] encode(String text) {
        int words = text.isBlank() ? 0 : text.strip().split(" +").length;
        return new int[words + (text.startsWith(" ") ? 1 : 0)];
      }

      @Override
      public String decode(int[] ids) {
        return "";
      }
    };
    PerTokenItl.Attribution a = PerTokenItl.attribute(3, null, -1,
        List.of("ba be", " bi", " bo bu"), marker);
    assertThat(a.tokensPerChunk()).containsExactly(2, 1, 2);
  }

  @Test
  void aUsageTotalBoundsTheTokenizersCounts() {
    // the tokenizer saw 1, 4, 4, 1 (sum 10) but the server generated 7: the 3 surplus tokens go
    // to the two multi-token chunks (1.5 each, the remainder to the earlier one)
    assertThat(PerTokenItl.boundByTotal(new int[] {1, 4, 4, 1}, 7)).containsExactly(1, 3, 2, 1);
    // a total above the tokenizer's count: the rest never showed in a chunk
    assertThat(PerTokenItl.boundByTotal(new int[] {1, 2, 1}, 9)).containsExactly(1, 2, 1);
    PerTokenItl.Attribution a = PerTokenItl.attribute(3, null, 4,
        List.of(" ba", " be bi bo", " bu"), BuiltinTokenizer.instance());
    assertThat(a.policy()).isEqualTo(ItlPolicy.TOKENIZER);
    assertThat(a.tokensPerChunk()).containsExactly(1, 2, 1);
  }

  @Test
  void withoutUsageDeltasOrATokenizerTheRequestIsPerChunk() {
    assertThat(PerTokenItl.attribute(3, null, -1, null, null).policy())
        .isEqualTo(ItlPolicy.PER_CHUNK);
    assertThat(PerTokenItl.attribute(3, null, 7, null, null).policy())
        .as("a total that does not match the chunks cannot say which chunk carried more")
        .isEqualTo(ItlPolicy.PER_CHUNK);
  }

  // ---- through the stream decoder ----

  private static RequestRecord feed(ServingBackend.Api api, Tokenizer tokenizer, String... reads)
      throws Exception {
    InferenceRequest req = new InferenceRequest(api, "/x", new byte[0], 7);
    StreamExchange x = new StreamExchange(new JsonFactory(), req, 0, RequestRecord.Phase.MEASURED,
        0, false, tokenizer, io.infx.client.sse.SseParser.DEFAULT_MAX_EVENT_BYTES);
    x.consumeResponse(new BasicHttpResponse(200),
        new BasicEntityDetails(-1, ContentType.parse("text/event-stream")), null, null);
    for (String r : reads) {
      x.consume(ByteBuffer.wrap(r.getBytes(StandardCharsets.UTF_8)));
      Thread.sleep(2); // distinct arrival times
    }
    x.streamEnd(List.of());
    return x.result.get(1, TimeUnit.SECONDS);
  }

  private static String chat(String delta, String usage) {
    return "data: {\"choices\":[{\"index\":0,\"delta\":" + delta + "}]"
        + (usage == null ? "" : ",\"usage\":" + usage) + "}\n\n";
  }

  @Test
  void roleOnlyAndEmptyChunksCarryNoTokenAndDoNotSplitTheGap() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.CHAT, BuiltinTokenizer.instance(),
        chat("{\"role\":\"assistant\",\"content\":\"\"}", "{\"completion_tokens\":0}"),
        chat("{\"content\":\" ba be\"}", "{\"completion_tokens\":2}"),
        chat("{\"content\":\"\"}", "{\"completion_tokens\":2}"),
        chat("{\"content\":\" bi\"}", "{\"completion_tokens\":3}"),
        chat("{\"reasoning_content\":\" bo bu\"}", "{\"completion_tokens\":5}"),
        "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":5}}\n\n",
        "data: [DONE]\n\n");
    assertThat(r.success()).as(r.toString()).isTrue();
    assertThat(r.tokenChunks()).isEqualTo(3); // the role prelude and the empty content are not
    assertThat(r.itlPolicy()).isEqualTo(ItlPolicy.USAGE_DELTAS);
    assertThat(r.tokensPerChunk().orElseThrow()).containsExactly(2, 1, 2);
    List<Double> e = new ArrayList<>();
    r.perTokenItl(e::add);
    double gap1 = (r.tokenChunkNanos(1) - r.tokenChunkNanos(0)) / 1e9; // spans the empty chunk
    double gap2 = (r.tokenChunkNanos(2) - r.tokenChunkNanos(1)) / 1e9;
    assertThat(e).containsExactly(gap1, gap2 / 2, gap2 / 2);
  }

  @Test
  void withoutUsageTheRunsTokenizerCountsTheChunksReasoningIncluded() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.CHAT, BuiltinTokenizer.instance(),
        chat("{\"role\":\"assistant\",\"content\":\"\"}", null),
        chat("{\"reasoning_content\":\" ba be bi\"}", null),
        chat("{\"content\":\" bo\"}", null),
        chat("{\"content\":\" bu da de di\"}", null),
        "data: [DONE]\n\n");
    assertThat(r.itlPolicy()).isEqualTo(ItlPolicy.TOKENIZER);
    assertThat(r.tokensPerChunk().orElseThrow()).containsExactly(3, 1, 4);
  }

  @Test
  void withNeitherUsageNorTokenizerTheRecordIsPerChunk() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.COMPLETIONS, null,
        "data: {\"choices\":[{\"text\":\" ba be\"}]}\n\n",
        "data: {\"choices\":[{\"text\":\" bi bo\"}]}\n\n",
        "data: {\"choices\":[{\"text\":\" bu da\"}]}\n\n",
        "data: [DONE]\n\n");
    assertThat(r.itlPolicy()).isEqualTo(ItlPolicy.PER_CHUNK);
    assertThat(r.tokensPerChunk()).isEmpty();
    List<Double> e = new ArrayList<>();
    r.perTokenItl(e::add);
    assertThat(e).containsExactly((r.tokenChunkNanos(1) - r.tokenChunkNanos(0)) / 1e9,
        (r.tokenChunkNanos(2) - r.tokenChunkNanos(1)) / 1e9);
  }

  // ---- against a server whose pace is known ----

  /**
   * The truth comes from the server's schedule (one token every {@code PACE}, four per chunk),
   * not from infx: the per-token ITL must be within 2 % of the pace whatever usage the stream
   * carries, while the reference's per-chunk ITL stays four times the pace.
   */
  @ParameterizedTest
  @EnumSource(PacedServer.Usage.class)
  void fourTokensPerChunkGivePerTokenItlWithinTwoPercentOfThePace(PacedServer.Usage usage)
      throws Exception {
    long pace = 20 * MS;
    int osl = 64; // 60 entries over 1.2 s per request: a 10 ms hiccup moves the mean < 1 %
    try (PacedServer server = new PacedServer(pace, 20 * MS, 4, usage)) {
      List<Prompt> prompts = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        prompts.add(new Prompt(" ba be bi bo", 4, osl));
      }
      ServeResult run = ServeBenchmark.builder()
          .client(ClientOptions.builder().baseUri(server.uri())
              .fallbackTokenizer(BuiltinTokenizer.instance())
              .deadlines(Deadlines.builder().connect(Duration.ofSeconds(5))
                  .firstByte(Duration.ofSeconds(10)).idle(Duration.ofSeconds(5))
                  .total(Duration.ofSeconds(60)).build()).build())
          .backend(ServingBackend.VLLM).model("m").prompts(prompts).load(LoadModel.closed(2))
          // a cold client reads its first chunks late (JIT, first connections), which shortens
          // the first-to-last span the entries sum to
          .clientWarmup(1000).warmups(2)
          .body(BodyOptions.builder().ignoreEos(true).build()).build().run();
      ServeMetrics m = run.metrics(MetricOptions.defaults());
      assertThat(m.completed()).isEqualTo(4);
      ItlPolicy expected = usage == PacedServer.Usage.CONTINUOUS ? ItlPolicy.USAGE_DELTAS
          : ItlPolicy.TOKENIZER;
      assertThat(m.itlPolicies()).isEqualTo(Map.of(expected, 4));
      assertThat(m.tokensPerChunk()).isEqualTo(new java.util.TreeMap<>(Map.of(4, 4L * osl / 4)));
      SampleStats perToken = m.itlPerToken().seconds();
      System.out.printf("paced %s: per-token ITL mean %.3f ms, median %.3f ms (pace %.3f ms)%n",
          usage, perToken.mean().orElseThrow() * 1e3, perToken.median().orElseThrow() * 1e3,
          pace / 1e6);
      assertThat(perToken.count()).isEqualTo(4L * (osl - 4));
      // The truth is the schedule the server really kept, on its own clock: the sum of the
      // per-token entries of a request telescopes to its first-to-last token-chunk span, so the
      // true mean is Σ span / Σ tokens after the first chunk over the 4 measured requests (the
      // last 4 to finish; the 2 warm-ups finish before them). On an idle machine this is the
      // pace; under load a late last chunk lengthens a span for the server and client alike.
      List<long[]> spans = server.spans();
      assertThat(spans).hasSize(6);
      long spanNanos = 0;
      long entries = 0;
      for (long[] s : spans.subList(2, 6)) {
        spanNanos += s[1] - s[0];
        entries += s[2];
      }
      double truth = spanNanos / 1e9 / entries;
      assertThat(truth).as("the server kept roughly its pace").isCloseTo(pace / 1e9,
          within(0.5 * pace / 1e9));
      assertThat(perToken.mean().orElseThrow()).as("mean per-token ITL vs the server's schedule")
          .isCloseTo(truth, within(0.02 * truth));
      assertThat(perToken.median().orElseThrow()).as("median per-token ITL vs the pace")
          .isCloseTo(pace / 1e9, within(0.05 * pace / 1e9));
      assertThat(m.itl().meanMillis().orElseThrow() / 1000).as("the reference's ITL stays per chunk")
          .isCloseTo(4 * truth, within(0.02 * 4 * truth));

      Map<String, Object> raw = RawResult.build(run, m, MetricOptions.defaults(),
          new RawResult.Context("m", "builtin", Map.of(), false, Map.of(), Optional.empty()));
      @SuppressWarnings("unchecked")
      Map<String, Object> a = (Map<String, Object>) ((Map<String, Object>) raw.get("infx"))
          .get("itl_attribution");
      assertThat(a).containsEntry("policy", expected.label())
          .containsEntry("tokens_per_chunk", Map.of("4", 64L));
      StringWriter console = new StringWriter();
      Summary.print(new PrintWriter(console), run, m, MetricOptions.defaults());
      assertThat(console.toString()).contains("Per-token ITL (infx, " + expected.label() + ")");
      if (!expected.fromUsage()) {
        assertThat(console.toString()).containsPattern("Tokens per chunk \\(tokens:chunks\\): +4:64\n");
      }
    }
  }

  @Test
  void aRunIsPerChunkAsSoonAsOneRequestIs() {
    ServeMetrics.Builder b = new ServeMetrics.Builder();
    b.itlPolicies.put(ItlPolicy.USAGE_TOTAL, 3);
    b.itlPolicies.put(ItlPolicy.PER_CHUNK, 1);
    assertThat(b.build().itlPolicy()).contains(ItlPolicy.PER_CHUNK);
    assertThat(Arrays.asList(ItlPolicy.values())).extracting(ItlPolicy::label)
        .containsExactly("usage-deltas", "usage-total", "tokenizer", "per-chunk");
  }
}
