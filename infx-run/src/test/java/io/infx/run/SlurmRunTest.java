package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code infx run --adapter slurm} against the real local Slurm of {@code shared/slurm} (started by
 * {@code .ci/run}): every point is one Slurm job running the simulator and the client on the node.
 * Skips when no Slurm answers, unless {@code INFX_REQUIRE_SLURM=1}.
 */
class SlurmRunTest {

  @TempDir Path tmp;

  @BeforeAll
  static void slurm() throws Exception {
    boolean up;
    try {
      Process p = new ProcessBuilder("sinfo", "-h").redirectErrorStream(true).start();
      up = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
      p.destroyForcibly();
    } catch (java.io.IOException e) {
      up = false;
    }
    if ("1".equals(System.getenv("INFX_REQUIRE_SLURM"))) {
      assertThat(up).as("INFX_REQUIRE_SLURM=1 but no Slurm answers `sinfo`").isTrue();
    }
    assumeTrue(up, "no local Slurm (start shared/slurm/start-local-slurm.sh); skipping infx run --adapter slurm");
  }

  @Test
  void eachPointIsASlurmJobLaunchedThroughTheFleet() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 256, 16, "[1, 2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    String runner = "infx-it-run-" + UUID.randomUUID().toString().substring(0, 6) + "_0";

    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .adapter("slurm").runner(runner).promptsPerConc(3).build()).run(RunListener.NONE);

    assertThat(out.points()).hasSize(2).allSatisfy(o ->
        assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED));
    for (PointOutcome o : out.points()) {
      Path work = out.layout().pointDir(o.point().resultFilename());
      assertThat(o.point().resultFilename()).endsWith("_" + runner);
      JsonNode event = Json.mapper().readTree(work.resolve("job_event.json").toFile());
      assertThat(event.get("identity").get("adapter").asText()).isEqualTo("slurm");
      assertThat(event.get("identity").get("slurm_job_id").asText()).matches("[0-9]+");
      JsonNode raw = Json.mapper().readTree(work.resolve(o.point().resultFilename() + ".json").toFile());
      int conc = o.point().conc().get(0);
      assertThat(raw.get("completed").asInt()).isEqualTo(3 * conc);
      assertThat(raw.get("max_concurrency").asInt()).isEqualTo(conc);
    }
    JsonNode rows = Json.mapper().readTree(out.layout().collectedFile().toFile());
    assertThat(rows).hasSize(2);
    assertThat(rows).extracting(r -> r.get("conc").asInt()).containsExactly(1, 2);
    assertThat(out.report()).isPresent();
    // every job ended: nothing of ours is left in the queue
    Process q = new ProcessBuilder("squeue", "-h", "-n", runner, "-o", "%i").redirectErrorStream(true).start();
    assertThat(q.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(q.getInputStream().readAllBytes()).strip()).isEmpty();
  }
}
