package io.infx.fleet.container;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.NoLeftoverProcesses;
import io.infx.fleet.RunnerName;
import io.infx.fleet.TestRows;
import io.infx.fleet.TestSimServerMain;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.LaunchResult;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.FailureKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container adapter end to end with a stand-in {@code docker} (no engine exists here): the
 * stand-in records its arguments and runs the entrypoint command on the host, which is what a
 * container with host networking and the workspace bind-mounted amounts to for this test.
 */
@ExtendWith(NoLeftoverProcesses.class)
class ContainerLaunchTest {

  @TempDir Path bin;
  @TempDir Path out;

  @Test
  void serverRunsThroughTheEngineAndTheContainerIsRemovedAfterwards() throws Exception {
    Path docker = bin.resolve("docker");
    Files.writeString(docker, """
        #!/bin/bash
        echo "$*" >> "%s/calls.log"
        if [ "$1" = run ]; then
          while [ "$#" -gt 0 ] && [ "$1" != "-c" ]; do shift; done
          shift; exec bash -c "$1"
        fi
        exit 0
        """.formatted(bin));
    Files.setPosixFilePermissions(docker, PosixFilePermissions.fromString("rwxr-xr-x"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of("h100-cr_0"))
        .workspace(out).options(AdapterOptions.of(Map.of("container.bin-dir", bin.toString())))
        .server(new ServerSpec.Command("exec " + java + " -cp " + System.getProperty("java.class.path") + " "
            + TestSimServerMain.class.getName()))
        .client(ClientSettings.builder().numPrompts(4).build())
        .launch();
    assertThat(r.error()).isEmpty();
    assertThat(r.exitCode()).isZero();
    var calls = Files.readAllLines(bin.resolve("calls.log"));
    assertThat(calls.get(0)).startsWith("run --rm --init --network=host --name=infx-server-h100-cr_0 --ipc=host")
        .contains("-e MODEL").contains("-e PORT").contains("-e RESULT_FILENAME")
        .contains("--entrypoint=/bin/bash vllm/vllm-openai:v0.27.1 -c");
    assertThat(calls).contains("rm -f infx-server-h100-cr_0");
    assertThat(out.resolve("server.log")).content().contains("test simulator on port");
  }

  @Test
  void withoutAnEngineTheLaunchFailsAtTheImageStage() {
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of("h100-cr_0"))
        .workspace(out).options(AdapterOptions.of(Map.of("container.bin-dir", bin.toString(),
            "container.engine", "podman")))
        .server(new ServerSpec.Command("vllm serve $MODEL --port $PORT"))
        .launch();
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.error().orElseThrow().kind()).isEqualTo(FailureKind.IMAGE);
    assertThat(r.error().orElseThrow().message()).startsWith("podman not found on PATH");
  }
}
