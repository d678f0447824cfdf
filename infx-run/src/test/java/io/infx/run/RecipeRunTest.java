package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.json.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code infx run --recipes} launches a server process per point; {@code --endpoint} uses a running one. */
class RecipeRunTest {

  @TempDir Path tmp;

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  @Test
  void recipesLaunchAServerProcessPerPointWaitForItAndTearItDown() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 128, 8, "[1, 2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    Path recipes = TestConfigs.write(tmp, "r.yaml", """
        recipes:
          test-server:
            match: { framework: sglang, runner: "h200*" }
            server:
              env:
                JAVA_BIN: "%s"
                CP: "%s"
              command: ${JAVA_BIN} -XX:+UseSerialGC -cp ${CP} io.infx.run.TestSimMain --tp ${TP}
              health: /health
              startup-timeout: 60
              stop-timeout: 5
            client: { backend: vllm, tokenizer: builtin }
        """.formatted(java(), System.getProperty("java.class.path")));
    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .recipes(recipes).promptsPerConc(2).build()).run(RunListener.NONE);
    assertThat(out.points()).hasSize(2).allSatisfy(o ->
        assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED));
    for (PointOutcome o : out.points()) {
      Path work = out.layout().pointDir(o.point().resultFilename());
      // the server ran as a child process with the recipe's command, and logged to server.log
      assertThat(work.resolve("server.log")).content().contains("test server at http://127.0.0.1:");
      JsonNode agg = Json.mapper().readTree(work.resolve("agg_" + o.point().resultFilename() + ".json").toFile());
      // provenance comes from asking the server, not from the recipe: this test server is a simulator
      assertThat(agg.get("server_engine").asText()).isEqualTo("infx-sim");
      assertThat(agg.get("simulated").asBoolean()).isTrue();
      assertThat(Files.readString(work.resolve("infx-run.log")))
          .contains("recipe test-server (" + recipes + ":2:3)").contains("--tp 8");
    }
    // torn down: no TestSimMain process is left
    assertThat(ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("TestSimMain")).count()).isZero();
  }

  @Test
  void aRecipeFileBesideTheConfigIsPickedUpAndABadOneFailsBeforeAnyPointWithEveryError() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 128, 8, "[1]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    TestConfigs.write(tmp, "m.recipes.yaml", """
        recipes:
          a: { preset: nope }
          b: { match: { framwork: x } }
        """);
    RunOptions o = RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out")).build();
    assertThat(o.recipeFile()).contains(tmp.resolve("m.recipes.yaml"));
    assertThatThrownBy(() -> BenchmarkRun.of(o)).isInstanceOf(io.infx.core.ValidationException.class)
        .hasMessageContaining("m.recipes.yaml:3:17").hasMessageContaining("framwork");
    assertThat(tmp.resolve("out")).doesNotExist();
  }

  @Test
  void endpointBenchmarksARunningServerAndLaunchesNothing() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 128, 8, "[2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    try (SimServer running = SimServer.start(SimConfig.builder().build())) {
      RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
          .endpoint(running.baseUri()).promptsPerConc(2).build()).run(RunListener.NONE);
      assertThat(out.points()).singleElement().satisfies(o ->
          assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED));
      // the running server saw the traffic: 4 measured + 4 warm-up requests
      assertThat(running.stats().requestsReceived()).isGreaterThanOrEqualTo(8);
      Path work = out.layout().pointDir(out.points().get(0).point().resultFilename());
      assertThat(work.resolve("server.log")).doesNotExist();
    }
    assertThatThrownBy(() -> BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("o2"))
        .adapter("slurm").endpoint(java.net.URI.create("http://127.0.0.1:1")).build()))
        .hasMessageContaining("endpoint benchmarks a server");
  }
}
