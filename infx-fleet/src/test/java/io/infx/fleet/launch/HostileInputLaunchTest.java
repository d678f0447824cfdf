package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ValidationException;
import io.infx.matrix.MatrixRow;
import io.infx.fleet.NoLeftoverProcesses;
import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.bench.ServerSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11: names that would escape the output directory, and secrets in relayed server output. */
@ExtendWith(NoLeftoverProcesses.class)
class HostileInputLaunchTest {

  @TempDir Path tmp;

  @Test
  void aRowWhoseExpNameEscapesTheOutputDirectoryIsRefusedBeforeAnyWrite() throws Exception {
    var json = TestRows.json(TestRows.singleNode(1024, 128, 2));
    json.put("model-prefix", "../../escape");
    json.put("exp-name", "../../escape_1k0k");
    Path out = tmp.resolve("out");
    assertThatThrownBy(() -> FleetLauncher.builder().row(TestRows.of(json))
        .runner(RunnerName.of("local_0")).workspace(out).launch())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("fleet.row.file-name")
        .hasMessageContaining("/exp-name")
        .hasMessageContaining("'/'");
    try (var files = Files.walk(tmp)) {
      assertThat(files.filter(p -> !p.equals(tmp)).toList()).as("nothing written anywhere").isEmpty();
    }
  }

  @Test
  void serverOutputIsRedactedInServerLogTheRelayAndTheJobEvent() throws Exception {
    String token = "hf_LeakCheck0123456789";
    List<String> relayed = new CopyOnWriteArrayList<>();
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2))
        .runner(RunnerName.of("local_0")).adapter("local").workspace(tmp)
        .context(RunContext.builder().secrets(Map.of("HF_TOKEN", token)).build())
        .server(new ServerSpec.Command("echo \"loading with token $HF_TOKEN\";"
            + " echo 'upstream said Authorization: Bearer sk-gateway-99999' >&2; exit 3"))
        .readinessTimeout(Duration.ofSeconds(20))
        .log((src, l) -> relayed.add(src + ": " + l))
        .launch();
    assertThat(r.exitCode()).isEqualTo(1);
    String log = Files.readString(tmp.resolve("server.log"));
    assertThat(log).contains("loading with token ***").contains("Authorization: Bearer ***")
        .doesNotContain(token).doesNotContain("sk-gateway-99999");
    assertThat(relayed).anyMatch(l -> l.contains("loading with token ***"));
    assertThat(String.join("\n", relayed)).doesNotContain(token).doesNotContain("sk-gateway");
    try (var files = Files.walk(tmp)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        assertThat(Files.readString(p)).as(p.toString()).doesNotContain(token)
            .doesNotContain("sk-gateway-99999");
      }
    }
  }
}
