package io.infx.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same inputs — an InferenceX-style artifact set (bmk_*, results_bmk, run-stats, evals with
 * samples, changelog, an append-only follow-up) and an infx run directory (run.json, bmk/, agentic
 * and simulated rows) — ingested into the embedded file and into PostgreSQL print identical
 * {@code infx db verify} reports, and a re-ingest changes neither.
 */
class CrossDatabaseVerifyTest {

  @TempDir Path tmp;

  private List<Path> inputs() throws Exception {
    List<Path> dirs = new ArrayList<>();
    List<ObjectNode> a = new ArrayList<>();
    for (int c : new int[] {4, 8, 16, 32}) {
      a.add(Fixtures.row("h200", "sglang", c, 900 + c, "lmsysorg/sglang:v0.5"));
      a.add(Fixtures.row("mi355x", "vllm", c, 800 + c, "rocm/vllm:v0.9"));
    }
    ObjectNode v2 = Fixtures.row("b200", "dynamo-trt", 64, 1500, "nvcr.io/trt:1");
    v2.remove(List.of("tp", "ep"));
    v2.put("is_multinode", true).put("disagg", true).put("prefill_tp", 4).put("prefill_ep", 4).put("prefill_num_workers", 2)
        .put("decode_tp", 8).put("decode_ep", 8).put("decode_num_workers", 1).put("num_prefill_gpu", 8).put("num_decode_gpu", 8)
        .put("power_valid", 0).put("avg_power_w", 500.0);
    a.add(v2);
    ObjectNode failed = Fixtures.row("h200", "sglang", 128, 0, "lmsysorg/sglang:v0.5");
    failed.put("num_requests_successful", 0).put("num_requests_total", 10);
    a.add(failed);
    Path run1 = Fixtures.artifactDir(tmp.resolve("inferencex-1"), LocalDate.of(2026, 11, 20), false, a);
    Path eval = run1.resolve("eval_dsr1_1k8k_h200");
    Files.createDirectories(eval);
    Files.writeString(eval.resolve("meta_env.json"), "{\"infmax_model_prefix\":\"dsr1\",\"hw\":\"h200-nv\","
        + "\"framework\":\"sglang\",\"precision\":\"fp8\",\"tp\":8,\"ep\":1,\"isl\":1024,\"osl\":8192,\"conc\":32}");
    Files.writeString(eval.resolve("results_2026.json"), "{\"lm_eval_version\":\"0.4.9\",\"results\":{\"gsm8k\":"
        + "{\"alias\":\"gsm8k\",\"exact_match,strict-match\":0.951,\"exact_match_stderr,strict-match\":0.006}},"
        + "\"n-samples\":{\"gsm8k\":{\"effective\":1319}}}");
    Files.writeString(eval.resolve("samples_gsm8k_2026.jsonl"), "{\"doc_id\":0,\"exact_match\":1}\n{\"doc_id\":1,\"exact_match\":0}\n");
    Fixtures.setDates(run1, LocalDate.of(2026, 11, 20));
    dirs.add(run1);
    dirs.add(Fixtures.artifactDir(tmp.resolve("inferencex-2"), LocalDate.of(2026, 11, 21), true,
        List.of(Fixtures.row("h200", "sglang", 64, 999, "lmsysorg/sglang:v0.5"))));

    Path infx = tmp.resolve("infx-run");
    Files.createDirectories(infx.resolve("bmk/bmk_x"));
    Files.createDirectories(infx.resolve("results_bmk"));
    Files.writeString(infx.resolve("run.json"), "{\"adapter\":\"local\",\"points\":[]}");
    ObjectNode sim = Fixtures.row("h100", "vllm", 2, 123.456, "infx-sim");
    sim.put("simulated", true).put("server_engine", "infx-sim").put("server_version", "0.1.0");
    ObjectNode agentic = Fixtures.row("h100", "vllm", 0, 55, "infx-sim");
    agentic.remove(List.of("isl", "osl", "conc"));
    agentic.put("scenario_type", "agentic-coding").put("users", 8).put("median_itl", 0.04).put("simulated", true);
    Files.writeString(infx.resolve("bmk/bmk_x/agg_x.json"), Json.pretty().writeValueAsString(sim));
    Files.writeString(infx.resolve("results_bmk/agg_bmk.json"), "[" + sim + "," + agentic + "]");
    Fixtures.setDates(infx, LocalDate.of(2026, 11, 22));
    dirs.add(infx);
    return dirs;
  }

  private List<String> ingestAndVerify(StoreLocation location, List<Path> dirs) {
    try (ResultStore store = ResultStore.open(location)) {
      for (Path d : dirs) {
        store.ingest(d, IngestOptions.defaults().allowSimulated(true));
      }
      List<String> first = store.verify(VerifyThresholds.none()).lines();
      for (Path d : dirs) {
        IngestReport again = store.ingest(d, IngestOptions.defaults().allowSimulated(true));
        assertThat(again.benchmarksInserted()).isZero();
        assertThat(again.benchmarksUpdated()).isZero();
      }
      assertThat(store.verify(VerifyThresholds.none()).lines()).isEqualTo(first);
      return first;
    }
  }

  @Test
  void embeddedAndPostgresPrintTheSameVerifyReport() throws Exception {
    List<Path> dirs = inputs();
    List<String> embedded = ingestAndVerify(StoreLocation.embedded(tmp.resolve("store")), dirs);
    List<String> postgres = ingestAndVerify(StoreLocation.postgres(TestPostgres.freshDatabase()), dirs);
    assertThat(postgres).isEqualTo(embedded);
    assertThat(embedded).contains("rows workflow_runs 3", "rows eval_results 3", "rows eval_samples 2",
        "benchmarks success 12 error 0 simulated 2", "isl_osl 1024/1024=11 agentic=1",
        "distinct hardware b200=1 h100=2 h200=5 mi355x=4", "rows changelog_entries 1");
  }
}
