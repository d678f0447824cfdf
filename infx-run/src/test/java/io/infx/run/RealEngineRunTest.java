package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/configs/llamacpp.yaml with its recipe, end to end on a real engine (shared/realserver's
 * llama-server), on the local adapter and on the local Slurm. Skips with a message when the real
 * server (or Slurm) is absent.
 */
class RealEngineRunTest {

  @TempDir Path tmp;

  private static Path realserver() {
    String shared = System.getenv("INFX_SHARED");
    Path dir = (shared != null && !shared.isBlank() ? Path.of(shared)
        : Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize().resolveSibling("shared"))
        .resolve("realserver");
    assumeTrue(Files.isExecutable(dir.resolve("bin/llama-server")),
        "no real llama-server at " + dir + "/bin (set INFX_SHARED); skipping the real-engine run");
    return dir;
  }

  /** The example config and its recipe, with the realserver fallback pointed at the found directory. */
  private Path example(Path realserver) throws Exception {
    Path examples = TestConfigs.examples();
    Path cfg = Files.copy(examples.resolve("llamacpp.yaml"), tmp.resolve("llamacpp.yaml"));
    String recipe = Files.readString(examples.resolve("llamacpp.recipes.yaml"))
        .replace("${INVOCATION_DIR}/../shared/realserver", realserver.toString());
    assertThat(recipe).contains(realserver.toString());
    Files.writeString(tmp.resolve("llamacpp.recipes.yaml"), recipe);
    Files.copy(examples.resolve("runners.yaml"), tmp.resolve("runners.yaml"));
    return cfg;
  }

  private void assertRealRows(RunOutcome out, int points) throws Exception {
    assertThat(out.points()).hasSize(points).allSatisfy(o ->
        assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED));
    JsonNode rows = Json.mapper().readTree(out.layout().collectedFile().toFile());
    assertThat(rows).hasSize(points).allSatisfy(r -> {
      assertThat(r.get("server_engine").asText()).isEqualTo("llama.cpp");
      assertThat(r.get("simulated").isBoolean()).isTrue();
      assertThat(r.get("simulated").asBoolean()).isFalse();
      assertThat(r.get("hw").asText()).isEqualTo("cpu");
    });
    for (PointOutcome o : out.points()) {
      Path work = out.layout().pointDir(o.point().resultFilename());
      JsonNode raw = Json.mapper().readTree(work.resolve(o.point().resultFilename() + ".json").toFile());
      int conc = o.point().conc().get(0);
      assertThat(raw.get("completed").asInt()).isEqualTo(2 * conc);   // no request lost on llama-server
      assertThat(work.resolve("server.log")).content().contains("llama");
    }
    assertThat(Files.readString(out.report().orElseThrow().html())).contains("· llama.cpp")
        .doesNotContain("SIMULATED:");
  }

  @Test
  void theLlamaCppExampleRunsOnTheLocalAdapterWithTwoPointsInFlight() throws Exception {
    Path cfg = example(realserver());
    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .selection(Selection.parse(List.of("--config-keys", "llamacpp-tiny-cpu", "--conc", "1", "2")))
        .maxParallel(2).promptsPerConc(2).build()).run(RunListener.NONE);
    assertRealRows(out, 2);
    assertThat(ProcessHandle.current().descendants()
        .filter(p -> p.info().command().orElse("").endsWith("llama-server")).count()).as("torn down").isZero();
  }

  @Test
  void theLlamaCppExampleRunsAsSlurmJobs() throws Exception {
    Path realserver = realserver();
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
    assumeTrue(up, "no local Slurm (start shared/slurm/start-local-slurm.sh); skipping the real engine on Slurm");
    Path cfg = example(realserver);
    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .selection(Selection.parse(List.of("--config-keys", "llamacpp-tiny-cpu", "--conc", "1")))
        .adapter("slurm").putAdapterOptions("slurm.gpus", "0").promptsPerConc(2).build()).run(RunListener.NONE);
    assertRealRows(out, 1);
    JsonNode event = Json.mapper().readTree(out.layout().pointDir(out.points().get(0).point().resultFilename())
        .resolve("job_event.json").toFile());
    assertThat(event.get("identity").get("adapter").asText()).isEqualTo("slurm");
  }
}
