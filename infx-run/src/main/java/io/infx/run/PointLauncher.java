package io.infx.run;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Runs one planned point on a fleet: starts the server, drives the client, normalizes the raw
 * result. {@link BenchmarkRun} calls it once per point, one point at a time.
 *
 * <p>Implementations leave {@code <RESULT_FILENAME>.json} and {@code agg_<RESULT_FILENAME>.json}
 * in {@code workDir} and return its path; a point that fails returns {@link PointResult#failed}
 * rather than throwing, so the run goes on with the next point. They stop everything they started
 * before returning, and honour interruption (the run's per-point time limit interrupts them).
 */
@FunctionalInterface
public interface PointLauncher {

  /**
   * @param point the point (row, runner, environment)
   * @param workDir the point's workspace, existing and empty of results
   * @param log receives the point's log (server and client output), never the run's stdout
   * @throws Exception a failure of this point only: the run records it and goes on
   */
  PointResult launch(PlannedPoint point, Path workDir, PrintWriter log) throws Exception;
}
