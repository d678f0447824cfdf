package io.infx.client;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * What the client process itself spent during the measured phase, so a result can say whether
 * the client was the bottleneck: CPU (all threads of this JVM, in percent of one core), garbage
 * collections and their accumulated time, and bytes allocated by live threads. In-process servers
 * (the simulator in the same JVM) are included; run {@code infx sim} separately for clean figures.
 *
 * @param cpuPercent process CPU time / wall time × 100 (200 = two cores busy)
 * @param gcCollections collections during the phase
 * @param gcMillis accumulated collection time (ms)
 * @param allocatedBytes bytes allocated by threads alive at both ends of the phase, or -1
 * @param wallSeconds the phase's wall time
 */
public record ClientStats(double cpuPercent, long gcCollections, long gcMillis,
    long allocatedBytes, double wallSeconds) {

  /** A running measurement; {@link #stop()} returns the figures. */
  static final class Probe {
    private final long cpu0 = cpu();
    private final long wall0 = System.nanoTime();
    private final long gcCount0 = gcCount();
    private final long gcTime0 = gcTime();
    private final long alloc0 = allocated();

    ClientStats stop() {
      long wall = System.nanoTime() - wall0;
      long a1 = allocated();
      return new ClientStats(cpu0 < 0 ? -1 : 100.0 * (cpu() - cpu0) / Math.max(1, wall),
          gcCount() - gcCount0, gcTime() - gcTime0, alloc0 < 0 || a1 < 0 ? -1 : a1 - alloc0,
          wall / 1e9);
    }
  }

  static Probe start() {
    return new Probe();
  }

  private static long cpu() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean s) {
      return s.getProcessCpuTime();
    }
    return -1;
  }

  private static long gcCount() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionCount).filter(v -> v > 0).sum();
  }

  private static long gcTime() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(v -> v > 0).sum();
  }

  private static long allocated() {
    ThreadMXBean t = ManagementFactory.getThreadMXBean();
    if (t instanceof com.sun.management.ThreadMXBean s && s.isThreadAllocatedMemoryEnabled()) {
      return Arrays.stream(s.getThreadAllocatedBytes(s.getAllThreadIds())).filter(v -> v > 0).sum();
    }
    return -1;
  }
}
