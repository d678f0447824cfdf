package io.infx.client.load;

import java.util.concurrent.locks.LockSupport;

/**
 * The clock the load schedulers wait on: monotonic nanoseconds and a wait until a given reading.
 * {@link #system()} is {@link System#nanoTime()} with a park-then-spin wait; tests pass a virtual
 * ticker whose waits advance time instantly, so a schedule is checked exactly, not against the
 * wall clock of a loaded machine.
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
  }
}
