package io.infx.fleet.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.internal.Cli;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.LaunchResult;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.JobState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx fleet launch --adapter slurm} end to end against the real local Slurm. */
@ExtendWith(LocalSlurm.class)
class SlurmLaunchTest {

  @TempDir Path out;
  private final String runner = LocalSlurm.PREFIX + "-" + UUID.randomUUID().toString().substring(0, 6) + "_3";

  private FleetLauncher.Builder launch() {
    return FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of(runner))
        .adapter("slurm").workspace(out).client(ClientSettings.builder().numPrompts(8).build());
  }

  @Test
  void simulatorAndClientRunAsASlurmJobAndLeaveTheResultUnderTheExactName() throws Exception {
    LaunchResult r = launch().launch();
    String rf = "qwen3_1k0k_bf16_vllm_tp1-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc2_" + runner;
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(r.status().raw()).isEqualTo("COMPLETED|0:0");
    assertThat(r.rawFile()).hasValue(out.resolve(rf + ".json"));
    assertThat(r.aggregateFile()).hasValue(out.resolve("agg_" + rf + ".json"));
    assertThat(Json.mapper().readTree(out.resolve(rf + ".json").toFile()).get("completed").asInt()).isEqualTo(8);
    JsonNode ev = Json.mapper().readTree(out.resolve("job_event.json").toFile());
    assertThat(ev.get("identity").get("slurm_job_id").asText()).matches("[0-9]+");
    assertThat(ev.get("identity").get("nodes").asText()).isEqualTo(LocalSlurm.node());
    assertThat(out.resolve("slurm_job.log")).content().contains("infx simulator serving Qwen/Qwen3-0.6B");
    JsonNode step = Json.mapper().readTree(out.resolve("job_step_event.json").toFile());
    assertThat(step.get("outcome").asText()).isEqualTo("succeeded");
  }

  @Test
  void theClusterRecordRoutesTheRunnerAndSuppliesPartitionAndEnvironment() throws Exception {
    java.nio.file.Path inv = out.resolve("runners.yaml");
    java.nio.file.Files.writeString(inv, """
        labels:
          cpu: [%1$s]
          cluster:local-test: [%1$s]
        clusters:
          local-test:
            gpus-per-node: 8
            arch: x86_64
            env: {INFX_CLUSTER_NOTE: "from the cluster record"}
            scheduler: slurm
            slurm: {partition: debug, exclusive: false}
        """.formatted(runner));
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of(runner))
        .inventory(io.infx.matrix.runners.RunnerInventory.load(inv)).workspace(out)
        .client(ClientSettings.builder().numPrompts(4).build()).launch();
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    JsonNode ev = Json.mapper().readTree(out.resolve("job_event.json").toFile());
    assertThat(ev.get("identity").get("adapter").asText()).isEqualTo("slurm");
    assertThat(ev.get("identity").get("cluster").asText()).isEqualTo("local-test");
    assertThat(ev.get("identity").get("routing").asText()).isEqualTo("cluster:local-test → scheduler slurm");
    assertThat(out.resolve("launch.env")).content().contains("INFX_CLUSTER_NOTE=from the cluster record\n");
    String id = ev.get("identity").get("slurm_job_id").asText();
    assertThat(Cli.run(List.of("scontrol", "show", "job", "-o", id), Map.of(), Duration.ofSeconds(30)).stdout())
        .contains("Partition=debug");
  }

  @Test
  void allocModeRunsThePointInASallocAllocation() {
    LaunchResult r = launch().options(AdapterOptions.of(Map.of("slurm.mode", "alloc", "slurm.gpus", "1"))).launch();
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    assertThat(r.aggregateFile()).isPresent();
  }

  @Test
  void aFailingServerInsideTheJobFailsTheLaunchWithTheStepsReason() throws Exception {
    LaunchResult r = launch().server(new ServerSpec.Command("echo boom; exit 3")).launch();
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.status().state()).isEqualTo(JobState.FAILED);
    assertThat(r.status().raw()).isEqualTo("FAILED|1:0");
    JsonNode step = Json.mapper().readTree(out.resolve("job_step_event.json").toFile());
    assertThat(step.get("error").get("type").asText()).isEqualTo("server");
    assertThat(step.get("error").get("message").asText()).contains("exited with code 3");
  }

  @Test
  void cancellingTheJobFromOutsideEndsTheLaunchAsCancelled() throws Exception {
    CompletableFuture<LaunchResult> f = CompletableFuture.supplyAsync(() ->
        launch().server(new ServerSpec.Command("echo " + LocalSlurm.MARKER + "; while true; do sleep 1; done"))
            .launch());
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (LocalSlurm.ourJobs().stream().noneMatch(j -> j.contains(runner) && j.endsWith("RUNNING"))) {
      assertThat(System.nanoTime()).as("job running within 60 s").isLessThan(deadline);
      Thread.sleep(200);
    }
    Cli.run(List.of("scancel", "--name=" + runner), Map.of(), Duration.ofSeconds(30));
    LaunchResult r = f.get();
    assertThat(r.status().state()).isEqualTo(JobState.CANCELLED);
    assertThat(r.exitCode()).isEqualTo(130);
    assertThat(out.resolve("job_event.json")).content().contains("\"outcome\" : \"cancelled\"");
  }
}
