package io.infx.benchmarks.matrix;

import static org.quicktheories.QuickTheory.qt;

import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.runners.RunnerInventory;
import io.infx.testing.InfxGenerators;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of a property over 200 configs from infx-testing's {@code InfxGenerators.masterConfigs}
 * (every topology, fixed-seq-len and AgentX blocks) on the runners.yaml of the conformance corpus:
 * generating only, and generating + {@code Catalog.load} of the YAML + {@code Generator.fullSweep}
 * (what a user's property does at least). Target: a few seconds per 200-sample property.
 *
 * Run: {@code java -jar benchmarks/target/benchmarks.jar GeneratedConfigsBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(1)
public class GeneratedConfigsBenchmark {

  private static final int SAMPLES = 200;

  private RunnerInventory runners;
  private long seed;

  @Setup(Level.Trial)
  public void setup() {
    runners = RunnerInventory.load(MatrixInputs.configs().resolve("runners.yaml"));
  }

  @Benchmark
  public long generate200() {
    AtomicLong entries = new AtomicLong();
    qt().withFixedSeed(++seed).withExamples(SAMPLES).forAll(InfxGenerators.masterConfigs(runners))
        .check(c -> entries.addAndGet(c.entries().size()) > 0);
    return entries.get();
  }

  @Benchmark
  public long generateLoadExpand200() {
    AtomicLong rows = new AtomicLong();
    qt().withFixedSeed(++seed).withExamples(SAMPLES).forAll(InfxGenerators.masterConfigs(runners))
        .check(c -> rows.addAndGet(Generator.fullSweep(c.catalog(), runners, FullSweepOptions.defaults()).size()) > 0);
    return rows.get();
  }
}
