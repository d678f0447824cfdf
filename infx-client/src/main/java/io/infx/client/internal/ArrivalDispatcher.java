package io.infx.client.internal;

import io.infx.client.load.Ticker;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The send loop of a benchmark phase: request {@code i} goes out at {@code t0 + schedule[i]}
 * (open loop) or as soon as possible (closed loop), and never while {@code concurrency} requests
 * are in flight (the ceiling). Time comes from a {@link Ticker}, so the schedule can be tested on
 * a virtual clock; the HTTP side is behind {@link Sender}.
 *
 * <p>Intended send time: the scheduled instant (open loop), or the moment the slot freed (closed
 * loop) — the reference's definition, which keeps queueing delay inside the latencies.
 */
public final class ArrivalDispatcher {

  /** The HTTP side of the loop. */
  public interface Sender {
    /** Called for request {@code index} before waiting for its send time (build the body here). */
    default void prepare(int index) {}

    /** Sends request {@code index}; the stage completes when the request has finished. */
    CompletionStage<?> send(int index, long intendedNanos);
  }

  /**
   * What the loop did.
   *
   * @param startNanos {@code t0}, the ticker reading the schedule is relative to
   * @param sent requests handed to the sender (the rest were cut by the deadline)
   * @param slotNanos per request, when its ceiling slot was granted (its intended time if none)
   */
  public record Dispatch(long startNanos, int sent, long[] slotNanos) {}

  private final Ticker ticker;

  public ArrivalDispatcher(Ticker ticker) {
    this.ticker = ticker;
  }

  /**
   * Runs the loop for {@code n} requests; returns once each has been handed to {@code sender} or
   * the deadline cut the phase (completion is the caller's to await).
   *
   * @param schedule offsets from {@code t0} in ns (open loop), or {@code null} (closed loop)
   * @param concurrency the in-flight ceiling, or {@code <= 0} for none
   * @param timeoutNanos the phase budget from {@code t0}, or {@link Long#MAX_VALUE}
   */
  public Dispatch run(int n, long[] schedule, int concurrency, long timeoutNanos, Sender sender)
      throws InterruptedException {
    long[] slotNanos = new long[n];
    ArrayBlockingQueue<Long> slots = concurrency > 0 ? new ArrayBlockingQueue<>(concurrency) : null;
    long t0 = ticker.nanoTime();
    if (slots != null) {
      for (int k = 0; k < concurrency; k++) {
        slots.add(t0);
      }
    }
    long deadline = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : t0 + timeoutNanos;
    int sent = 0;
    for (int i = 0; i < n; i++) {
      sender.prepare(i);
      long intended;
      if (schedule != null) {
        intended = t0 + schedule[i];
        if (!ticker.awaitUntil(intended, deadline)) {
          break;
        }
      } else {
        intended = t0;
      }
      long slotAt = intended;
      if (slots != null) {
        Long s = takeSlot(slots, deadline);
        if (s == null) {
          break;
        }
        long now = ticker.nanoTime();
        // closed loop: the request was due when its slot freed
        slotAt = schedule == null ? Math.max(s, t0) : Math.max(now, intended);
        if (schedule == null) {
          intended = slotAt;
        }
      }
      slotNanos[i] = slotAt;
      CompletionStage<?> done = sender.send(i, intended);
      if (slots != null) {
        done.whenComplete((r, ex) -> slots.offer(ticker.nanoTime()));
      }
      sent++;
    }
    return new Dispatch(t0, sent, slotNanos);
  }

  private Long takeSlot(ArrayBlockingQueue<Long> slots, long deadline) throws InterruptedException {
    while (true) {
      Long s = slots.poll(50, TimeUnit.MILLISECONDS);
      if (s != null) {
        return s;
      }
      if (ticker.nanoTime() > deadline) {
        return null;
      }
    }
  }
}
