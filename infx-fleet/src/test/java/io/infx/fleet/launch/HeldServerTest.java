package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import io.infx.fleet.EnvProjector;
import io.infx.fleet.LaunchEnv;
import io.infx.fleet.NoLeftoverProcesses;
import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.TestSimServerMain;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.LogSink;
import io.infx.matrix.MatrixRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A server started once and kept up across points (infx search's probes). */
@ExtendWith(NoLeftoverProcesses.class)
class HeldServerTest {

  @TempDir Path out;

  private static LaunchEnv env(MatrixRow row) {
    return EnvProjector.standard().project(row, RunnerName.of("local_0"), RunContext.defaults());
  }

  private LaunchResult probe(MatrixRow row, HeldServer held, String dir, long seed) {
    return FleetLauncher.builder().row(row).runner(RunnerName.of("local_0")).workspace(out.resolve(dir))
        .server(held.spec())
        .client(ClientSettings.builder().numPrompts(4).numWarmups(0).seed(seed).tokenizer("builtin").build())
        .launch();
  }

  @Test
  void aCommandServerStartsOnceAndServesEveryPointUntilClosed() throws Exception {
    String cp = System.getProperty("java.class.path");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    MatrixRow top = TestRows.singleNode(256, 16, 4);
    HeldServer held = HeldServer.start(env(top),
        new ServerSpec.Command("exec '" + java + "' -cp '" + cp + "' " + TestSimServerMain.class.getName()),
        "local", AdapterOptions.empty(), out.resolve("server"), Duration.ofMinutes(2), LogSink.discard());
    try {
      assertThat(held.exitCode()).isEmpty();
      assertThat(held.simulated()).isFalse(); // a command: infx does not know what it is
      LaunchResult a = probe(TestRows.singleNode(256, 16, 1), held, "p1", 1);
      LaunchResult b = probe(TestRows.singleNode(256, 16, 4), held, "p4", 2);
      assertThat(a.error()).isEmpty();
      assertThat(b.error()).isEmpty();
      assertThat(a.aggregateFile()).isPresent();
      assertThat(b.aggregateFile()).isPresent();
      // the points started nothing: no server.log of their own, no stop stage
      assertThat(out.resolve("p1").resolve("server.log")).doesNotExist();
      JsonNode ev = Json.mapper().readTree(out.resolve("p4").resolve("job_event.json").toFile());
      assertThat(ev.get("stages").findValuesAsText("name")).contains("server", "readiness", "client")
          .noneMatch(n -> n.startsWith("cleanup:stop"));
      // one server: it logged its start once, with the top point's environment
      assertThat(Files.readString(held.workspace().resolve("server.log")))
          .containsOnlyOnce("test simulator on port");
    } finally {
      held.close();
    }
    assertThat(held.workspace().resolve("server_event.json")).content().contains("\"outcome\" : \"stopped\"");
    // NoLeftoverProcesses: the server JVM is gone
  }

  @Test
  void theSimulatorIsHeldWithTheTopPointsParallelismAndMarkedSimulated() throws Exception {
    MatrixRow top = TestRows.singleNode(256, 16, 8);
    try (HeldServer held = HeldServer.start(env(top), ServerSpec.simulator(), "local", AdapterOptions.empty(),
        out.resolve("server"), Duration.ofMinutes(1), LogSink.discard())) {
      assertThat(held.simulated()).isTrue();
      assertThat(held.description()).startsWith("SIMULATED");
      LaunchResult r = probe(TestRows.singleNode(256, 16, 2), held, "p2", 7);
      assertThat(r.error()).isEmpty();
      JsonNode agg = Json.mapper().readTree(r.aggregateFile().orElseThrow().toFile());
      assertThat(agg.get("simulated").asBoolean()).isTrue();
      assertThat(agg.get("conc").asInt()).isEqualTo(2);
      JsonNode raw = Json.mapper().readTree(r.rawFile().orElseThrow().toFile());
      assertThat(raw.get("infx").get("workload").get("seed").asLong()).isEqualTo(7);
    }
  }

  @Test
  void aPointFailsWhenItsHeldServerDied() throws Exception {
    String cp = System.getProperty("java.class.path");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    HeldServer held = HeldServer.start(env(TestRows.singleNode(256, 16, 2)),
        new ServerSpec.Command("exec '" + java + "' -cp '" + cp + "' " + TestSimServerMain.class.getName()),
        "local", AdapterOptions.empty(), out.resolve("server"), Duration.ofMinutes(2), LogSink.discard());
    held.close(); // the server is gone; a later point must say so, not hang or measure nothing
    LaunchResult r = probe(TestRows.singleNode(256, 16, 2), held, "late", 1);
    assertThat(r.exitCode()).isNotZero();
    assertThat(r.error()).isPresent();
  }

  @Test
  void onlyAdaptersWhoseClientRunsHereCanHoldAServer() {
    assertThatThrownBy(() -> HeldServer.start(env(TestRows.singleNode(256, 16, 2)), ServerSpec.simulator(), "slurm",
        AdapterOptions.empty(), out.resolve("s"), Duration.ofSeconds(5), LogSink.discard()))
        .isInstanceOf(UsageException.class).hasMessageContaining("local or container");
    assertThatThrownBy(() -> HeldServer.start(env(TestRows.singleNode(256, 16, 2)),
        new ServerSpec.Command("exit 3"), "local", AdapterOptions.empty(), out.resolve("s"),
        Duration.ofSeconds(20), LogSink.discard()))
        .isInstanceOf(InfxException.class).hasMessageContaining("exited with code 3");
    assertThat(out.resolve("s").resolve("server_event.json")).content().contains("\"outcome\" : \"failed\"");
  }
}
