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
import io.infx.matrix.RowKind;
import io.infx.matrix.config.KvOffloading;
import io.infx.matrix.runners.RunnerInventory;
import io.infx.testing.GeneratedConfig.Aggregated;
import io.infx.testing.GeneratedConfig.Disaggregated;
import io.infx.testing.GeneratedConfig.Entry;
import io.infx.testing.GeneratedConfig.KvOffload;
import io.infx.testing.GeneratedConfig.OnOneNode;
import io.infx.testing.GeneratedConfig.NodeLayout;
import io.infx.testing.GeneratedConfig.WorkerPool;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Gen;
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

  /**
   * A fleet with the cases that narrow the choice of runner: {@code b200} spans two clusters with
   * different GPUs per node (its family is ambiguous, so a disaggregated row's node count cannot be
   * resolved on it, V59); {@code cluster:mi355x-e} states no host DRAM (no DRAM offload there, V55);
   * {@code mi355x-disagg} is no cluster label but resolves through its family.
   */
  static final RunnerInventory FLEET = RunnerInventory.load(Source.text("fleet.yaml", """
      labels:
        b200: [b200-x_0, b200-y_0]
        mi355x-disagg: [mi355x-e_0]
        cluster:b200-x: [b200-x_0]
        cluster:b200-y: [b200-y_0]
        cluster:mi355x-e: [mi355x-e_0]
      clusters:
        b200-x: {gpus-per-node: 8, available-cpu-dram-mib: 2063920, arch: x86_64, scheduler: slurm,
                 slurm: {partition: b200, exclusive: false}}
        b200-y: {gpus-per-node: 4, available-cpu-dram-mib: 860160, arch: aarch64, scheduler: slurm,
                 slurm: {partition: b200, exclusive: false}}
        mi355x-e: {gpus-per-node: 8, arch: x86_64, scheduler: slurm, slurm: {partition: mi, exclusive: false}}
      """));

  /** Which scenario lists a config has, for the distribution. */
  static String scenarios(GeneratedConfig c) {
    return c.blocks().isEmpty() ? "agentic" : c.agenticBlocks().isEmpty() ? "fixed" : "both";
  }

  /** GPUs per node of the test fleets' labels, written out by hand from the two files above. */
  static final Map<String, Integer> GPUS = Map.of("h100", 8, "cluster:h100-a", 8, "cluster:gb200-d", 4,
      "b200", 4, "mi355x-disagg", 8, "cluster:b200-x", 8, "cluster:b200-y", 4, "cluster:mi355x-e", 8);

  static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /**
   * The property over every kind: the YAML validates, expands, and every row is what the typed
   * config says — its kind, runner, topology (tp or workers), node count, DRAM budget and points.
   */
  static void validatesAndExpandsAsDeclared(GeneratedConfig c, RunnerInventory runners) {
    Catalog catalog = c.catalog();
    assertThat(catalog.keys()).containsExactly(c.key());
    assertThat(catalog.configs().get(c.key()).multinode()).isEqualTo(c.layout().multinode());
    Matrix m = Generator.fullSweep(catalog, runners, FullSweepOptions.defaults());
    InfxAssertions.assertThat(m).isNotEmpty().hasRowKindsExactly(c.rowKinds())
        .allRowsSatisfy(row -> assertThat(row.runner()).isEqualTo(c.runner()));
    int g = GPUS.get(c.runner());
    List<Integer> concs = new ArrayList<>();
    for (MatrixRow row : m) {
      concs.addAll(row.conc());
      if (row instanceof MatrixRow.OnOneNode n) {
        assertThat(n.tp()).as("single-node tp fits the node").isLessThanOrEqualTo(g);
        assertThat(c.entries()).as("an entry with the row's tp and dcp-size").contains(entryWith(c, e ->
            e instanceof OnOneNode o && o.tp() == n.tp() && o.dcpSize().orElse(1) == n.dcpSize()));
      } else if (row instanceof MatrixRow.OnManyNodes n) {
        assertThat(n.disagg()).isEqualTo(c.layout().disagg());
        if (c.layout() == NodeLayout.DISAGGREGATED) {
          assertThat(n.kvP2pTransfer()).isEqualTo(c.kvP2pTransfer());
          WorkerPool p = new WorkerPool(n.prefill().numWorker(), n.prefill().tp(), n.prefill().ep(), n.prefill().dpAttn(),
              n.prefill().dcpSize());
          WorkerPool d = new WorkerPool(n.decode().numWorker(), n.decode().tp(), n.decode().ep(), n.decode().dpAttn(),
              n.decode().dcpSize());
          assertThat(c.entries()).contains(entryWith(c, e -> e instanceof Disaggregated x
              && x.prefill().equals(p) && x.decode().equals(d)));
          assertThat(n.nodeCount()).as("node-count = ceil(prefill GPUs / G) + ceil(decode GPUs / G)")
              .isEqualTo(ceilDiv(p.gpus(), g) + ceilDiv(d.gpus(), g));
        } else {
          WorkerPool w = new WorkerPool(n.prefill().numWorker(), n.prefill().tp(), n.prefill().ep(), n.prefill().dpAttn(),
              n.prefill().dcpSize());
          assertThat(n.decode().numWorker()).as("aggregated decode role").isZero();
          assertThat(c.entries()).contains(entryWith(c, e -> e instanceof Aggregated x && x.worker().equals(w)
              && x.numNodes() == n.nodeCount()));
        }
      }
      if (row instanceof MatrixRow.Agentic a) {
        boolean dram = a.kvOffloading().equals("dram");
        assertThat(a.totalCpuDramGb() > 0).as("a DRAM budget exactly when offloading to DRAM").isEqualTo(dram);
      }
    }
    // every conc-list value appears as a row concurrency (ranges expand by doubling from conc-start)
    for (Entry e : c.entries()) {
      if (e.concStart().isPresent()) {
        assertThat(concs).contains(e.concStart().getAsInt(), e.concEnd().getAsInt());
      } else {
        assertThat(concs).containsAll(e.concList());
      }
    }
  }

  static Entry entryWith(GeneratedConfig c, Predicate<Entry> p) {
    return c.entries().stream().filter(p).findFirst().orElse(null);
  }

  @Test
  void everyKindIsGeneratedValidatesAndExpandsAsDeclared() {
    Map<NodeLayout, Map<String, Integer>> seen = new EnumMap<>(NodeLayout.class);
    Set<RowKind> rowKinds = EnumSet.noneOf(RowKind.class);
    int[] dram = {0};
    qt().withFixedSeed(7).withExamples(300).forAll(InfxGenerators.masterConfigs(RUNNERS)).checkAssert(c -> {
      validatesAndExpandsAsDeclared(c, RUNNERS);
      seen.computeIfAbsent(c.layout(), t -> new TreeMap<>()).merge(scenarios(c), 1, Integer::sum);
      rowKinds.addAll(c.rowKinds());
      if (c.entries().stream().anyMatch(e -> e.kvOffload().map(kv -> kv.mode() == KvOffloading.DRAM).orElse(false))) {
        dram[0]++;
      }
    });
    // each topology with each scenario mix, every row kind, and DRAM offload, in a few hundred samples
    assertThat(seen).containsOnlyKeys(NodeLayout.values());
    seen.forEach((t, mix) -> assertThat(mix).as(t.name()).containsOnlyKeys("fixed", "agentic", "both")
        .allSatisfy((k, n) -> assertThat(n).as(t + " " + k).isGreaterThanOrEqualTo(10)));
    assertThat(rowKinds).containsExactlyInAnyOrder(RowKind.values());
    assertThat(dram[0]).isGreaterThanOrEqualTo(20);
  }

  @Test
  void runnersAreNarrowedByWhatEachKindNeeds() {
    Map<String, Set<String>> labelsByKind = new TreeMap<>();
    qt().withFixedSeed(13).withExamples(300).forAll(InfxGenerators.masterConfigs(FLEET)).checkAssert(c -> {
      validatesAndExpandsAsDeclared(c, FLEET);
      String kind = c.isAgentic() ? "agentic" : c.layout().name();
      labelsByKind.computeIfAbsent(kind, k -> new java.util.TreeSet<>()).add(c.runner());
      if (c.runner().equals("cluster:mi355x-e")) {
        assertThat(c.entries()).allSatisfy(e -> assertThat(e.kvOffload().map(KvOffload::mode))
            .isNotEqualTo(Optional.of(KvOffloading.DRAM)));
      }
    });
    assertThat(labelsByKind.get("agentic")).containsExactlyInAnyOrder("cluster:b200-x", "cluster:b200-y",
        "cluster:mi355x-e");
    assertThat(labelsByKind.get("DISAGGREGATED")).containsExactlyInAnyOrder("mi355x-disagg", "cluster:b200-x",
        "cluster:b200-y", "cluster:mi355x-e");
    assertThat(labelsByKind.get("SINGLE_NODE")).contains("b200", "mi355x-disagg");
    assertThat(labelsByKind.get("AGGREGATED")).contains("b200");
  }

  @Test
  void singleNodeConfigsOnlyWhenAskedAndTpFitsTheirNodes() {
    List<String> seen = new ArrayList<>();
    qt().withFixedSeed(11).withExamples(300).forAll(InfxGenerators.masterConfigs(RUNNERS, NodeLayout.SINGLE_NODE))
        .checkAssert(c -> {
          seen.add(c.runner());
          assertThat(c.layout()).isEqualTo(NodeLayout.SINGLE_NODE);
          int gpus = c.runner().equals("cluster:gb200-d") ? 4 : 8;
          assertThat(c.entries()).allSatisfy(e -> assertThat(((OnOneNode) e).tp()).isLessThanOrEqualTo(gpus));
        });
    assertThat(seen).contains("h100", "cluster:h100-a", "cluster:gb200-d");
  }

  /** Shrink attempts: each changes one random draw of a few hundred, so exact boundaries take many. */
  static final int SHRINK_CYCLES = 40_000;

  /** Runs {@code property} until falsified and returns QuickTheories' shrunk counterexample. */
  static GeneratedConfig shrunk(Gen<GeneratedConfig> gen, long seed, Predicate<GeneratedConfig> property) {
    AtomicReference<Object> smallest = new AtomicReference<>();
    Reporter capture = new Reporter() {
      @Override
      public void falisification(long s, int examples, Object value, Throwable cause, List<Object> history,
          AsString<Object> toString) {
        smallest.set(value);
      }

      @Override
      public void falisification(long s, int examples, Object value, List<Object> history,
          AsString<Object> toString) {
        smallest.set(value);
      }

      @Override
      public void valuesExhausted(int examples) {}
    };
    qt().withFixedSeed(seed).withExamples(500).withShrinkCycles(SHRINK_CYCLES).withReporter(capture)
        .forAll(gen).check(property);
    assertThat(smallest.get()).as("a counterexample was found").isNotNull();
    GeneratedConfig c = (GeneratedConfig) smallest.get();
    // the shrunk config is still a valid one
    validatesAndExpandsAsDeclared(c, RUNNERS);
    return c;
  }

  static final WorkerPool ONE = new WorkerPool(1, 1, 1, false);

  @Test
  void aFalsePropertyShrinksToTheSmallestCounterexample() {
    // "no entry asks for concurrency 100 or more": smallest = one single-node block with one entry
    // whose only concurrency is exactly 100, on the first label, tp 1, no optional keys
    GeneratedConfig c = shrunk(InfxGenerators.masterConfigs(RUNNERS), 3,
        x -> x.entries().stream().allMatch(e -> e.maxConc() < 100));
    assertThat(c.layout()).isEqualTo(NodeLayout.SINGLE_NODE);
    assertThat(c.agenticBlocks()).isEmpty();
    assertThat(c.blocks()).hasSize(1);
    assertThat(c.entries()).containsExactly(new OnOneNode(1, OptionalInt.empty(), Optional.empty(),
        Optional.empty(), Optional.empty(), GeneratedConfig.Conc.list(List.of(100))));
    assertThat(c.runner()).isEqualTo("h100");
  }

  @Test
  void decodeWorkersShrinkToOneDisaggregatedEntryWithTwoDecodeWorkers() {
    // planted: "no multi-node config has decode workers > 1"
    GeneratedConfig c = shrunk(InfxGenerators.masterConfigs(RUNNERS), 5,
        x -> x.entries().stream().noneMatch(e -> e instanceof Disaggregated d && d.decode().numWorker() > 1));
    assertThat(c.layout()).isEqualTo(NodeLayout.DISAGGREGATED);
    assertThat(c.kvP2pTransfer()).contains("nixl");
    assertThat(c.runner()).isEqualTo("h100");
    assertThat(c.agenticBlocks()).isEmpty();
    assertThat(c.blocks()).hasSize(1);
    assertThat(c.entries()).containsExactly(new Disaggregated(ONE, new WorkerPool(2, 1, 1, false), Optional.empty(),
        Optional.empty(), GeneratedConfig.Conc.list(List.of(1))));
    assertThat(c.toString()).endsWith("DISAGGREGATED nixl, 1024/1024: [p1x1 d2x1 conc=[1]]]");
  }

  @Test
  void searchEntriesShrinkToThreeSmallestEntries() {
    // planted: "no config has more than 2 search entries": three entries as small as an entry gets, in
    // fixed-seq-len blocks on the first label. Blocks are not merged by shrinking, so the three may
    // sit in one block or two (seeds 101-110 give both).
    GeneratedConfig c = shrunk(InfxGenerators.masterConfigs(RUNNERS), 9, x -> x.entries().size() <= 2);
    assertThat(c.layout()).isEqualTo(NodeLayout.SINGLE_NODE);
    assertThat(c.agenticBlocks()).isEmpty();
    assertThat(c.runner()).isEqualTo("h100");
    assertThat(c.blocks()).hasSizeBetween(1, 2).allSatisfy(b -> assertThat(b.isl()).isEqualTo(1024));
    assertThat(c.entries()).hasSize(3).allSatisfy(e -> assertThat(e).isEqualTo(new OnOneNode(1,
        OptionalInt.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        GeneratedConfig.Conc.list(List.of(1)))));
  }

  @Test
  void dramOffloadShrinksToOneSingleNodeAgenticEntry() {
    // planted: "no agentic entry offloads KV cache to DRAM"
    GeneratedConfig c = shrunk(InfxGenerators.masterConfigs(RUNNERS), 17,
        x -> x.agenticEntries().stream().noneMatch(e -> e.kvOffload().map(kv -> kv.mode() == KvOffloading.DRAM)
            .orElse(false)));
    assertThat(c.layout()).isEqualTo(NodeLayout.SINGLE_NODE);
    assertThat(c.blocks()).isEmpty();
    assertThat(c.runner()).isEqualTo("cluster:h100-a");
    assertThat(c.agenticBlocks()).containsExactly(new GeneratedConfig.AgenticBlock(
        Optional.of(new BigDecimal("0.5")), List.of(new OnOneNode(1, OptionalInt.empty(), Optional.empty(),
            Optional.empty(), Optional.of(new KvOffload(KvOffloading.DRAM, Optional.of("lmcache"))),
            GeneratedConfig.Conc.list(List.of(1))))));
  }

  @Test
  void aFalsePropertyFailsWithQuickTheoriesReportOfTheShrunkConfig() {
    assertThatThrownBy(() -> qt().withFixedSeed(3).withExamples(200)
        .forAll(InfxGenerators.masterConfigs(RUNNERS, NodeLayout.SINGLE_NODE))
        .check(c -> c.entries().stream().allMatch(e -> ((OnOneNode) e).tp() < 4)))
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

  @Test
  void theYamlOfATypedConfigIsWhatAUserWouldWrite() {
    GeneratedConfig c = new GeneratedConfig("p-fp8-gb200-d-dynamo-sglang", "img:1", "org/m", "p", "fp8",
        "dynamo-sglang", "cluster:gb200-d", NodeLayout.DISAGGREGATED, Optional.of("nixl"), List.of(),
        List.of(new GeneratedConfig.AgenticBlock(Optional.of(new BigDecimal("0.5")), List.of(new Disaggregated(
            new WorkerPool(2, 4, 4, true), new WorkerPool(1, 8, 8, true), Optional.empty(),
            Optional.of(new KvOffload(KvOffloading.DRAM, Optional.of("hicache"))),
            GeneratedConfig.Conc.list(List.of(8, 32)))))));
    assertThat(c.yaml()).isEqualTo("""
        p-fp8-gb200-d-dynamo-sglang:
          image: "img:1"
          model: org/m
          model-prefix: p
          precision: fp8
          framework: dynamo-sglang
          runner: cluster:gb200-d
          multinode: true
          disagg: true
          kv-p2p-transfer: nixl
          scenarios:
            agentic-coding:
            - dram-utilization: 0.5
              search-space:
              - prefill:
                  num-worker: 2
                  tp: 4
                  ep: 4
                  dp-attn: true
                decode:
                  num-worker: 1
                  tp: 8
                  ep: 8
                  dp-attn: true
                kv-offloading: dram
                kv-offload-backend: {name: hicache}
                conc-list: [8, 32]
        """);
    // the reference's worked example (spec §10 case 14): names and the DRAM budget of 450 GB
    Matrix m = Generator.fullSweep(c.catalog(), RUNNERS, FullSweepOptions.defaults());
    assertThat(m.rows()).extracting(MatrixRow::expName).containsExactly(
        "p_p2x4ep4dpa_d1x8ep8dpa_conc8_kvdram-hicache", "p_p2x4ep4dpa_d1x8ep8dpa_conc32_kvdram-hicache");
    InfxAssertions.assertThat(m).allRowsSatisfy(row -> assertThat(((MatrixRow.Agentic) row).totalCpuDramGb())
        .isEqualTo(450));
  }
}
