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
 *
 * <p>Closed loop: the thread that completes a request (the HTTP client's I/O thread) sends the
 * next prepared request itself, at once, instead of waking the loop's thread to do it. Why:
 * measured on llama.cpp at c=4 on a loaded 2-core machine (load average 19–23), the hand-off
 * from the loop's thread to the I/O thread put a median 2–13 ms between the send stamp and the
 * connection being ready — inside TTFT, since TTFT counts from the send — while the Python client
 * starts each request on the one thread that also does its I/O. Sending from the completing
 * thread takes both wake-ups (loop thread, then I/O thread) out of every request. The loop's
 * thread builds bodies ahead ({@link Sender#prepare}, up to {@link #LOOKAHEAD} requests or the
 * concurrency, whichever is smaller), sends the first wave, and sends whatever a completion could
 * not (no prepared request yet, or a request that completed inside its own send).
 */
public final class ArrivalDispatcher {

  /** The HTTP side of the loop. */
  public interface Sender {
    /**
     * Called for request {@code index} before waiting for its send time (build the body here), in
     * index order, on the loop's thread; in a closed loop up to {@link #LOOKAHEAD} requests ahead
     * of the sends.
     */
    default void prepare(int index) {}

    /**
     * Sends request {@code index}; the stage completes when the request has finished. Called on
     * the loop's thread or, in a closed loop, on the thread that completed an earlier request;
     * once per index, after its {@link #prepare}.
     */
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

  /** Most requests prepared ahead of the sends in a closed loop (bounds their bodies' memory). */
  public static final int LOOKAHEAD = 256;

  private final Ticker ticker;
  private java.util.function.BooleanSupplier stopped = () -> false;

  public ArrivalDispatcher(Ticker ticker) {
    this.ticker = ticker;
  }

  /**
   * Ends the loop early once {@code stopped} says so (SIGINT/SIGTERM): nothing is handed to the
   * sender after that; a wait for a send time or a slot notices within 50 ms.
   */
  public ArrivalDispatcher stopWhen(java.util.function.BooleanSupplier stopped) {
    this.stopped = java.util.Objects.requireNonNull(stopped, "stopped");
    return this;
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
    if (schedule == null && concurrency > 0) {
      return new ClosedLoop(n, concurrency, timeoutNanos, sender).run();
    }
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
      if (stopped.getAsBoolean()) {
        break;
      }
      sender.prepare(i);
      long intended;
      if (schedule != null) {
        intended = t0 + schedule[i];
        if (!awaitSendTime(intended, deadline)) {
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
      if (stopped.getAsBoolean()) {
        break; // stopped while waiting: this request never leaves
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

  /** Waits for {@code intended} in steps of at most 50 ms so a stop is noticed; false when cut. */
  private boolean awaitSendTime(long intended, long deadline) {
    while (true) {
      long step = Math.min(intended, ticker.nanoTime() + 50_000_000L);
      if (!ticker.awaitUntil(step, deadline)) {
        return false;
      }
      if (step >= intended) {
        return true;
      }
      if (stopped.getAsBoolean()) {
        return false;
      }
    }
  }

  private Long takeSlot(ArrayBlockingQueue<Long> slots, long deadline) throws InterruptedException {
    while (true) {
      if (stopped.getAsBoolean()) {
        return null;
      }
      Long s = slots.poll(50, TimeUnit.MILLISECONDS);
      if (s != null) {
        return s;
      }
      if (ticker.nanoTime() > deadline) {
        return null;
      }
    }
  }

  /**
   * The closed loop: {@code concurrency} slots; a completion sends the next prepared request on
   * the completing thread (see the class comment), else frees its slot for the loop's thread.
   */
  private final class ClosedLoop {
    private final int n;
    private final int lookahead;
    private final Sender sender;
    private final long t0;
    private final long deadline;
    private final long[] slotNanos;
    private final java.util.ArrayDeque<Long> freeSlots = new java.util.ArrayDeque<>();
    /** Sends in progress on this thread: a completion inside its own send must not recurse. */
    private final ThreadLocal<int[]> sending = ThreadLocal.withInitial(() -> new int[1]);
    // guarded by this
    private int prepared;
    private int nextSend;
    private boolean closed;
    /** The loop's thread is waiting: wake it only when it has work (a free slot, bodies to build). */
    private boolean loopWaiting;

    ClosedLoop(int n, int concurrency, long timeoutNanos, Sender sender) {
      this.n = n;
      // ahead by twice the concurrency (at least 16) so the loop's thread wakes once per batch
      this.lookahead = Math.max(16, Math.min(2 * concurrency, LOOKAHEAD));
      this.sender = sender;
      this.t0 = ticker.nanoTime();
      this.deadline = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : t0 + timeoutNanos;
      this.slotNanos = new long[n];
      for (int k = 0; k < concurrency; k++) {
        freeSlots.add(t0);
      }
    }

    Dispatch run() throws InterruptedException {
      long[] next = new long[2];
      while (true) {
        while (take(next)) {
          send((int) next[0], next[1]);
        }
        synchronized (this) {
          if (closed || cut() || nextSend >= n) {
            closed = true; // from now on completions only free their slots
            return new Dispatch(t0, nextSend, slotNanos);
          }
          boolean canPrepare = prepared < n && prepared - nextSend < lookahead;
          if (!canPrepare) {
            if (freeSlots.isEmpty() || nextSend >= prepared) {
              loopWaiting = true;
              wait(50); // a completion sends or frees a slot and notifies; a stop is seen in 50 ms
              loopWaiting = false;
            }
            continue;
          }
        }
        sender.prepare(prepared); // only this thread changes `prepared`
        synchronized (this) {
          prepared++;
        }
      }
    }

    private boolean cut() {
      return stopped.getAsBoolean() || ticker.nanoTime() > deadline;
    }

    /** A prepared request and a free slot, if both: {index, slot-freed time}. */
    private synchronized boolean take(long[] out) {
      if (closed || nextSend >= prepared || freeSlots.isEmpty() || cut()) {
        return false;
      }
      long s = freeSlots.poll();
      int i = nextSend++;
      long slotAt = Math.max(s, t0);
      slotNanos[i] = slotAt;
      out[0] = i;
      out[1] = slotAt;
      return true;
    }

    private void send(int i, long intended) {
      int[] depth = sending.get();
      depth[0]++;
      CompletionStage<?> done;
      try {
        done = sender.send(i, intended);
      } finally {
        depth[0]--;
      }
      done.whenComplete((r, ex) -> completed());
    }

    /** A request finished: send the next one from here, or give its slot back to the loop. */
    private void completed() {
      long now = ticker.nanoTime();
      int i = -1;
      synchronized (this) {
        boolean nested = sending.get()[0] > 0;
        if (!closed && !nested && nextSend < prepared && !cut()) {
          i = nextSend++;
          slotNanos[i] = now;
          // bodies to build: wake the loop's thread when half its lookahead is used (or at the end)
          if (loopWaiting && (prepared - nextSend <= lookahead / 2 || nextSend >= n)) {
            notifyAll();
          }
        } else {
          freeSlots.add(now);
          if (loopWaiting) {
            notifyAll();
          }
        }
      }
      if (i >= 0) {
        send(i, now);
      }
    }
  }
}
