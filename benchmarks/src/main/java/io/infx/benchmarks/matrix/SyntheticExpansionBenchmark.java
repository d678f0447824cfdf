package io.infx.benchmarks.matrix;

import io.infx.matrix.Catalog;
import io.infx.matrix.ConfigSamples;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.runners.RunnerInventory;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scaling of expansion: a synthetic catalogue from {@code ConfigSamples.sized(42, rows)}
 * (single-node 8k1k configs, lists of distinct concurrencies) that {@code generate full-sweep}
 * expands to exactly {@code rows} rows, with default eval selection, in a JVM limited to a 512 MB
 * heap ({@code -Xmx512m}: the benchmark fails if expansion needs more).
 *
 * Run: {@code java -jar benchmarks/target/benchmarks.jar SyntheticExpansionBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m", "-Xms512m"})
public class SyntheticExpansionBenchmark {

  @Param({"10000", "100000"})
  public int rows;

  private Catalog catalog;
  private RunnerInventory runners;

  @Setup(Level.Trial)
  public void setup() {
    catalog = ConfigSamples.sized(42, rows);
    runners = ConfigSamples.runners();
    int got = Generator.fullSweep(catalog, runners, FullSweepOptions.defaults()).size();
    if (got != rows) {
      throw new IllegalStateException("expected " + rows + " rows, got " + got);
    }
  }

  @Benchmark
  public Matrix expand() {
    return Generator.fullSweep(catalog, runners, FullSweepOptions.defaults());
  }

  @Benchmark
  public int expandAndPrint() {
    return Generator.fullSweep(catalog, runners, FullSweepOptions.defaults()).toJson().length();
  }
}
