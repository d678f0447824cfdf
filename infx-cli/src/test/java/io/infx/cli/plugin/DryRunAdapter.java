package io.infx.cli.plugin;

import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import java.util.Set;

/**
 * A third-party adapter as a plugin jar would ship it, registered only through
 * {@code META-INF/services/io.infx.fleet.spi.FleetAdapter} of the test class path: claims runners
 * {@code dryrun_*} and shows what it would run.
 */
public final class DryRunAdapter implements FleetAdapter {

  @Override
  public String id() {
    return "dryrun";
  }

  @Override
  public String description() {
    return "test plugin: shows the point, runs nothing";
  }

  @Override
  public Set<String> runnerPrefixes() {
    return Set.of("dryrun");
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    return JobStatus.dryRun("would run " + launch.env().resultFilename() + " on " + launch.runner());
  }
}
