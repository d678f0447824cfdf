package io.infx.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's behaviour, run against each database (embedded H2 file, PostgreSQL): ingest counts,
 * idempotent re-ingest, the latest view's append-only chaining, simulated rows, concurrent ingests.
 */
abstract class StoreContract {

  @TempDir
  Path tmp;

  /** A fresh, empty store. */
  abstract StoreLocation freshStore() throws Exception;

  static final LocalDate D1 = LocalDate.of(2026, 11, 1);
  static final LocalDate D2 = LocalDate.of(2026, 11, 2);
  static final LocalDate D3 = LocalDate.of(2026, 11, 3);

  static List<ObjectNode> rows(String framework, int... concs) {
    List<ObjectNode> l = new ArrayList<>();
    for (int c : concs) {
      l.add(Fixtures.row("h200", framework, c, 1000.0 + c, "lmsysorg/sglang:v0.5"));
    }
    return l;
  }

  @Test
  void ingestCountsRowsOnceAndReingestChangesNothing() throws Exception {
    Path run = Fixtures.artifactDir(tmp.resolve("run1"), D1, false, rows("sglang", 4, 8, 16));
    try (ResultStore store = ResultStore.open(freshStore())) {
      IngestReport first = store.ingest(run, IngestOptions.defaults());
      // Each point arrives twice (bmk_* and results_bmk): the batch keeps one per natural key.
      assertThat(first.benchmarksInserted()).isEqualTo(3);
      assertThat(first.benchmarksDuplicate()).isZero();
      assertThat(first.newRun()).isTrue();
      assertThat(first.runStats()).isEqualTo(1);
      assertThat(first.evalsInserted()).isEqualTo(1);
      assertThat(first.date()).isEqualTo(D1);
      String before = String.join("\n", store.verify(VerifyThresholds.none()).lines());

      IngestReport again = store.ingest(run, IngestOptions.defaults());
      assertThat(again.newRun()).isFalse();
      assertThat(again.benchmarksInserted()).isZero();
      assertThat(again.benchmarksDuplicate()).isEqualTo(3);
      assertThat(again.benchmarksUpdated()).isZero();
      assertThat(again.evalsInserted()).isZero();
      assertThat(again.runId()).isEqualTo(first.runId());
      assertThat(String.join("\n", store.verify(VerifyThresholds.none()).lines())).isEqualTo(before);

      List<LatestPoint> latest = store.latestPoints(PointQuery.model("dsr1").islOsl(1024, 1024));
      assertThat(latest).extracting(LatestPoint::conc).containsExactly(4, 8, 16);
      assertThat(latest.get(0).config().hardware()).isEqualTo("h200");
      assertThat(latest.get(0).config().numPrefillGpu()).isEqualTo(8);
      assertThat(latest.get(0).metric("tput_per_gpu")).hasValue(1004.0);
      assertThat(latest.get(0).image()).isEqualTo("lmsysorg/sglang:v0.5");
      assertThat(store.runs()).singleElement().satisfies(r -> {
        assertThat(r.benchmarkRows()).isEqualTo(3);
        assertThat(r.evalRows()).isEqualTo(1);
      });
    }
  }

  /** InferenceX-app's own ingest fixture (gpu-metrics-ingest.test.ts), duplicate last flush included. */
  static final String NVIDIA_CSV = String.join("\n",
      "timestamp, index, power.draw [W], temperature.gpu, clocks.current.sm [MHz], clocks.current.memory [MHz], "
          + "utilization.gpu [%], utilization.memory [%]",
      "2026/09/11 04:19:41.982, 0, 187.80 W, 33, 120 MHz, 3996 MHz, 0 %, 0 %",
      "2026/09/11 04:19:41.986, 1, 190.96 W, 39, 120 MHz, 3996 MHz, 0 %, 0 %",
      "2026/09/11 04:19:42.990, 0, 912.10 W, 61, 1965 MHz, 3996 MHz, 98 %, 74 %",
      "2026/09/11 04:19:42.994, 1, 905.30 W, 62, 1965 MHz, 3996 MHz, 97 %, 73 %",
      "2026/09/11 04:19:42.994, 1, 905.30 W, 62, 1965 MHz, 3996 MHz, 97 %, 73 %");

