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
