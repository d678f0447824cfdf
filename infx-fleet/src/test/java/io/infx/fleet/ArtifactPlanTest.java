package io.infx.fleet;

import io.infx.matrix.MatrixRow;
import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.ArtifactPlan.IfMissing;
import io.infx.fleet.ArtifactPlan.UploadWhen;
import org.junit.jupiter.api.Test;

/** Artifact names and conditions as listed in fleet spec §9. */
class ArtifactPlanTest {

  private static ArtifactPlan plan(String file, int index) {
    MatrixRow row = TestRows.of(SharedCorpus.matrixRow(file, index));
    return ArtifactPlan.of(row, "RF");
  }

  @Test
  void singleNodeThroughputRow() {
    ArtifactPlan p = plan("changelog/001-single-node-fixed/expected.json", 0);
    assertThat(p.names()).containsExactly("bmk_RF", "server_logs_RF", "gpu_metrics_RF", "power_audit_RF",
        "job_event_RF");
    assertThat(p.artifact("bmk_RF").orElseThrow().paths()).containsExactly("agg_RF.json");
    assertThat(p.artifact("bmk_RF").orElseThrow().when()).isEqualTo(UploadWhen.ON_SUCCESS);
    assertThat(p.artifact("server_logs_RF").orElseThrow().when()).isEqualTo(UploadWhen.ALWAYS);
    assertThat(p.artifact("server_logs_RF").orElseThrow().paths())
        .containsExactly("server.log", "results/*.log", "results/*_config.json");
  }

  @Test
  void singleNodeEvalOnlyRowUsesEvalPrefixesAndRequiresEvalFiles() {
    ArtifactPlan p = plan("cases/002-all-evals-both-files/expected.json", 54);
    assertThat(p.names()).containsExactly("eval_dsr1_8k1k_RF", "eval_server_logs_RF", "eval_gpu_metrics_RF",
        "job_event_RF");
    assertThat(p.artifact("eval_dsr1_8k1k_RF").orElseThrow().ifMissing()).isEqualTo(IfMissing.ERROR);
  }

  @Test
  void singleNodeAgenticRow() {
    ArtifactPlan p = plan("cases/002-all-evals-both-files/expected.json", 77); // eval-only agentic
    assertThat(p.names()).containsExactly("bmk_agentic_RF", "agentic_RF", "eval_dsr1_8k1k_RF".replace(
        "dsr1_8k1k", "dsv4_tp8_conc8_kvdram-hicache_spec-draft_model"), "eval_server_logs_RF",
        "eval_gpu_metrics_RF", "job_event_RF");
    assertThat(p.artifact("agentic_RF").orElseThrow().excludes())
        .containsExactly("**/aiperf_artifacts/inputs.json", "**/profile_export_raw.jsonl");
  }

  @Test
  void multiNodeThroughputRow() {
    ArtifactPlan p = plan("cases/214-multinode-node-count/expected.json", 2);
    assertThat(p.names()).containsExactly("bmk_RF", "multinode_server_logs_RF", "power_audit_RF", "job_event_RF");
    assertThat(p.artifact("bmk_RF").orElseThrow().paths()).containsExactly("agg_RF_*.json");
    assertThat(p.artifact("power_audit_RF").orElseThrow().paths()).contains("LOGS/power/**", "LOGS/*/results_*.json");
  }

  @Test
  void multiNodeAgenticEvalRowHasNoThroughputArtifact() {
    ArtifactPlan p = plan("cases/002-all-evals-both-files/expected.json", 284);
    assertThat(p.names()).containsExactly("agentic_RF", "eval_RF", "multinode_server_logs_RF", "job_event_RF");
    assertThat(p.artifact("agentic_RF").orElseThrow().paths()).containsExactly("LOGS/agentic/**");
  }

  @Test
  void planSerializesToJson() {
    ArtifactPlan p = plan("changelog/001-single-node-fixed/expected.json", 0);
    assertThat(p.toJson().toString()).startsWith("{\"result_filename\":\"RF\",\"artifacts\":[{\"name\":\"bmk_RF\","
        + "\"paths\":[\"agg_RF.json\"],\"when\":\"on_success\",\"if_missing\":\"error\"}");
  }
}
