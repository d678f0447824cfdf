package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.fleet.NoLeftoverProcesses;
import io.infx.fleet.TestLaunchMain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** SIGTERM to a launching process: cleanups run (the server is stopped), exit 143, job_event.json says why. */
@ExtendWith(NoLeftoverProcesses.class)
class SignalTest {

  @TempDir Path out;

  @Test
  void sigtermStopsTheServerAndExits143WithTheEventWritten() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
        TestLaunchMain.class.getName(), out.toString())
        .redirectErrorStream(true).redirectOutput(out.resolve("launcher.out").toFile()).start();
    Path serverLog = out.resolve("server.log");
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!(Files.exists(serverLog) && Files.readString(serverLog).contains("server-up"))) {
      assertThat(System.nanoTime()).as("server started within 60 s").isLessThan(deadline);
      assertThat(p.isAlive()).as("launcher alive").isTrue();
      Thread.sleep(100);
    }
    p.destroy(); // SIGTERM
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isEqualTo(143);
    JsonNode ev = Json.mapper().readTree(out.resolve("job_event.json").toFile());
    assertThat(ev.get("outcome").asText()).isEqualTo("cancelled");
    assertThat(ev.get("exit_code").asInt()).isEqualTo(143);
    assertThat(ev.get("error").get("type").asText()).isEqualTo("cancelled");
    assertThat(ev.get("stages").findValuesAsText("name")).contains("cleanup:stop server");
  }
}
