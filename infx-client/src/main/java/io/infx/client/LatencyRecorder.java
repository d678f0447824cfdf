package io.infx.client;

import io.infx.client.load.Ticker;
import io.infx.client.metrics.IntervalListener;
import io.infx.client.metrics.IntervalMetrics;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The on-the-fly latency histograms of a measured phase, in HdrHistogram's {@link Recorder} style:
 * {@link #record} runs wait-free on the I/O threads; {@link #sample()} takes each recorder's
 * interval histogram, adds it to the run's totals and hands the interval to the listener, so the
 * merged intervals equal the totals exactly (every value is in exactly one interval).
 *
 * <p>Values in µs, 3 significant digits. TPOT is recorded per request exactly as the reference
 * defines its TPOT sample (client spec §5.1): (E2EL − TTFT) / (output tokens − 1), only for a
 * successful request with more than one output token.
 */
final class LatencyRecorder {

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LatencyRecorder.class);

  private final Recorder ttft = new Recorder(3);
  private final Recorder tpot = new Recorder(3);
  private final Recorder itl = new Recorder(3);
  private final Recorder e2el = new Recorder(3);
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong outputTokens = new AtomicLong();

  // guarded by this: only sample() and totals() touch them
  private final Histogram ttftTotal = new Histogram(3);
  private final Histogram tpotTotal = new Histogram(3);
  private final Histogram itlTotal = new Histogram(3);
  private final Histogram e2elTotal = new Histogram(3);
  private final Ticker ticker;
  private final IntervalListener listener;
  private long phaseStartNanos;
  private long intervalStartNanos;
  private int index;

  /**
   * @param ticker the clock interval bounds are read from
   * @param listener receives each interval, or {@code null}
   */
  LatencyRecorder(Ticker ticker, IntervalListener listener) {
    this.ticker = ticker;
    this.listener = listener;
    this.phaseStartNanos = ticker.nanoTime();
    this.intervalStartNanos = phaseStartNanos;
  }

  /** Sets the start of the measured phase (interval 0 begins here); before any sample. */
  synchronized void start(long nanos) {
    phaseStartNanos = nanos;
    intervalStartNanos = nanos;
  }

  /** Records a finished measured request; wait-free, any thread. Cancelled requests count nowhere. */
  void record(RequestRecord r) {
    if (r.cancelled()) {
      return;
    }
    if (!r.success()) {
      failed.incrementAndGet();
      return;
    }
    int chunks = r.tokenChunks();
    if (chunks > 0) {
      long send = r.sendNanos();
      long first = r.tokenChunkNanos(0);
      ttft.recordValue(micros(first - send));
      for (int k = 1; k < chunks; k++) {
        itl.recordValue(micros(r.tokenChunkNanos(k) - r.tokenChunkNanos(k - 1)));
      }
      r.e2elEndNanos().ifPresent(end -> {
        e2el.recordValue(micros(end - send));
        int out = r.outputTokens();
        if (out > 1) {
          // the reference's TPOT_i = (E2EL_i − TTFT_i) / (out_len_i − 1), per request
          tpot.recordValue(micros((end - first) / (out - 1)));
        }
      });
    }
    outputTokens.addAndGet(r.outputTokens());
    completed.incrementAndGet();
  }

  private static long micros(long nanos) {
    return Math.max(0, nanos / 1_000);
  }

  /**
   * Ends the current interval now: takes the interval histograms, adds them to the totals, and
   * gives the snapshot to the listener (if any). Returns the snapshot.
   */
  synchronized IntervalMetrics sample() {
    long now = ticker.nanoTime();
    Histogram t = ttft.getIntervalHistogram();
    Histogram p = tpot.getIntervalHistogram();
    Histogram i = itl.getIntervalHistogram();
    Histogram e = e2el.getIntervalHistogram();
    ttftTotal.add(t);
    tpotTotal.add(p);
    itlTotal.add(i);
    e2elTotal.add(e);
    IntervalMetrics m = new IntervalMetrics(index++,
        Duration.ofNanos(intervalStartNanos - phaseStartNanos), Duration.ofNanos(now - phaseStartNanos),
        completed.getAndSet(0), failed.getAndSet(0), outputTokens.getAndSet(0), t, p, i, e);
    intervalStartNanos = now;
    if (listener != null) {
      try {
        listener.onInterval(m);
      } catch (RuntimeException ex) {
        LOG.warn("interval listener failed on interval {}: {}", m.index(), String.valueOf(ex));
      }
    }
    return m;
  }

  /** The run's histograms so far (copies): the sum of every interval sampled. */
  synchronized Totals totals() {
    return new Totals(ttftTotal.copy(), tpotTotal.copy(), itlTotal.copy(), e2elTotal.copy());
  }

  /** The final histograms of a phase, µs. */
  record Totals(Histogram ttft, Histogram tpot, Histogram itl, Histogram e2el) {}

  /** The histograms of {@code records} (nulls skipped) as a run would record them, in one interval. */
  static Totals totalsOf(java.util.List<RequestRecord> records) {
    LatencyRecorder rec = new LatencyRecorder(Ticker.system(), null);
    for (RequestRecord r : records) {
      if (r != null) {
        rec.record(r);
      }
    }
    rec.sample();
    return rec.totals();
  }

  /**
   * Samples every {@code every} on a daemon thread until {@link Sampler#close()}, which takes the
   * last (partial) interval on the caller's thread.
   */
  Sampler startSampler(Duration every) {
    return new Sampler(every);
  }

  final class Sampler implements AutoCloseable {
    private final Thread thread;
    private volatile boolean stopped;

    private Sampler(Duration every) {
      long period = every.toNanos();
      thread = new Thread(() -> {
        long next;
        synchronized (LatencyRecorder.this) {
          next = intervalStartNanos + period;
        }
        while (!stopped) {
          ticker.parkUntil(next);
          if (stopped) {
            return;
          }
          if (ticker.nanoTime() >= next) {
            sample();
            // after a stall (a slow listener, a descheduled thread) one longer interval, not a
            // burst of empty catch-up intervals: the next boundary is the first one still ahead
            long now = ticker.nanoTime();
            do {
              next += period;
            } while (next <= now);
          }
        }
      }, "infx-intervals");
      thread.setDaemon(true);
      thread.start();
    }

    /** Stops the thread, then samples the final interval here. */
    @Override
    public void close() {
      stopped = true;
      java.util.concurrent.locks.LockSupport.unpark(thread); // not interrupt: it may be in the listener
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      sample();
    }
  }
}