  @Test
  void telemetryIsStoredInTheAppsShapeLinkedToItsPointAndReingestWritesNothing() throws Exception {
    List<ObjectNode> rows = rows("sglang", 4, 8);
    rows.get(0).put("power_metric_schema_version", 2).put("power_valid", 1).put("avg_power_w", 410.5)
        .put("p75_power_w", 450.0).put("p90_power_w", 475.25).put("total_gpu_energy_j", 123456.789)
        .put("joules_per_output_token", 0.25).put("joules_per_successful_query", 100.0);
    rows.get(0).putArray("telemetry_flags").add("server_count_mismatch");
    Path run = Fixtures.artifactDir(tmp.resolve("tel"), D1, false, rows);
    Path gpu = run.resolve("gpu_metrics_dsr1_1k1k_h200-nv_sglang_conc4");
    java.nio.file.Files.createDirectories(gpu);
    java.nio.file.Files.writeString(gpu.resolve("gpu_metrics.csv"), NVIDIA_CSV);
    java.nio.file.Files.writeString(gpu.resolve("gpu_metrics_context.json"), "{\"timestamp_timezone\":\"UTC\"}");
    java.nio.file.Files.writeString(gpu.resolve("gpu_metrics_identity.csv"), "index, uuid, name\n0, GPU-a, NVIDIA B200\n1, GPU-b, NVIDIA B200\n");
    Path srv = run.resolve("server_metrics_dsr1_1k1k_h200-nv_sglang_conc4");
    java.nio.file.Files.createDirectories(srv);
    java.io.StringWriter text = new java.io.StringWriter();
    try (io.infx.client.telemetry.ServerMetricsLog log = io.infx.client.telemetry.ServerMetricsLog.to(text,
        List.of("http://127.0.0.1:1/metrics"), 1000)) {
      String gen = "sglang:generation_tokens_total";
      String queue = "sglang:num_queue_reqs";
      long t = 1_789_000_000_000L;
      log.scrape(scrape(t, gen, 5, queue, 0), null);          // warm-up: not in the window
      log.scrape(scrape(t + 1000, gen, 10, queue, 1), "start");
      log.scrape(scrape(t + 2000, gen, 60, queue, 7), null);
      log.scrape(scrape(t + 3000, gen, 110, queue, 2), "end");
    }
    java.nio.file.Files.writeString(srv.resolve("server_metrics.jsonl"), text.toString());
    Fixtures.setDates(run, D1);
    try (ResultStore store = ResultStore.open(freshStore())) {
      IngestReport first = store.ingest(run, IngestOptions.defaults());
      assertThat(first.telemetrySamples()).isEqualTo(4 + 2 * 4); // 4 GPU samples, 2 sampled server series × 4 scrapes
      LatestPoint p4 = store.latestPoints(PointQuery.model("dsr1").conc(4)).get(0);
      assertThat(p4.power()).hasValueSatisfying(pw -> {
        assertThat(pw.avgPowerW()).isEqualTo(410.5);
        assertThat(pw.p90PowerW()).hasValue(475.25);
        assertThat(pw.tokensPerJoule()).isEqualTo(4.0);
      });
      PointTelemetry t = store.telemetry(p4.id());
      assertThat(t.flags()).containsExactly("server_count_mismatch");
      assertThat(t.gpuSeries()).singleElement().satisfies(g -> {
        assertThat(g.configKey()).isEqualTo("dsr1_1k1k_h200-nv_sglang_conc4");
        assertThat(g.vendor()).isEqualTo("nvidia");
        assertThat(g.source()).isEqualTo("nvidia-smi");
        assertThat(g.sampleCount()).isEqualTo(4);
        assertThat(g.gpuCount()).isEqualTo(2);
        assertThat(g.startedAt()).isEqualTo(java.time.Instant.parse("2026-09-11T04:19:41.982Z"));
        assertThat(g.endedAt()).isEqualTo(java.time.Instant.parse("2026-09-11T04:19:42.994Z"));
        assertThat(g.sampleIntervalS().getAsDouble()).isCloseTo(1.008, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(g.stats()).filteredOn(s -> s.metric().equals("power_w"))
            .extracting(GpuMetricStat::gpuIndex, GpuMetricStat::sampleCount, GpuMetricStat::max)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 2, 912.1), org.assertj.core.groups.Tuple.tuple(1, 2, 905.3));
        assertThat(store.gpuSamples(g.id())).extracting(GpuMetricSample::gpuIndex, GpuMetricSample::powerW)
            .containsExactly(org.assertj.core.groups.Tuple.tuple(0, 187.8), org.assertj.core.groups.Tuple.tuple(1, 190.96),
                org.assertj.core.groups.Tuple.tuple(0, 912.1), org.assertj.core.groups.Tuple.tuple(1, 905.3));
      });
      assertThat(t.serverSeries()).filteredOn(s -> s.metric().equals("sglang:generation_tokens_total"))
          .singleElement().satisfies(s -> {
            assertThat(s.kind()).isEqualTo("counter");
            assertThat(s.quantity()).isEqualTo("generation_tokens");
            assertThat(s.delta()).isEqualTo(100.0); // 110 at the end boundary - 10 at the start (warm-up's 5 excluded)
            assertThat(store.serverSamples(s.id())).extracting(ServerMetricSample::inWindow)
                .containsExactly(false, true, true, true);
          });
      assertThat(t.serverSeries()).filteredOn(s -> s.metric().equals("sglang:num_queue_reqs"))
          .singleElement().satisfies(s -> {
            assertThat(s.max()).isEqualTo(7.0);
            assertThat(s.mean()).isEqualTo(10.0 / 3);
          });
      LatestPoint p8 = store.latestPoints(PointQuery.model("dsr1").conc(8)).get(0);
      assertThat(store.telemetry(p8.id()).gpuSeries()).isEmpty();
      assertThat(p8.power()).isEmpty();

      IngestReport again = store.ingest(run, IngestOptions.defaults());
      assertThat(again.telemetrySeries()).isZero();
      assertThat(again.telemetrySamples()).isZero();
      assertThat(store.telemetry(p4.id()).gpuSeries()).hasSize(1);
    }
  }

  private static io.infx.client.telemetry.ServerMetricsLog.Scrape scrape(long t, String counter, double c,
      String gauge, double g) {
    return new io.infx.client.telemetry.ServerMetricsLog.Scrape(t, 0,
        io.infx.client.telemetry.ServerMetricNames.Engine.SGLANG, java.util.Map.of(counter, c), java.util.Map.of(gauge, g));
  }

  @Test
  void latestViewChainsAppendOnlyRunsAndNewestRunWinsEachPoint() throws Exception {
    try (ResultStore store = ResultStore.open(freshStore())) {
      store.ingest(Fixtures.artifactDir(tmp.resolve("a"), D1, false, rows("sglang", 4, 8)), IngestOptions.defaults().runId("100"));
      List<ObjectNode> b = rows("sglang", 8, 16);
      b.get(0).put("tput_per_gpu", 2222.0);
      store.ingest(Fixtures.artifactDir(tmp.resolve("b"), D2, true, b), IngestOptions.defaults().runId("200"));
      // B extends A's snapshot: conc 4 from A, conc 8 and 16 from B (newest run wins a shared point).
      List<LatestPoint> chained = store.latestPoints(PointQuery.model("dsr1"));
      assertThat(chained).extracting(LatestPoint::conc).containsExactly(4, 8, 16);
      assertThat(chained).extracting(LatestPoint::runId).containsExactly("100", "200", "200");
      assertThat(chained.get(1).metric("tput_per_gpu")).hasValue(2222.0);

      // A full (not append-only) run replaces the snapshot.
      store.ingest(Fixtures.artifactDir(tmp.resolve("c"), D3, false, rows("sglang", 32)), IngestOptions.defaults().runId("300"));
      assertThat(store.latestPoints(PointQuery.model("dsr1"))).extracting(LatestPoint::conc).containsExactly(32);
      // History keeps every run's value.
      List<HistoryEntry> h = store.history(PointQuery.model("dsr1").conc(8), "tput_per_gpu");
      assertThat(h).extracting(HistoryEntry::runId).containsExactly("100", "200");
      assertThat(h).extracting(HistoryEntry::value).containsExactly(1008.0, 2222.0);
      assertThat(h).extracting(HistoryEntry::latest).containsExactly(false, false);
    }
  }

  @Test
  void simulatedRowsAreRefusedUnlessAllowedThenFlaggedAndKeptOutOfLatest() throws Exception {
    List<ObjectNode> sim = rows("sglang", 4);
    sim.get(0).put("simulated", true).put("server_engine", "infx-sim").put("server_version", "0.1.0");
    Path run = Fixtures.artifactDir(tmp.resolve("sim"), D1, false, sim);
    try (ResultStore store = ResultStore.open(freshStore())) {
      assertThatThrownBy(() -> store.ingest(run, IngestOptions.defaults()))
          .isInstanceOf(StoreException.class).hasMessageContaining("simulated").hasMessageContaining("pass allowSimulated");
      assertThat(store.runs()).isEmpty();
      IngestReport r = store.ingest(run, IngestOptions.defaults().allowSimulated(true));
      assertThat(r.benchmarksInserted()).isEqualTo(1);
      assertThat(r.simulatedRows()).isEqualTo(1);
      assertThat(store.latestPoints(PointQuery.model("dsr1"))).isEmpty();
      List<HistoryEntry> h = store.history(PointQuery.model("dsr1"), "tput_per_gpu");
      assertThat(h).singleElement().satisfies(e -> assertThat(e.simulated()).isTrue());
      assertThat(store.verify(VerifyThresholds.none()).lines()).contains("benchmarks success 1 error 0 simulated 1");
    }
  }

  @Test
  void twoConcurrentIngestsOfDifferentRunsLoseNothing() throws Exception {
    Path a = Fixtures.artifactDir(tmp.resolve("ca"), D1, false, rows("sglang", 1, 2, 4, 8, 16, 32, 64));
    Path b = Fixtures.artifactDir(tmp.resolve("cb"), D2, false, rows("vllm", 1, 2, 4, 8, 16, 32, 64, 128));
    try (ResultStore store = ResultStore.open(freshStore())) {
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Future<IngestReport> fa = pool.submit(() -> store.ingest(a, IngestOptions.defaults()));
        Future<IngestReport> fb = pool.submit(() -> store.ingest(b, IngestOptions.defaults()));
        assertThat(fa.get().benchmarksInserted()).isEqualTo(7);
        assertThat(fb.get().benchmarksInserted()).isEqualTo(8);
      } finally {
        pool.shutdown();
      }
      assertThat(store.runs()).hasSize(2);
      assertThat(store.latestPoints(PointQuery.model("dsr1"))).hasSize(15);
      assertThat(store.verify(VerifyThresholds.none()).lines()).contains("rows benchmark_results 15", "rows configs 2");
    }
  }

  @Test
  void verifyThresholdsCanFail() throws Exception {
    List<ObjectNode> r = rows("sglang", 4, 8);
    r.get(0).remove("median_intvty");
    Path run = Fixtures.artifactDir(tmp.resolve("v"), D1, false, r);
    try (ResultStore store = ResultStore.open(freshStore())) {
      store.ingest(run, IngestOptions.defaults());
      VerifyReport ok = store.verify(new VerifyThresholds(2, 0.5, 0));
      assertThat(ok.passed()).isTrue();
      VerifyReport bad = store.verify(new VerifyThresholds(3, 0.9, 0));
      assertThat(bad.failures()).containsExactly("coverage of median_intvty is 50.0%, below 90.0%",
          "successful benchmark rows 2 < 3");
    }
  }
}
