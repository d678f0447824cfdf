package io.infx.fleet.spi;

import io.infx.fleet.RunnerName;

/**
 * A fleet adapter: runs one point (one matrix row on one runner) somewhere — a local process, a
 * Slurm job, a container — and reports how the job ended. Adapters are discovered with
 * {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/io.infx.fleet.spi.FleetAdapter}); the launcher chooses one by id or by
 * routing the runner name.
 *
 * <p>An adapter registers every resource it creates with {@link PointLaunch#lifecycle()} (cancel
 * the job, stop the server, fetch outputs) so cleanup happens on every exit path, and records
 * stages and the first error in {@link PointLaunch#events()}. It writes the point's raw result
 * as {@code <RESULT_FILENAME>.json} into {@link PointLaunch#workspace()}; verification and
 * normalization are the launcher's.
 */
public interface FleetAdapter {

  /** Stable id used by {@code --adapter} and routing tables, e.g. {@code local}. */
  String id();

  /** One line for {@code --help} and listings. */
  String description();

  /**
   * Runner-name prefixes (the text before the first {@code _}, {@link
   * io.infx.fleet.RunnerName#fleetPrefix()}) this adapter claims: a runner such as {@code
   * acme-h100_0} is routed to it when no {@code runners.yaml} cluster record routes it first.
   * Default: none (the adapter is chosen by id only).
   */
  default java.util.Set<String> runnerPrefixes() {
    return java.util.Set.of();
  }

  /**
   * Runs the point to its end (blocking).
   *
   * @return the job's final status; {@link JobStatus#submitted} or {@link JobStatus#dryRun} when
   *     the adapter hands the job to a system that runs it later, or only shows what it would run —
   *     the launch then ends without a result file and without failing for it
   * @throws io.infx.core.InfxException for problems that stop the launch before a job exists
   *     (bad options, no engine, scheduler refused); the launcher records them
   */
  JobStatus launch(PointLaunch launch);

  /**
   * Ends what earlier launches on {@code runner} left behind (the workflow's pre/post-job hygiene),
   * scoped to what this library creates — never the whole machine or queue.
   */
  default void cleanupLeftovers(RunnerName runner, AdapterOptions options) {
  }
}
