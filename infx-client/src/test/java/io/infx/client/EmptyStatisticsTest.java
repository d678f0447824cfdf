package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.dataset.Prompt;
import io.infx.client.load.LoadModel;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A statistic without samples: empty in the Java API, 0.0 in the raw file and the summary, as the
 * reference writes it (client spec §5.3: the empty list is replaced by the scalar 0).
 */
class EmptyStatisticsTest {

  private static final long MS = 1_000_000;

  private static ServeResult run(List<RequestRecord> records) {
    List<Prompt> prompts = new ArrayList<>();
    for (int i = 0; i < records.size(); i++) {
      prompts.add(new Prompt("p" + i, 10, 1));
    }
    ServeBenchmark b = ServeBenchmark.builder()
        .client(ClientOptions.builder().baseUri(URI.create("http://127.0.0.1:9")).build())
        .backend(ServingBackend.VLLM).model("m").prompts(prompts).load(LoadModel.closed(1))
        .build();
    return new ServeResult(b, records, new long[records.size()], 0, 1_000 * MS, 1000.0, 1001.0, 0,
        0, b.client(), LatencyRecorder.totalsOf(records), new ClientStats(0, 0, 0, -1, 1),
        List.of());
  }

  /** One output token in one chunk at {@code ttftMs}: a TTFT and an E2EL, but no TPOT, no ITL. */
  private static RequestRecord oneToken(int i, long ttftMs) {
    long send = i * 100 * MS;
    long first = send + ttftMs * MS;
    return RequestRecord.builder().index(i).sendNanos(send).intendedNanos(send)
        .tokenChunkNanos(first).firstChoicesNanos(first).e2elEndNanos(first).endNanos(first)
        .outputTokens(1, TokenSource.USAGE).promptTokens(10).status(200).doneSeen(true).build();
  }

  @Test
  void noRequestWithMoreThanOneTokenLeavesTpotEmptyButWritesTheReferenceZeros() {
    ServeResult run = run(List.of(oneToken(0, 20), oneToken(1, 40)));
    ServeMetrics m = run.metrics(MetricOptions.defaults());
    assertThat(m.tpot().isEmpty()).isTrue();
    assertThat(m.tpot().medianMillis()).isEmpty();
    assertThat(m.itl().isEmpty()).isTrue();
    assertThat(m.ttft().medianMillis()).hasValue(30.0);
    assertThat(run.tpotHistogram().getTotalCount()).isZero();

    Map<String, Object> raw = RawResult.build(run, m, MetricOptions.defaults(),
        new RawResult.Context("m", "builtin", Map.of(), false, Map.of()));
    for (String k : List.of("mean_tpot_ms", "median_tpot_ms", "std_tpot_ms", "p99_tpot_ms",
        "mean_itl_ms", "p99.9_itl_ms")) {
      assertThat(raw).containsEntry(k, 0.0);
    }
    assertThat(raw).containsEntry("median_ttft_ms", 30.0);

    java.io.StringWriter out = new java.io.StringWriter();
    Summary.print(new java.io.PrintWriter(out), run, m, MetricOptions.defaults());
    assertThat(out.toString()).containsPattern("Median TPOT \\(ms\\): +0\\.00");
  }

  @Test
  void allFailedLeavesEveryLatencyEmpty() {
    RequestRecord failed = RequestRecord.builder().sendNanos(0).intendedNanos(0).endNanos(MS)
        .failure(new RequestFailure(FailureClass.HTTP_5XX, "boom", 500, "")).status(500).build();
    ServeResult run = run(List.of(failed));
    ServeMetrics m = run.metrics(MetricOptions.defaults());
    assertThat(List.of(m.ttft(), m.tpot(), m.itl(), m.e2el()))
        .allSatisfy(s -> assertThat(s.isEmpty()).isTrue());
    assertThat(m.e2el().percentile(99)).isEmpty();
    assertThat(m.toString()).contains("completed=0/1, failed=1").contains("ttft=LatencyStats{n=0}");
    Map<String, Object> raw = RawResult.build(run, m, MetricOptions.defaults(),
        new RawResult.Context("m", "builtin", Map.of(), false, Map.of()));
    assertThat(raw).containsEntry("mean_ttft_ms", 0.0).containsEntry("p99_e2el_ms", 0.0);
  }
}
