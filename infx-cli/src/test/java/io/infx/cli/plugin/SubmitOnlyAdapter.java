package io.infx.cli.plugin;

import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;

/** A test plugin that hands every point to a queue and does not wait (no result file). */
public final class SubmitOnlyAdapter implements FleetAdapter {

  @Override
  public String id() {
    return "submit-only";
  }

  @Override
  public String description() {
    return "test plugin: submits, never waits";
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    return JobStatus.submitted("ticket " + launch.env().resultFilename().length());
  }
}
