package io.infx.client.load;

import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock the load schedulers wait on: monotonic nanoseconds and a wait until a given reading.
 * {@link #system()} is {@link System#nanoTime()} with a park-then-spin wait; tests pass a virtual
 * ticker whose waits advance time instantly, so a schedule is checked exactly, not against the
 * wall clock of a loaded machine.
 *
 * <p>The open-loop {@code ArrivalDispatcher} waits with {@link #awaitUntil}; the event-driven
 * AgentX replay waits with {@link #parkUntil}, which a {@link LockSupport#unpark} (a completion
 * arriving) ends early.
 */
public interface Ticker {

  /** The current reading in nanoseconds (only differences are meaningful). */
  long nanoTime();

  /**
   * Waits until {@link #nanoTime()} reaches {@code targetNanos}.
   *
   * @return {@code false} when {@code deadlineNanos} passed first (the wait is abandoned)
   */
  boolean awaitUntil(long targetNanos, long deadlineNanos);

  /**
   * Parks the calling thread until {@link #nanoTime()} reaches {@code targetNanos}, or until it is
   * unparked ({@link LockSupport#unpark}), whichever comes first; it may also return early for no
   * reason, so callers re-check their state. A virtual ticker advances its time instead (by
   * default to the target, through {@link #awaitUntil}).
   */
  default void parkUntil(long targetNanos) {
    awaitUntil(targetNanos, Long.MAX_VALUE);
  }

  /**
   * The wall-clock instant of the current reading, for stamping records in epoch time; the
   * schedule itself never depends on it. A virtual ticker may return its own (virtual) instant.
   */
  default Instant wallTime() {
    return Instant.now();
  }

  /** {@link System#nanoTime()}; waits park until ~0.1 ms before the target, then spin. */
  static Ticker system() {
    return SystemTicker.INSTANCE;
  }

  /** The wall-clock ticker. */
  enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public boolean awaitUntil(long targetNanos, long deadlineNanos) {
      long now;
      while ((now = System.nanoTime()) < targetNanos) {
        if (now > deadlineNanos) {
          return false;
        }
        long left = targetNanos - now;
        if (left > 200_000) {
          // parking is coarse; wake early and spin the last 0.1 ms for an on-time send
          LockSupport.parkNanos(left - 100_000);
        } else {
          Thread.onSpinWait();
        }
      }
      return now <= deadlineNanos;
    }

    @Override
    public void parkUntil(long targetNanos) {
      long left = targetNanos - System.nanoTime();
      if (left > 0) {
        LockSupport.parkNanos(this, left);
      }
    }
  }
}
