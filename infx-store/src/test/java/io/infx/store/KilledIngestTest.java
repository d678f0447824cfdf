package io.infx.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed (SIGKILL) in the middle of an ingest transaction — its benchmark rows written,
 * not committed — leaves no partial run, on the embedded file and on PostgreSQL; the same input
 * then ingests completely.
 */
class KilledIngestTest {

  @TempDir Path tmp;

  @Test
  void embedded() throws Exception {
    killMidTransactionThenCheck(StoreLocation.embedded(tmp.resolve("store")).toString());
  }

  @Test
  void postgres() throws Exception {
    killMidTransactionThenCheck(TestPostgres.freshDatabase());
  }

  private void killMidTransactionThenCheck(String location) throws Exception {
    List<ObjectNode> rows = new ArrayList<>();
    for (int c = 1; c <= 300; c++) {
      rows.add(Fixtures.row("h200", "sglang", c, 1000 + c, "img:1"));
    }
    Path run = Fixtures.artifactDir(tmp.resolve("run"), LocalDate.of(2026, 11, 5), false, rows);
    // An earlier, committed run must survive untouched.
    try (ResultStore store = ResultStore.open(StoreLocation.parse(location))) {
      store.ingest(Fixtures.artifactDir(tmp.resolve("before"), LocalDate.of(2026, 11, 4), false,
          List.of(Fixtures.row("h100", "vllm", 4, 10, "img:0"))), IngestOptions.defaults());
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        KilledIngestChild.class.getName(), location, run.toString()).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      boolean written = false;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("WRITTEN")) {
          written = true;
          break;
        }
      }
      assertThat(written).as("the child reached the middle of its transaction").isTrue();
      child.destroyForcibly(); // SIGKILL: no shutdown hooks, no rollback by the client
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
    try (ResultStore store = ResultStore.open(StoreLocation.parse(location))) {
      assertThat(store.runs()).extracting(RunSummary::runId).doesNotContain("killed").hasSize(1);
      assertThat(store.verify(VerifyThresholds.none()).lines()).contains("rows benchmark_results 1", "rows configs 2", "rows eval_results 1");
      IngestReport r = store.ingest(run, IngestOptions.defaults().runId("killed"));
      assertThat(r.benchmarksInserted()).isEqualTo(300);
      assertThat(store.latestPoints(PointQuery.model("dsr1").hardware("h200"))).hasSize(300);
    }
  }
}
