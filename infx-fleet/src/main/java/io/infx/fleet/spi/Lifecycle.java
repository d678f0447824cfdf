package io.infx.fleet.spi;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Cleanups of one launch, run last-in-first-out on every exit path, and the launch's exit code
 * (newer reference {@code lifecycle}, fleet spec §8):
 * <ul>
 *   <li>the first non-zero code {@linkplain #record recorded} wins;
 *   <li>a failing cleanup turns success into 1 (and is recorded as a {@link FailureKind#CLEANUP}
 *       error), the remaining cleanups still run;
 *   <li>{@link #closeOnSignal(int)} records {@code 128+N} and runs the cleanups; a second signal
 *       during cleanup is ignored, so cleanups are never cut short;
 *   <li>register "fetch outputs" <em>after</em> "cancel job" so LIFO fetches before it cancels.
 * </ul>
 * Closing is idempotent and thread-safe.
 */
public final class Lifecycle implements AutoCloseable {

  private record Cleanup(String name, JobEvents.CheckedRunnable action) { }

  private final Deque<Cleanup> cleanups = new ArrayDeque<>();
  private final JobEvents events;
  private final AtomicBoolean closing = new AtomicBoolean();
  private int exitCode;

  public Lifecycle(JobEvents events) {
    this.events = events;
  }

  public Lifecycle() {
    this(new JobEvents());
  }

  public JobEvents events() {
    return events;
  }

  /** Registers a cleanup; it runs before every cleanup registered earlier. */
  public synchronized void onClose(String name, JobEvents.CheckedRunnable action) {
    if (closing.get()) {
      throw new IllegalStateException("lifecycle is closing; cannot register '" + name + "'");
    }
    cleanups.push(new Cleanup(name, action));
  }

  /**
   * Starts a resource and registers its cleanup as one step that {@link #close} cannot split: a
   * signal that arrives while {@code start} runs waits for the registration, so whatever was started
   * is also stopped (a server started a moment before SIGTERM is never left running).
   *
   * @param name the cleanup's name in the job events ({@code cleanup:<name>})
   * @param start starts the resource and returns its handle
   * @param stop the cleanup for that handle
   * @return the handle {@code start} returned
   * @throws IllegalStateException when the lifecycle is already closing (nothing is started)
   */
  public synchronized <H> H startOwned(String name, Supplier<H> start,
      Function<H, JobEvents.CheckedRunnable> stop) {
    if (closing.get()) {
      throw new IllegalStateException("lifecycle is closing; not starting '" + name + "'");
    }
    H handle = start.get();
    cleanups.push(new Cleanup(name, stop.apply(handle)));
    return handle;
  }

  /** Records an exit code; only the first non-zero one is kept. */
  public synchronized void record(int rc) {
    if (exitCode == 0 && rc != 0) {
      exitCode = rc;
    }
  }

  public synchronized int exitCode() {
    return exitCode;
  }

  /** True once {@link #close} began. */
  public boolean isClosing() {
    return closing.get();
  }

  /** Runs the cleanups (LIFO) once; later calls do nothing. */
  @Override
  public void close() {
    synchronized (this) { // under the lock: never between a startOwned start and its registration
      if (!closing.compareAndSet(false, true)) {
        return;
      }
    }
    while (true) {
      Cleanup c;
      synchronized (this) {
        c = cleanups.poll();
      }
      if (c == null) {
        return;
      }
      try {
        events.timed("cleanup:" + c.name(), () -> {
          c.action().run();
          return null;
        });
      } catch (Exception e) {
        events.fail("cleanup:" + c.name(), FailureKind.CLEANUP, String.valueOf(e.getMessage()), 1);
        record(1);
      }
    }
  }

  /** Records {@code 128+signal}, runs the cleanups, and returns the exit code. */
  public int closeOnSignal(int signal) {
    if (closing.get()) {
      return exitCode(); // held: cleanups already running
    }
    events.fail("signal", FailureKind.CANCELLED, "received signal " + signal, 128 + signal);
    record(128 + signal);
    close();
    return exitCode();
  }
}
