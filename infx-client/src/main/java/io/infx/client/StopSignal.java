package io.infx.client;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A request to end a benchmark early — typically from a SIGINT/SIGTERM handler — set from any
 * thread and polled by the benchmark: it stops sending, gives in-flight requests a bounded grace,
 * cancels the rest (counted as cancelled), and returns what finished, marked incomplete.
 * Thread-safe; the first request wins.
 */
public final class StopSignal {

  private final AtomicReference<String> reason = new AtomicReference<>();
  private volatile long requestedNanos;

  /**
   * Asks the benchmark to stop.
   *
   * @param why recorded in the result, e.g. {@code SIGINT}
   * @return whether this call was the first request
   */
  public boolean request(String why) {
    if (reason.compareAndSet(null, why)) {
      requestedNanos = System.nanoTime();
      return true;
    }
    return false;
  }

  /** Whether a stop was requested. */
  public boolean isRequested() {
    return reason.get() != null;
  }

  /** Why the stop was requested, once it was. */
  public Optional<String> reason() {
    return Optional.ofNullable(reason.get());
  }

  /** {@link System#nanoTime()} of the request (meaningful once {@link #isRequested()}). */
  public long requestedNanos() {
    return requestedNanos;
  }
}
