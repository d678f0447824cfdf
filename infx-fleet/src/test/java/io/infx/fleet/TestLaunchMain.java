package io.infx.fleet;

import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.LaunchResult;
import java.nio.file.Path;

/** A launcher process for signal tests: a server that never becomes ready, signal handling on. */
public final class TestLaunchMain {

  private TestLaunchMain() {}

  public static void main(String[] args) {
    LaunchResult r = FleetLauncher.builder().row(TestRows.singleNode(1024, 128, 2)).runner(RunnerName.of("local_0"))
        .workspace(Path.of(args[0])).handleSignals(true)
        .server(new ServerSpec.Command("echo server-up; while true; do sleep 1; done"))
        .launch();
    System.exit(r.exitCode());
  }
}
