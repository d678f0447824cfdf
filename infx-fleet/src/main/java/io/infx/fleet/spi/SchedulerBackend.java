package io.infx.fleet.spi;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a command runs on one kind of fleet: a child process, a Slurm job, a container. Adapters
 * compose backends; a new scheduler needs one backend (fleet spec §10, §11.4).
 *
 * <p>Implementations are thread-safe: {@link #cancel} may be called from a cleanup or signal
 * thread while another thread is in {@link #await}.
 */
public interface SchedulerBackend {

  /** Scheduler id, e.g. {@code local}, {@code slurm}, {@code docker}. */
  String scheduler();

  /**
   * Starts (or submits) the job and returns at once.
   *
   * @throws BackendException when it cannot be started; retriable when the scheduler is at fault
   */
  JobHandle start(JobSpec spec);

  /** The job's current status (final once {@link #await} returned a terminal state). */
  JobStatus status(JobHandle job);

  /**
   * Waits until the job reaches a terminal state or {@code timeout} passes, streaming its log to
   * {@code sink} meanwhile.
   *
   * @return the last status read (terminal unless the timeout passed first)
   */
  JobStatus await(JobHandle job, Duration timeout, LogSink sink);

  /** Copies the job's outputs into {@code dest} (idempotent; no copy when they are already there). */
  void fetchOutputs(JobHandle job, Path dest);

  /**
   * Ends the job (idempotent) and waits up to {@code wait} until nothing of it is left running.
   *
   * @throws BackendException when it is still running after {@code wait}
   */
  void cancel(JobHandle job, Duration wait);
}
