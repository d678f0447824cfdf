package io.infx.matrix;

import io.infx.core.tree.Source;
import io.infx.matrix.config.AgenticEntry;
import io.infx.matrix.config.AgenticScenario;
import io.infx.matrix.config.AggregateWorker;
import io.infx.matrix.config.Component;
import io.infx.matrix.config.ImmutableAgenticEntry;
import io.infx.matrix.config.ImmutableMultiNodeEntry;
import io.infx.matrix.config.ImmutableMultiNodeScenarios;
import io.infx.matrix.config.ImmutableSingleNodeEntry;
import io.infx.matrix.config.ImmutableSingleNodeScenarios;
import io.infx.matrix.config.KvOffloading;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.MultiNodeEntry;
import io.infx.matrix.config.MultiNodeMaster;
import io.infx.matrix.config.MultiNodeSeqLen;
import io.infx.matrix.config.OffloadBackend;
import io.infx.matrix.config.SingleNodeEntry;
import io.infx.matrix.config.SingleNodeMaster;
import io.infx.matrix.config.SingleNodeSeqLen;
import io.infx.matrix.config.SpecDecoding;
import io.infx.matrix.config.Worker;
import io.infx.matrix.runners.RunnerInventory;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A seeded generator of <em>valid</em> master configs, for property-testing code that consumes
 * configs or matrices with any test framework (QuickTheories, jqwik-free JUnit loops, ...): the same
 * seed always gives the same configs. Configs cover single-node fixed-seq-len (ranges, lists, EP,
 * DP-attention, DCP, speculative decoding, routers), single-node AgentX (with and without DRAM
 * offload), and multi-node disaggregated and aggregated deployments; all run on the labels and
 * clusters of {@link #runners()}.
 *
 * <pre>{@code
 * ConfigSamples samples = ConfigSamples.seeded(42);
 * Catalog catalog = samples.catalog(20);
 * Matrix m = Generator.fullSweep(catalog, ConfigSamples.runners(), FullSweepOptions.defaults());
 * }</pre>
 */
public final class ConfigSamples {

  private static final String RUNNERS_YAML = """
      labels:
        h100: [h100-a_00, h100-a_01]
        h200: [h200-b_00]
        b200: [b200-c_00, b200-c_01]
        gb200: [gb200-d_00, gb200-d_01, gb200-d_02, gb200-d_03]
        cluster:h100-a: [h100-a_00, h100-a_01]
        cluster:h200-b: [h200-b_00]
        cluster:b200-c: [b200-c_00, b200-c_01]
        cluster:gb200-d: [gb200-d_00, gb200-d_01, gb200-d_02, gb200-d_03]
      clusters:
        h100-a: {gpus-per-node: 8, available-cpu-dram-mib: 1_998_848, arch: x86_64, scheduler: slurm,
                 slurm: {partition: h100, exclusive: false}}
        h200-b: {gpus-per-node: 8, available-cpu-dram-mib: 1_471_356, arch: x86_64, scheduler: slurm,
                 slurm: {partition: h200, exclusive: false}}
        b200-c: {gpus-per-node: 8, available-cpu-dram-mib: 2_063_920, arch: x86_64, scheduler: slurm,
                 slurm: {partition: b200, exclusive: true}}
        gb200-d: {gpus-per-node: 4, available-cpu-dram-mib: 860_160, arch: aarch64, scheduler: slurm,
                  slurm: {partition: batch, exclusive: false}}
      """;
  private static final String[] LABELS = {"h100", "h200", "b200", "cluster:h100-a", "cluster:h200-b", "cluster:b200-c"};
  private static final String[] CLUSTERS = {"cluster:h100-a", "cluster:h200-b", "cluster:b200-c"};
  private static final String[] FRAMEWORKS = {"vllm", "sglang", "trt", "atom"};
  private static final String[] PREFIXES = {"dsr1", "qwen3.5", "glm5", "llama", "gptoss"};
  private static final String[] PRECISIONS = {"fp4", "fp8", "bf16"};
  private static final int[][] SEQ = {{8192, 1024}, {1024, 1024}, {1024, 8192}};
  private static final int[] TP = {1, 2, 4, 8};

  private static volatile RunnerInventory runners;

  private final SplittableRandom random;
  private int counter;

  private ConfigSamples(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** A generator whose sequence of configs is fixed by {@code seed}. */
  public static ConfigSamples seeded(long seed) {
    return new ConfigSamples(seed);
  }

  /** The runner inventory every sample config runs on (four labels, four clusters). */
  public static RunnerInventory runners() {
    RunnerInventory r = runners;
    if (r == null) {
      r = RunnerInventory.load(Source.text("config-samples-runners.yaml", RUNNERS_YAML));
      runners = r;
    }
    return r;
  }

  /** The next config, keyed by the catalogue convention plus a serial number. */
  public Map.Entry<String, MasterConfig> next() {
    int kind = random.nextInt(10);
    MasterConfig c = kind < 5 ? singleNodeFixed() : kind < 7 ? singleNodeAgentic() : kind < 9 ? disaggregated()
        : aggregated();
    String key = c.modelPrefix() + "-" + c.precision() + "-" + c.runner().replace("cluster:", "") + "-"
        + c.framework() + "-" + (++counter);
    return Map.entry(key, c);
  }

  /** A catalogue of the next {@code configs} configs. */
  public Catalog catalog(int configs) {
    Map<String, MasterConfig> out = new LinkedHashMap<>();
    for (int i = 0; i < configs; i++) {
      Map.Entry<String, MasterConfig> e = next();
      out.put(e.getKey(), e.getValue());
    }
    return Catalog.of(out);
  }

  /**
   * A catalogue of single-node 8k1k configs that {@code Generator.fullSweep} with default options
   * expands to exactly {@code rows} rows (each entry a list of distinct concurrencies, one label
   * runner per config). Used by the 100,000-row benchmark ({@code sized(42, 100_000)}).
   */
  public static Catalog sized(long seed, int rows) {
    ConfigSamples s = seeded(seed);
    Map<String, MasterConfig> out = new LinkedHashMap<>();
    int left = rows;
    while (left > 0) {
      List<SingleNodeEntry> entries = new ArrayList<>();
      int n = 1 + s.random.nextInt(8);
      for (int i = 0; i < n && left > 0; i++) {
        int k = Math.min(left, 1 + s.random.nextInt(16));
        Set<Integer> values = new LinkedHashSet<>();
        while (values.size() < k) {
          values.add(1 + s.random.nextInt(1024));
        }
        left -= k;
        entries.add(s.topology(SingleNodeEntry.builder()).concList(List.copyOf(values)).build());
      }
      SingleNodeMaster c = s.identity(SingleNodeMaster.builder(), s.pick(new String[] {"h100", "h200", "b200"}))
          .multinode(false)
          .scenarios(ImmutableSingleNodeScenarios.builder().addFixedSeqLen(SingleNodeSeqLen.builder()
              .isl(8192).osl(1024).searchSpace(entries).build()).build())
          .build();
      out.put(c.modelPrefix() + "-" + c.precision() + "-" + c.runner() + "-" + c.framework() + "-" + (++s.counter), c);
    }
    return Catalog.of(out);
  }

  private String pick(String[] values) {
    return values[random.nextInt(values.length)];
  }

  private <B extends io.infx.matrix.config.ImmutableSingleNodeMaster.Builder> B identity(B b, String runner) {
    b.image("example/" + pick(FRAMEWORKS) + ":" + random.nextInt(1, 20) + "." + random.nextInt(10))
        .model("org/model-" + random.nextInt(100)).modelPrefix(pick(PREFIXES)).precision(pick(PRECISIONS))
        .framework(pick(FRAMEWORKS)).runner(runner);
    return b;
  }

  private ImmutableSingleNodeEntry.Builder topology(ImmutableSingleNodeEntry.Builder b) {
    int tp = TP[random.nextInt(TP.length)];
    b.tp(tp);
    if (random.nextInt(3) == 0) {
      b.ep(random.nextBoolean() ? tp : 1);
    }
    if (random.nextInt(4) == 0) {
      b.dpAttn(random.nextBoolean());
    }
    if (random.nextInt(4) == 0) {
      b.specDecoding(SpecDecoding.values()[random.nextInt(3)]);
    }
    if (random.nextInt(6) == 0) {
      b.dcpSize(tp >= 2 ? 2 : 1);
    }
    if (random.nextInt(8) == 0) {
      b.router(Component.of("router", "0." + random.nextInt(10)));
    }
    return b;
  }

  private void concurrency(ImmutableSingleNodeEntry.Builder b) {
    if (random.nextBoolean()) {
      int start = 1 << random.nextInt(4);
      b.concStart(start).concEnd(start + random.nextInt(512));
    } else {
      b.concList(list(1 + random.nextInt(5)));
    }
  }

  private List<Integer> list(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(1 + random.nextInt(512));
    }
    return out;
  }

  private SingleNodeMaster singleNodeFixed() {
    List<SingleNodeSeqLen> blocks = new ArrayList<>();
    int nblocks = 1 + random.nextInt(2);
    for (int i = 0; i < nblocks; i++) {
      int[] seq = SEQ[random.nextInt(SEQ.length)];
      List<SingleNodeEntry> entries = new ArrayList<>();
      int n = 1 + random.nextInt(4);
      for (int j = 0; j < n; j++) {
        ImmutableSingleNodeEntry.Builder b = topology(SingleNodeEntry.builder());
        concurrency(b);
        entries.add(b.build());
      }
      blocks.add(SingleNodeSeqLen.builder().isl(seq[0]).osl(seq[1]).searchSpace(entries).build());
    }
    return identity(SingleNodeMaster.builder(), pick(LABELS)).multinode(false)
        .scenarios(ImmutableSingleNodeScenarios.builder().fixedSeqLen(blocks).build()).build();
  }

  private SingleNodeMaster singleNodeAgentic() {
    List<AgenticEntry> entries = new ArrayList<>();
    boolean dram = false;
    int n = 1 + random.nextInt(3);
    for (int j = 0; j < n; j++) {
      ImmutableAgenticEntry.Builder b = AgenticEntry.builder().tp(TP[random.nextInt(TP.length)]);
      if (random.nextBoolean()) {
        b.kvOffloading(KvOffloading.DRAM).kvOffloadBackend(OffloadBackend.of(random.nextBoolean() ? "lmcache" : "hicache"));
        dram = true;
      } else {
        b.kvOffloading(KvOffloading.NONE);
      }
      if (random.nextInt(3) == 0) {
        b.specDecoding(SpecDecoding.MTP);
      }
      b.concList(list(1 + random.nextInt(4)));
      entries.add(b.build());
    }
    AgenticScenario scenario = AgenticScenario.builder().searchSpace(entries)
        .dramUtilization(dram ? java.util.Optional.of(BigDecimal.valueOf(1 + random.nextInt(9), 1))
            : java.util.Optional.empty())
        .build();
    return identity(SingleNodeMaster.builder(), pick(CLUSTERS)).multinode(false)
        .scenarios(ImmutableSingleNodeScenarios.builder().addAgenticCoding(scenario).build()).build();
  }

  private Worker worker(int gpusPerNode) {
    int tp = random.nextBoolean() ? gpusPerNode : gpusPerNode * (1 + random.nextInt(2));
    return Worker.builder().numWorker(1 + random.nextInt(3)).tp(tp).ep(random.nextBoolean() ? tp : 1)
        .dpAttn(random.nextBoolean()).build();
  }

  private MultiNodeMaster disaggregated() {
    boolean gb = random.nextBoolean();
    int g = gb ? 4 : 8;
    List<MultiNodeEntry> entries = new ArrayList<>();
    int n = 1 + random.nextInt(3);
    for (int j = 0; j < n; j++) {
      ImmutableMultiNodeEntry.Builder b = MultiNodeEntry.builder().prefill(worker(g)).decode(worker(g));
      if (random.nextBoolean()) {
        b.concList(list(1 + random.nextInt(4)));
      } else {
        b.concStart(4).concEnd(4 + random.nextInt(1024));
      }
      entries.add(b.build());
    }
    return multi(gb ? "cluster:gb200-d" : "cluster:h100-a", true)
        .kvP2pTransfer("nixl")
        .scenarios(ImmutableMultiNodeScenarios.builder().addFixedSeqLen(MultiNodeSeqLen.builder()
            .isl(8192).osl(1024).searchSpace(entries).build()).build())
        .build();
  }

  private MultiNodeMaster aggregated() {
    List<MultiNodeEntry> entries = new ArrayList<>();
    int n = 1 + random.nextInt(2);
    for (int j = 0; j < n; j++) {
      int tp = 4 * (1 + random.nextInt(4));
      entries.add(MultiNodeEntry.builder()
          .worker(AggregateWorker.builder().tp(tp).ep(tp).dpAttn(random.nextBoolean()).build())
          .numNodes(Math.max(1, tp / 4))
          .concList(list(1 + random.nextInt(4)))
          .build());
    }
    return multi("cluster:gb200-d", false)
        .scenarios(ImmutableMultiNodeScenarios.builder().addFixedSeqLen(MultiNodeSeqLen.builder()
            .isl(8192).osl(1024).searchSpace(entries).build()).build())
        .build();
  }

  private io.infx.matrix.config.ImmutableMultiNodeMaster.Builder multi(String runner, boolean disagg) {
    return MultiNodeMaster.builder()
        .image("example/dynamo:" + random.nextInt(1, 9) + "." + random.nextInt(10))
        .model("org/model-" + random.nextInt(100)).modelPrefix(pick(PREFIXES)).precision(pick(PRECISIONS))
        .framework("dynamo-" + pick(new String[] {"trt", "sglang", "vllm"})).runner(runner)
        .multinode(true).disagg(disagg);
  }
}
