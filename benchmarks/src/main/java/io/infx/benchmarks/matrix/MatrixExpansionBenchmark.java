package io.infx.benchmarks.matrix;

import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * In-process expansion of the real InferenceX catalogue (nvidia + amd masters, 196 configs,
 * runners.yaml) as {@code generate full-sweep} with default options: 1,771 rows.
 *
 * <ul>
 *   <li>{@code loadExpandPrint}: read + validate both masters and the runner file, expand, render
 *       the JSON text — everything the CLI does after JVM start-up;
 *   <li>{@code expand}: expansion and eval selection only, on already loaded inputs;
 *   <li>{@code load}: reading and validating the inputs only.
 * </ul>
 *
 * Run: {@code java -jar benchmarks/target/benchmarks.jar MatrixExpansionBenchmark} from the repo root.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class MatrixExpansionBenchmark {

  private Path nvidia;
  private Path amd;
  private Path runnersFile;
  private Catalog catalog;
  private RunnerInventory runners;

  @Setup
  public void setup() {
    Path dir = MatrixInputs.configs();
    nvidia = dir.resolve("nvidia-master.yaml");
    amd = dir.resolve("amd-master.yaml");
    runnersFile = dir.resolve("runners.yaml");
    catalog = Catalog.load(nvidia, amd);
    runners = RunnerInventory.load(runnersFile);
  }

  @Benchmark
  public String loadExpandPrint() {
    Catalog c = Catalog.load(nvidia, amd);
    RunnerInventory r = RunnerInventory.load(runnersFile);
    return Generator.fullSweep(c, r, FullSweepOptions.defaults()).toJson();
  }

  @Benchmark
  public Matrix expand() {
    return Generator.fullSweep(catalog, runners, FullSweepOptions.defaults());
  }

  @Benchmark
  public Object load() {
    return new Object[] {Catalog.load(nvidia, amd), RunnerInventory.load(runnersFile)};
  }
}
