package io.infx.benchmarks.matrix;

import io.infx.matrix.Catalog;
import io.infx.matrix.ConfigSamples;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.runners.RunnerInventory;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * A load-tolerant timing harness for the matrix: per operation it reports the median wall time and
 * the median CPU time of the calling thread (CPU time moves far less than wall time when other
 * processes load the machine), after a warm-up, plus the peak heap used.
 *
 * <pre>
 * java -Xmx512m -cp benchmarks/target/benchmarks.jar io.infx.benchmarks.matrix.MatrixTiming [warmup] [runs]
 * </pre>
 */
public final class MatrixTiming {

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private MatrixTiming() {}

  public static void main(String[] args) {
    int warmup = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    Path dir = MatrixInputs.configs();
    Path nvidia = dir.resolve("nvidia-master.yaml");
    Path amd = dir.resolve("amd-master.yaml");
    Path runnersFile = dir.resolve("runners.yaml");
    Catalog catalog = Catalog.load(nvidia, amd);
    RunnerInventory runners = RunnerInventory.load(runnersFile);
    Matrix m = Generator.fullSweep(catalog, runners, FullSweepOptions.defaults());

    time("real masters: load (2 masters + runners)", warmup, runs,
        () -> new Object[] {Catalog.load(nvidia, amd), RunnerInventory.load(runnersFile)});
    time("real masters: expand (" + m.size() + " rows)", warmup, runs,
        () -> Generator.fullSweep(catalog, runners, FullSweepOptions.defaults()));
    time("real masters: print JSON", warmup, runs, m::toJson);
    time("real masters: load + expand + print", warmup, runs, () -> Generator.fullSweep(
        Catalog.load(nvidia, amd), RunnerInventory.load(runnersFile), FullSweepOptions.defaults()).toJson());

    RunnerInventory sampleRunners = ConfigSamples.runners();
    for (int rows : new int[] {10_000, 100_000}) {
      Catalog synthetic = ConfigSamples.sized(42, rows);
      resetPeaks();
      double[] t = time("synthetic " + rows + " rows: expand", Math.max(2, warmup / 5), Math.max(3, runs / 2),
          () -> Generator.fullSweep(synthetic, sampleRunners, FullSweepOptions.defaults()));
      System.out.printf("  peak heap used so far: %.0f MB (max heap %.0f MB)%n", peakHeapMb(),
          Runtime.getRuntime().maxMemory() / 1e6);
    }
  }

  /** Prints and returns {median wall ms, median CPU ms}. */
  static double[] time(String name, int warmup, int runs, Supplier<?> op) {
    for (int i = 0; i < warmup; i++) {
      op.get();
    }
    double[] wall = new double[runs];
    double[] cpu = new double[runs];
    for (int i = 0; i < runs; i++) {
      long c0 = THREADS.getCurrentThreadCpuTime();
      long w0 = System.nanoTime();
      Object r = op.get();
      wall[i] = (System.nanoTime() - w0) / 1e6;
      cpu[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1e6;
      if (r == null) {
        throw new IllegalStateException();
      }
    }
    Arrays.sort(wall);
    Arrays.sort(cpu);
    System.out.printf("%-46s wall median %8.1f ms (min %8.1f)   cpu median %8.1f ms (min %8.1f)%n",
        name, wall[runs / 2], wall[0], cpu[runs / 2], cpu[0]);
    return new double[] {wall[runs / 2], cpu[runs / 2]};
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
  }

  private static double peakHeapMb() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == java.lang.management.MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum / 1e6;
  }
}
