package io.infx.client.agentx.internal;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Running totals of a replay's profiling phase, for {@code profile_export_aiperf.json} and the
 * run summary: request accounting, per-request metric samples (primitive arrays, a few MB per
 * 100k requests), theoretical cache counts and schedule lateness.
 */
final class ReplayStats {

  long successes;
  /** Wall-clock end (epoch ns) of the latest successful profiling request. */
  long lastObservationNs;
  long errors;
  long cancelled;
  long contextOverflows;
  long warmupRecords;
  long hitBlocks;
  long totalBlocks;
  long systemIdleJumps;
  double systemIdleSkippedSeconds;
  long treeIdleJumps;
  /** Profiling dispatches whose prompt was still being synthesized at the due time. */
  long bodiesLate;
  double treeIdleSkippedSeconds;
  /** Schedule lateness of profiling dispatches, microseconds. */
  final Histogram lateness = new Histogram(3_600_000_000L, 3);

  final Samples ttftMs = new Samples();
  final Samples latencyMs = new Samples();
  final Samples itlMs = new Samples();
  final Samples inputTokens = new Samples();
  final Samples outputTokens = new Samples();

  void add(ReplayRecord r) {
    if (r.warmup()) {
      warmupRecords++;
      return;
    }
    if (r.cancelled()) {
      cancelled++;
      return;
    }
    if (r.contextOverflow()) {
      contextOverflows++;
    }
    if (r.error()) {
      errors++;
      return;
    }
    successes++;
    lastObservationNs = Math.max(lastObservationNs, r.endNs());
    ttftMs.add(r.ttftMs());
    latencyMs.add(r.latencyMs());
    itlMs.add(r.itlMs());
    inputTokens.add(r.inputTokens());
    outputTokens.add(r.outputTokens());
    if (r.totalBlocks() > 0) {
      hitBlocks += Math.max(0, Math.min(r.hitBlocks(), r.totalBlocks()));
      totalBlocks += r.totalBlocks();
    }
  }

  /**
   * AIPerf's coverage rule (spec §1.7): in a profiling phase of at least 900 s, TTFT/ITL
   * observations must extend through at least 98 % of it, else the server stalled.
   */
  static boolean insufficientCoverage(long durationNanos, long profilingStartEpochNs, long lastObservationEpochNs) {
    if (durationNanos < 900_000_000_000L) {
      return false;
    }
    return lastObservationEpochNs - profilingStartEpochNs < 0.98 * durationNanos;
  }

  /** A growable array of finite doubles. */
  static final class Samples {
    private double[] values = new double[1024];
    private int n;

    void add(double v) {
      if (!Double.isFinite(v)) {
        return;
      }
      if (n == values.length) {
        values = Arrays.copyOf(values, n * 2);
      }
      values[n++] = v;
    }

    int size() {
      return n;
    }

    /** The values in the order they were added (copied). */
    double[] values() {
      return Arrays.copyOf(values, n);
    }

    double[] sorted() {
      double[] s = Arrays.copyOf(values, n);
      Arrays.sort(s);
      return s;
    }
  }
}
