package io.infx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Reporter;

class InfxGeneratorsTest {

  /** A team's runners.yaml: an 8-GPU label and a 4-GPU cluster label. */
  static final RunnerInventory RUNNERS = RunnerInventory.load(Source.text("runners.yaml", """
      labels:
        h100: [h100-a_00, h100-a_01]
        cluster:h100-a: [h100-a_00, h100-a_01]
        cluster:gb200-d: [gb200-d_00]
      clusters:
        h100-a: {gpus-per-node: 8, available-cpu-dram-mib: 1998848, arch: x86_64, scheduler: slurm,
                 slurm: {partition: h100, exclusive: false}}
        gb200-d: {gpus-per-node: 4, available-cpu-dram-mib: 860160, arch: aarch64, scheduler: slurm,
                  slurm: {partition: batch, exclusive: false}}
      """));

  @Test
  void everyGeneratedConfigValidatesAndExpandsToItsOwnConcurrencies() {
    qt().withFixedSeed(7).withExamples(200).forAll(InfxGenerators.masterConfigs(RUNNERS)).checkAssert(c -> {
      Catalog catalog = c.catalog();
      assertThat(catalog.keys()).containsExactly(c.key());
      Matrix m = Generator.fullSweep(catalog, RUNNERS, FullSweepOptions.defaults());
      InfxAssertions.assertThat(m).isNotEmpty()
          .allRowsSatisfy(row -> assertThat(row.runner()).isEqualTo(c.runner()))
          .allRowsMatch(row -> row instanceof MatrixRow.OnOneNode n
              && n.tp() <= InfxGenerators.gpusPerNode(RUNNERS, c.runner()),
              "tp fits the runner's node");
      // every conc-list value appears as a row concurrency (ranges expand by doubling from conc-start)
      List<Integer> concs = m.rows().stream().flatMap(r -> r.conc().stream()).toList();
      for (GeneratedConfig.Entry e : c.entries()) {
        if (e.concStart().isPresent()) {
          assertThat(concs).contains(e.concStart().getAsInt());
        } else {
          assertThat(concs).containsAll(e.concList());
        }
      }
    });
  }

  @Test
  void runnersAreTheTeamsLabelsAndTpFitsTheirNodes() {
    List<String> seen = new ArrayList<>();
    qt().withFixedSeed(11).withExamples(300).forAll(InfxGenerators.masterConfigs(RUNNERS)).checkAssert(c -> {
      seen.add(c.runner());
      int gpus = c.runner().equals("cluster:gb200-d") ? 4 : 8;
      assertThat(c.entries()).allSatisfy(e -> assertThat(e.tp()).isLessThanOrEqualTo(gpus));
    });
    assertThat(seen).contains("h100", "cluster:h100-a", "cluster:gb200-d");
  }

  @Test
  void aFalsePropertyShrinksToTheSmallestCounterexample() {
    // False property: "no entry asks for concurrency 100 or more". The smallest counterexample is one
    // block with one entry whose only concurrency is exactly 100 on the first label with tp 1.
    AtomicReference<Object> smallest = new AtomicReference<>();
    Reporter capture = new Reporter() {
      @Override
      public void falisification(long seed, int examples, Object value, Throwable cause, List<Object> history,
          AsString<Object> toString) {
        smallest.set(value);
      }

      @Override
      public void falisification(long seed, int examples, Object value, List<Object> history,
          AsString<Object> toString) {
        smallest.set(value);
      }

      @Override
      public void valuesExhausted(int examples) {}
    };
    qt().withFixedSeed(3).withExamples(500).withShrinkCycles(10_000).withReporter(capture)
        .forAll(InfxGenerators.masterConfigs(RUNNERS))
        .check(c -> c.entries().stream().allMatch(e -> e.maxConc() < 100));

    GeneratedConfig c = (GeneratedConfig) smallest.get();
    assertThat(c).as("a counterexample was found").isNotNull();
    assertThat(c.blocks()).hasSize(1);
    assertThat(c.entries()).hasSize(1);
    GeneratedConfig.Entry e = c.entries().get(0);
    assertThat(e.maxConc()).isEqualTo(100);
    assertThat(e.tp()).isEqualTo(1);
    assertThat(e.ep()).isEmpty();
    assertThat(e.dpAttn()).isEmpty();
    assertThat(c.runner()).isEqualTo("h100");
    // and the shrunk config is still a valid one
    assertThat(c.catalog().size()).isEqualTo(1);
  }

  @Test
  void aFalsePropertyFailsWithQuickTheoriesReportOfTheShrunkConfig() {
    assertThatThrownBy(() -> qt().withFixedSeed(3).withExamples(200)
        .forAll(InfxGenerators.masterConfigs(RUNNERS))
        .check(c -> c.entries().stream().allMatch(e -> e.tp() < 4)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Property falsified")
        .hasMessageContaining("tp=4 conc=[1]]");
  }

  @Test
  void runnersWithoutLabelsAreRejected() {
    RunnerInventory none = RunnerInventory.load(Source.text("empty.yaml", "labels: {}\nclusters: {}\n"));
    assertThatThrownBy(() -> InfxGenerators.masterConfigs(none)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no labels");
  }
}
