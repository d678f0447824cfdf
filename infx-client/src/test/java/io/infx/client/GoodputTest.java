package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.UsageException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Goodput (client spec §5.2): {@code request_goodput = good / duration}, where a successful
 * request is good when every configured SLO (ms) holds as {@code value ≤ SLO}; a request with at
 * most one output token has no TPOT sample and counts as TPOT 0; without SLOs the value is null.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GoodputTest {

  private static final long MS = 1_000_000L;

  /** One synthetic request: TTFT and E2EL in ms, output tokens, success. */
  private record Spec(int ttftMs, int e2elMs, int out, boolean ok) {}

  private static RequestRecord record(int i, Spec s) {
    long send = 10_000 * MS + i * MS; // arbitrary, distinct origins
    RequestRecord.Builder b = RequestRecord.builder().index(i).sendNanos(send)
        .intendedNanos(send).promptTokens(10).status(200);
    if (!s.ok()) {
      return b.failure(new RequestFailure(FailureClass.HTTP_5XX, "Internal Server Error", 500, ""))
          .endNanos(send + s.e2elMs() * MS).status(500).build();
    }
    // first token at TTFT, the remaining chunks spread up to E2EL (one token per chunk)
    long[] chunks = new long[s.out()];
    for (int k = 0; k < s.out(); k++) {
      chunks[k] = send + s.ttftMs() * MS
          + (s.out() == 1 ? 0 : (long) (s.e2elMs() - s.ttftMs()) * MS * k / (s.out() - 1));
    }
    return b.tokenChunkNanos(chunks).firstChoicesNanos(chunks[0]).firstContentNanos(chunks[0])
        .e2elEndNanos(send + s.e2elMs() * MS).endNanos(send + s.e2elMs() * MS)
        .outputTokens(s.out(), TokenSource.USAGE).doneSeen(true).build();
  }

  /** A finished run of these requests whose measured phase lasted {@code durationNanos}. */
  private static ServeResult run(List<Spec> specs, long durationNanos) {
    List<Prompt> prompts = new ArrayList<>();
    List<RequestRecord> records = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      prompts.add(new Prompt("p" + i, 10, Math.max(1, specs.get(i).out())));
      records.add(record(i, specs.get(i)));
    }
    ServeBenchmark b = ServeBenchmark.builder()
        .client(ClientOptions.builder().baseUri(URI.create("http://127.0.0.1:9")).build())
        .backend(ServingBackend.VLLM).model("m").prompts(prompts).load(LoadModel.closed(4)).build();
    return new ServeResult(b, records, new long[specs.size()], 0, durationNanos, 1000.0,
        1000.0 + durationNanos / 1e9, 0, 0, b.client(), LatencyRecorder.totalsOf(records),
        new ClientStats(0, 0, 0, -1, durationNanos / 1e9), List.of());
  }

  private static MetricOptions slo(Map<String, Double> slo) {
    return MetricOptions.builder().goodput(slo).build();
  }

  /** The table's requests (D = 2 s); TPOT = (E2EL − TTFT)/(out − 1) written next to each. */
  private static final List<Spec> TABLE = List.of(
      new Spec(100, 400, 11, true),   // A: tpot 30
      new Spec(200, 600, 11, true),   // B: ttft exactly at the 200 ms SLO, tpot 40
      new Spec(201, 600, 11, true),   // C: ttft 1 ms over, tpot 39.9
      new Spec(100, 1000, 21, true),  // D: e2el exactly at the 1000 ms SLO, tpot 45
      new Spec(100, 1001, 101, true), // E: e2el 1 ms over, tpot 9.01
      new Spec(50, 700, 11, true),    // F: tpot 65
      new Spec(50, 700, 1, true),     // G: one token: no TPOT sample, counts as 0
      new Spec(10, 20, 5, false),     // H: failed: never good
      new Spec(150, 900, 2, true));   // I: tpot 750

  @Test
  void goodputCountsRequestsMeetingEverySloPerSecond() {
    ServeResult r = run(TABLE, 2_000 * MS);
    Map<String, Double> all = new LinkedHashMap<>();
    all.put("ttft", 200.0);
    all.put("tpot", 50.0);
    all.put("e2el", 1000.0);
    // good: A, B, D, G → 4 / 2 s
    assertThat(r.metrics(slo(all)).requestGoodput()).hasValue(2.0);
    // ttft only: all but C and the failed H → 7 / 2 s
    assertThat(r.metrics(slo(Map.of("ttft", 200.0))).requestGoodput()).hasValue(3.5);
    // tpot only: F (65) and I (750) miss, H failed → 6 / 2 s
    assertThat(r.metrics(slo(Map.of("tpot", 50.0))).requestGoodput()).hasValue(3.0);
    // e2el only: E misses, H failed → 7 / 2 s
    assertThat(r.metrics(slo(Map.of("e2el", 1000.0))).requestGoodput()).hasValue(3.5);
    // a zero SLO admits nothing here (every TTFT is positive)
    assertThat(r.metrics(slo(Map.of("ttft", 0.0))).requestGoodput()).hasValue(0.0);
    // no SLOs: no goodput at all (null in the raw file), not the throughput
    ServeMetrics none = r.metrics(MetricOptions.defaults());
    assertThat(none.requestGoodput()).isEmpty();
    assertThat(none.requestThroughput()).isEqualTo(8 / 2.0);
  }

  @Test
  void goodputLandsInTheRawFileAndTheSummary() {
    ServeResult r = run(TABLE, 2_000 * MS);
    MetricOptions mo = slo(Map.of("ttft", 200.0, "tpot", 50.0, "e2el", 1000.0));
    ServeMetrics m = r.metrics(mo);
    RawResult.Context ctx = new RawResult.Context("m", "builtin", Map.of(), false, Map.of());
    Map<String, Object> raw = RawResult.build(r, m, mo, ctx);
    assertThat(raw.get("request_goodput:")).isEqualTo(2.0);
    Map<String, Object> plain = RawResult.build(r, r.metrics(MetricOptions.defaults()),
        MetricOptions.defaults(), ctx);
    assertThat(plain).containsKey("request_goodput:");
    assertThat(plain.get("request_goodput:")).isNull();

    StringWriter out = new StringWriter();
    Summary.print(new PrintWriter(out), r, m, mo);
    assertThat(out.toString()).containsPattern("Request goodput \\(req/s\\):\\s+2\\.00");
    StringWriter out2 = new StringWriter();
    Summary.print(new PrintWriter(out2), r, r.metrics(MetricOptions.defaults()),
        MetricOptions.defaults());
    assertThat(out2.toString()).doesNotContain("goodput");
  }

  /** A second implementation of §5.2's goodput over the specs. */
  private static double expectedGoodput(List<Spec> specs, Map<String, Double> slo, double d) {
    int good = 0;
    for (Spec s : specs) {
      if (!s.ok()) {
        continue;
      }
      double ttft = s.ttftMs() / 1000.0;
      double e2el = s.e2elMs() / 1000.0;
      double tpot = s.out() > 1 ? (e2el - ttft) / (s.out() - 1) : 0;
      boolean ok = true;
      for (var e : slo.entrySet()) {
        double v = switch (e.getKey()) {
          case "ttft" -> ttft;
          case "tpot" -> tpot;
          default -> e2el;
        };
        ok &= v <= e.getValue() / 1000.0;
      }
      if (ok) {
        good++;
      }
    }
    return good / d;
  }

  @Test
  void goodputMatchesASecondImplementation() {
    // SLO values are at half-ms offsets so no value lands on a boundary (float noise aside)
    qt().withExamples(200).forAll(
            lists().of(integers().between(0, 10_000)).ofSizeBetween(1, 30),
            integers().between(0, 7), integers().between(0, 400), integers().between(1, 50))
        .checkAssert((seeds, which, sloMs, durationTenths) -> {
          List<Spec> specs = new ArrayList<>();
          for (int x : seeds) {
            int ttft = 1 + x % 300;
            int out = 1 + (x / 7) % 40;
            int e2el = ttft + (x / 3) % 900;
            specs.add(new Spec(ttft, e2el, out, x % 11 != 0));
          }
          Map<String, Double> slo = new LinkedHashMap<>();
          if ((which & 1) != 0) {
            slo.put("ttft", sloMs + 0.5);
          }
          if ((which & 2) != 0) {
            slo.put("tpot", sloMs / 10.0 + 0.05);
          }
          if ((which & 4) != 0) {
            slo.put("e2el", 2 * sloMs + 0.5);
          }
          long dNanos = durationTenths * 100 * MS;
          ServeMetrics m = run(specs, dNanos).metrics(slo(slo));
          if (slo.isEmpty()) {
            assertThat(m.requestGoodput()).isEmpty();
          } else {
            assertThat(m.requestGoodput().orElseThrow()).isCloseTo(
                expectedGoodput(specs, slo, dNanos / 1e9), within(1e-9));
          }
        });
  }

  @Test
  void goodputOfASimulatorRunAgreesWithItsRecords() throws Exception {
    List<Prompt> prompts = RandomDataset.generate(BuiltinTokenizer.instance(), 32, 16, 0.25, 0,
        30, 3);
    try (SimServer sim = SimServer.start(SimConfig.builder()
        .decodeStepBase(Duration.ofMillis(2)).build())) {
      ServeResult run = ServeBenchmark.builder()
          .client(ClientOptions.builder().baseUri(sim.baseUri())
              .deadlines(Deadlines.all(Duration.ofSeconds(30))).build())
          .backend(ServingBackend.VLLM).model("m").prompts(prompts).load(LoadModel.closed(4))
          .body(BodyOptions.builder().ignoreEos(true).build()).build().run();
      // SLOs at the run's own medians, so some requests pass and some do not
      List<Double> ttfts = new ArrayList<>();
      List<Double> e2els = new ArrayList<>();
      for (RequestRecord r : run.sentRecords()) {
        assertThat(r.success()).isTrue();
        ttfts.add((r.tokenChunkNanos(0) - r.sendNanos()) / 1e9);
        e2els.add((r.e2elEndNanos().getAsLong() - r.sendNanos()) / 1e9);
      }
      List<Double> st = new ArrayList<>(ttfts);
      st.sort(null);
      List<Double> se = new ArrayList<>(e2els);
      se.sort(null);
      double ttftSloMs = st.get(st.size() / 2) * 1000;
      double e2elSloMs = se.get(se.size() * 3 / 4) * 1000;
      int good = 0;
      for (int i = 0; i < ttfts.size(); i++) {
        if (ttfts.get(i) <= ttftSloMs / 1000 && e2els.get(i) <= e2elSloMs / 1000) {
          good++;
        }
      }
      assertThat(good).isBetween(1, ttfts.size() - 1);
      ServeMetrics m = run.metrics(slo(Map.of("ttft", ttftSloMs, "e2el", e2elSloMs)));
      assertThat(m.requestGoodput().orElseThrow())
          .isCloseTo(good / run.durationSeconds(), within(1e-9));
    }
  }

  @Test
  void invalidSlosAreUsageErrors() {
    assertThatThrownBy(() -> slo(Map.of("itl", 10.0))).isInstanceOf(UsageException.class)
        .hasMessageContaining("itl");
    assertThatThrownBy(() -> slo(Map.of("ttft", -1.0))).isInstanceOf(UsageException.class)
        .hasMessageContaining("non-negative");
    assertThatThrownBy(() -> slo(Map.of("e2el", Double.NaN))).isInstanceOf(UsageException.class);
  }
}
