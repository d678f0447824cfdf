package io.infx.fleet.local;

import io.infx.fleet.bench.BenchDriver;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import java.util.Set;

/**
 * Runs a point on this machine: the server as a child process (any command) or the embedded
 * simulator (the default), the client in-process, outputs straight into the workspace. Reads no
 * adapter options.
 */
public final class LocalAdapter implements FleetAdapter {

  @Override
  public String id() {
    return "local";
  }

  @Override
  public String description() {
    return "this machine: server as a child process (or the embedded simulator), client in-process";
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    launch.options().requireKnown("local.", Set.of());
    return BenchDriver.run(new BenchDriver.Plan(launch.env().values(), launch.workspace(), launch.server(),
        launch.client(), launch.readinessTimeout()), new LocalProcessBackend(), launch.lifecycle(), launch.log());
  }
}
