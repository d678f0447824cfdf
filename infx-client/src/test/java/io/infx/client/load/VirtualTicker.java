package io.infx.client.load;

import java.time.Instant;
import java.util.PriorityQueue;

/**
 * A {@link Ticker} whose time moves only when the code under test waits: a wait jumps to its
 * target, firing on the way the timers other test doubles scheduled (a fake server's responses),
 * each at its exact instant. A schedule run on it is deterministic and exact, whatever the load
 * of the machine.
 *
 * <p>Timers run on the waiting thread; readings may be taken from any thread.
 */
public final class VirtualTicker implements Ticker {

  /** Readings start here (any value works; only differences are meaningful). */
  public static final long START = 1_000_000_000L;
  /** The wall-clock instant of {@link #START}. */
  public static final Instant WALL_START = Instant.parse("2026-01-01T00:00:00Z");
  /** More consecutive waits than this without time moving means the caller spins: fail. */
  private static final int MAX_IDLE_WAITS = 1_000_000;

  private record Timer(long at, long seq, Runnable action) {}

  private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> a.at != b.at
      ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
  private volatile long now = START;
  private long seq;
  private int idleWaits;

  @Override
  public long nanoTime() {
    return now;
  }

  /** Runs {@code action} when the time reaches {@code atNanos} (at once on the next wait if past). */
  public void schedule(long atNanos, Runnable action) {
    timers.add(new Timer(Math.max(atNanos, now), seq++, action));
  }

  /** Timers not yet fired. */
  public int pendingTimers() {
    return timers.size();
  }

  @Override
  public boolean awaitUntil(long targetNanos, long deadlineNanos) {
    long stop = Math.min(targetNanos, deadlineNanos);
    while (!timers.isEmpty() && timers.peek().at <= stop) {
      fireNext();
    }
    advance(Math.max(now, stop));
    return targetNanos <= deadlineNanos;
  }

  /** Jumps to {@code targetNanos} or to the next timer, whichever is first, and fires that timer. */
  @Override
  public void parkUntil(long targetNanos) {
    if (!timers.isEmpty() && timers.peek().at <= targetNanos) {
      fireNext();
      // every timer due at the same instant fires together, as simultaneous events would
      while (!timers.isEmpty() && timers.peek().at <= now) {
        fireNext();
      }
    } else {
      advance(Math.max(now, targetNanos));
    }
  }

  @Override
  public Instant wallTime() {
    return WALL_START.plusNanos(now - START);
  }

  private void fireNext() {
    Timer t = timers.poll();
    now = Math.max(now, t.at);
    idleWaits = 0;
    t.action.run();
  }

  private void advance(long to) {
    if (to == now) {
      if (++idleWaits > MAX_IDLE_WAITS) {
        throw new AssertionError("the caller waits in a loop without the virtual time moving (at "
            + now + " ns)");
      }
      return;
    }
    idleWaits = 0;
    now = to;
  }
}
