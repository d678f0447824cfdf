package io.infx.client;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link StreamExchangeBenchmark}'s operation timed by the thread's own CPU clock instead of the
 * wall clock: on a machine loaded by other work a thread's CPU time per operation moves far less
 * than its wall time (it does not count the time the thread waited for a core), so two builds can
 * be compared there; the JMH benchmark stays the figure for a quiet machine. Prints, per shape,
 * CPU ns and allocated bytes per stream and per further SSE event ((X(128) − X(1)) / 127); the
 * CPU figure is the lowest of 30 batches (the batch least disturbed by other work: cache and
 * core sharing inflate CPU time too, never deflate it), the bytes the median.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.infx.client.HotPathCpu [SECONDS_PER_CASE=6] [DELIVERY=event]
 * </pre>
 * Add {@code -XX:TieredStopAtLevel=1} to measure C1's code (the loopback default in the measured
 * phase).
 */
public final class HotPathCpu {

  private HotPathCpu() {}

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 6;
    String delivery = args.length > 1 ? args[1] : "event";
    com.sun.management.ThreadMXBean mx =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    System.out.printf(Locale.ROOT, "%-10s %-7s %12s %12s %12s %12s%n", "shape", "delivery",
        "cpu ns/strm", "B/stream", "cpu ns/event", "B/event");
    for (String shape : new String[] {"vllm", "llama", "llamatext"}) {
      double[][] r = new double[2][];
      int[] events = {1, 128};
      for (int k = 0; k < 2; k++) {
        StreamExchangeBenchmark b = new StreamExchangeBenchmark();
        b.events = events[k];
        b.shape = shape;
        b.delivery = delivery;
        b.retainText = false;
        b.setup();
        r[k] = measure(b, mx, seconds);
      }
      System.out.printf(Locale.ROOT, "%-10s %-7s %12.0f %12.0f %12.1f %12.1f%n", shape, delivery,
          r[1][0], r[1][1], (r[1][0] - r[0][0]) / 127, (r[1][1] - r[0][1]) / 127);
    }
  }

  /** {cpu ns per op (lowest batch), bytes per op (median)} after a warm-up of a third of the time. */
  private static double[] measure(StreamExchangeBenchmark b, com.sun.management.ThreadMXBean mx,
      double seconds) throws Exception {
    long tid = Thread.currentThread().getId();
    long end = System.nanoTime() + (long) (seconds / 3 * 1e9);
    Object sink = null;
    while (System.nanoTime() < end) {
      sink = b.stream();
    }
    int batches = 30;
    double[] cpu = new double[batches];
    double[] bytes = new double[batches];
    long perBatch = (long) (seconds * 2 / 3 * 1e9 / batches);
    for (int i = 0; i < batches; i++) {
      long c0 = mx.getCurrentThreadCpuTime();
      long a0 = mx.getThreadAllocatedBytes(tid);
      long w0 = System.nanoTime();
      long ops = 0;
      while (System.nanoTime() - w0 < perBatch) {
        for (int j = 0; j < 64; j++) {
          sink = b.stream();
        }
        ops += 64;
      }
      cpu[i] = (double) (mx.getCurrentThreadCpuTime() - c0) / ops;
      bytes[i] = (double) (mx.getThreadAllocatedBytes(tid) - a0) / ops;
    }
    if (sink == null) {
      throw new IllegalStateException("no record");
    }
    Arrays.sort(cpu);
    Arrays.sort(bytes);
    return new double[] {cpu[0], bytes[batches / 2]};
  }
}
