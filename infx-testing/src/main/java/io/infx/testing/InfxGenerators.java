package io.infx.testing;

import static org.quicktheories.generators.SourceDSL.lists;

import io.infx.matrix.config.KvOffloading;
import io.infx.matrix.config.SpecDecoding;
import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.RunnerInventory;
import io.infx.testing.GeneratedConfig.AgenticBlock;
import io.infx.testing.GeneratedConfig.Block;
import io.infx.testing.GeneratedConfig.Conc;
import io.infx.testing.GeneratedConfig.Entry;
import io.infx.testing.GeneratedConfig.KvOffload;
import io.infx.testing.GeneratedConfig.NodeLayout;
import io.infx.testing.GeneratedConfig.WorkerPool;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators of <em>valid</em> master configs for a team's own {@code runners.yaml}:
 * every value passes infx-matrix's validation (V1–V42, and a team's rules are the team's business)
 * and expands with {@link io.infx.matrix.Generator#fullSweep} (the generation-time rules V55–V59
 * hold too: DRAM facts, node fit, node counts).
 *
 * <pre>{@code
 * RunnerInventory runners = RunnerInventory.load(Path.of("runners.yaml"));
 * qt().forAll(InfxGenerators.masterConfigs(runners))
 *     .checkAssert(c -> assertThat(c.catalog().size()).isEqualTo(1));
 * }</pre>
 *
 * <p><b>What is generated.</b> Every {@link NodeLayout} (single node; multi-node disaggregated prefill
 * and decode workers with a {@code kv-p2p-transfer}; multi-node aggregated {@code worker} with
 * {@code num-nodes}) with {@code fixed-seq-len} blocks, {@code agentic-coding} (AgentX) blocks, or
 * both. Entries vary tp, ep (1 or tp), dp-attn, dcp-size (a divisor of tp), spec-decoding, worker counts, KV offload (none or
 * DRAM with a backend and a {@code dram-utilization}) and a concurrency list or range.
 *
 * <p><b>What the runners.yaml decides.</b> The runner is one of its labels: any label for
 * single-node and aggregated fixed-seq-len configs; for disaggregated ones a label whose GPUs per
 * node resolve (its {@code cluster:} record, else the one value of its GPU family, rule V59); for
 * agentic ones a {@code cluster:} label (V20), and DRAM offload only where that cluster states
 * {@code available-cpu-dram-mib} (V55). Single-node tp is a power of two no larger than the GPUs per
 * node G of the label (the smallest G among its clusters; 8 when none is known); a multi-node
 * worker's tp is a power of two dividing G, G itself or 2·G, so a DRAM-offloading prefill tiles
 * whole nodes (V57). A layout for which the file has no eligible label is not generated.
 *
 * <p><b>Shrinking</b> is QuickTheories' own, on every choice: towards the first (layout,
 * scenarios) option — single node, fixed-seq-len only — then the first eligible label, one block,
 * one entry, the smallest tp, ep 1, no dp-attn, no spec-decoding, one worker per role, KV offload
 * off, and concurrency 1; so a failing property reports a small config of the kind that fails.
 * Every choice is drawn whatever was chosen before it (no {@code flatMap}), so each shrinks on its
 * own; any element of a list (blocks, entries, conc-list values) can be dropped, not only the last;
 * an agentic block can turn into a fixed-seq-len one and a conc range into a list without losing the
 * entries or the largest concurrency a property fails on. QuickTheories changes one random draw per shrink attempt: to reach an exact boundary in a
 * wide range (a concurrency of exactly 100 rather than 102), raise {@code withShrinkCycles} (this
 * module's tests use 40 000, a few seconds).
 */
public final class InfxGenerators {

  private static final List<int[]> SEQ_LENS = List.of(new int[] {1024, 1024}, new int[] {8192, 1024},
      new int[] {1024, 8192});
  private static final List<String> FRAMEWORKS = List.of("vllm", "sglang", "trt");
  private static final List<String> MULTI_NODE_FRAMEWORKS = List.of("dynamo-sglang", "dynamo-trt", "dynamo-vllm");
  private static final List<String> PRECISIONS = List.of("fp8", "fp4", "bf16");
  private static final List<String> PREFIXES = List.of("dsr1", "llama", "gptoss", "qwen3.5");
  private static final List<String> TRANSFERS = List.of("nixl", "mooncake");
  private static final List<String> BACKENDS = List.of("lmcache", "hicache", "native");
  private static final List<BigDecimal> UTILIZATIONS = List.of(new BigDecimal("0.5"), new BigDecimal("0.8"),
      new BigDecimal("0.25"), BigDecimal.ONE);
  /** spec-decoding choices; absent first (the shrink target). */
  private static final List<Optional<SpecDecoding>> SPEC = List.of(Optional.empty(), Optional.of(SpecDecoding.MTP),
      Optional.of(SpecDecoding.DRAFT_MODEL), Optional.of(SpecDecoding.NONE));

  /** Which scenario lists a generated config has; fixed-seq-len only first (the shrink target). */
  private enum Scenarios {
    FIXED, AGENTIC, BOTH;

    boolean agentic() {
      return this != FIXED;
    }
  }

  /** A runner label with its GPUs per node and whether DRAM offload can be budgeted on it. */
  private record Label(String name, int gpusPerNode, boolean dram) {}

  /** One (layout, scenarios) option and the labels eligible for it. */
  private record Option(NodeLayout layout, Map<Scenarios, List<Label>> labels) {

    /** The scenario mix the block draws ask for, or the one of the other kind when no label fits it. */
    Scenarios mix(List<RawBlock> blocks) {
      boolean fixed = blocks.stream().anyMatch(b -> !b.agentic());
      boolean agentic = blocks.stream().anyMatch(RawBlock::agentic);
      Scenarios wanted = fixed && agentic ? Scenarios.BOTH : agentic ? Scenarios.AGENTIC : Scenarios.FIXED;
      if (labels.containsKey(wanted)) {
        return wanted;
      }
      return labels.containsKey(Scenarios.FIXED) ? Scenarios.FIXED : Scenarios.AGENTIC;
    }
  }

  private InfxGenerators() {}

  /**
   * Valid master configs of every layout, with fixed-seq-len blocks, agentic blocks or both, whose
   * runner is a label of {@code runners}.
   *
   * @throws IllegalArgumentException when {@code runners} has no labels
   */
  public static Gen<GeneratedConfig> masterConfigs(RunnerInventory runners) {
    return masterConfigs(runners, EnumSet.allOf(NodeLayout.class));
  }

  /**
   * As {@link #masterConfigs(RunnerInventory)}, of the given layouts only (e.g.
   * {@code DISAGGREGATED} for a property about prefill/decode workers).
   *
   * @throws IllegalArgumentException when {@code runners} has no label eligible for any of them
   */
  public static Gen<GeneratedConfig> masterConfigs(RunnerInventory runners, NodeLayout first, NodeLayout... more) {
    Objects.requireNonNull(first, "first");
    EnumSet<NodeLayout> layouts = EnumSet.of(first, more);
    return masterConfigs(runners, layouts);
  }

  private static Gen<GeneratedConfig> masterConfigs(RunnerInventory runners, Set<NodeLayout> layouts) {
    Objects.requireNonNull(runners, "runners");
    if (runners.labels().isEmpty()) {
      throw new IllegalArgumentException("runners.yaml has no labels to generate configs for");
    }
    List<Option> options = new ArrayList<>();
    for (NodeLayout t : layouts) {
      Map<Scenarios, List<Label>> labels = new java.util.EnumMap<>(Scenarios.class);
      for (Scenarios s : Scenarios.values()) {
        List<Label> eligible = eligible(runners, t, s);
        if (!eligible.isEmpty()) {
          labels.put(s, eligible);
        }
      }
      if (labels.containsKey(Scenarios.FIXED) || labels.containsKey(Scenarios.AGENTIC)) {
        options.add(new Option(t, labels));
      }
    }
    if (options.isEmpty()) {
      throw new IllegalArgumentException("runners.yaml has no label a " + layouts
          + " config can run on (multi-node needs GPUs per node, agentic a cluster: label)");
    }
    Gen<String[]> identity = Generate.range(0, PICK - 1).zip(Generate.pick(PRECISIONS), Generate.pick(PREFIXES),
        Generate.range(0, 99), (fw, prec, prefix, n) -> new String[] {Integer.toString(fw), prec, prefix,
            Integer.toString(n)});
    // every draw is made whatever the layout, so each choice shrinks on its own (with flatMap a
    // smaller layout would re-read the draws of another shape and rarely keep failing)
    return Generate.range(0, options.size() - 1).zip(Generate.range(0, PICK - 1), identity,
        Generate.pick(TRANSFERS), someOf(rawBlock(), 3), (o, l, id, transfer, raw) -> {
          Option option = options.get(o);
          Scenarios mix = option.mix(raw);
          List<Label> labels = option.labels().get(mix);
          return build(option.layout(), mix, labels.get(l % labels.size()), id, transfer, raw);
        });
  }

  /** The labels a config of {@code layout} with {@code scenarios} may name as its runner. */
  private static List<Label> eligible(RunnerInventory runners, NodeLayout layout, Scenarios scenarios) {
    List<Label> out = new ArrayList<>();
    for (String label : runners.labels().keySet()) {
      Optional<Cluster> exact = runners.clusterOf(label);
      if (scenarios.agentic()) {
        // V20: one exact fleet; V55: DRAM budgets need the cluster's host DRAM
        exact.ifPresent(c -> out.add(new Label(label, c.gpusPerNode(), c.availableCpuDramMib().isPresent())));
      } else if (layout == NodeLayout.DISAGGREGATED) {
        // node-count = ceil(GPUs / G) per role needs G for the runner label (V59)
        schedulingGpusPerNode(runners, label).ifPresent(g -> out.add(new Label(label, g, false)));
      } else {
        out.add(new Label(label, gpusPerNode(runners, label), false));
      }
    }
    return out;
  }

  /** The smallest GPUs per node among the clusters behind {@code label} (8 when none is known). */
  static int gpusPerNode(RunnerInventory runners, String label) {
    TreeSet<Integer> gpus = new TreeSet<>();
    runners.clusterOf(label).ifPresent(c -> gpus.add(c.gpusPerNode()));
    for (String runner : runners.runnersOf(label)) {
      for (String l : runners.labelsOf(runner)) {
        runners.clusterOf(l).map(Cluster::gpusPerNode).ifPresent(gpus::add);
      }
    }
    return gpus.isEmpty() ? 8 : gpus.first();
  }

  /**
   * GPUs per node as the generator resolves them for a multi-node row's node count (reference
   * §4.9.4, V59): the label's own {@code cluster:} record, else the single value shared by every
   * cluster of the label's GPU family (the label without {@code cluster:}, cut at the first
   * {@code -}); empty when that is missing or ambiguous.
   */
  static OptionalInt schedulingGpusPerNode(RunnerInventory runners, String label) {
    Optional<Cluster> exact = runners.clusterOf(label);
    if (exact.isPresent()) {
      return OptionalInt.of(exact.get().gpusPerNode());
    }
    String family = family(label);
    TreeSet<Integer> matches = new TreeSet<>();
    for (Map.Entry<String, Cluster> e : runners.clusters().entrySet()) {
      if (family(e.getKey()).equals(family)) {
        matches.add(e.getValue().gpusPerNode());
      }
    }
    return matches.size() == 1 ? OptionalInt.of(matches.first()) : OptionalInt.empty();
  }

  private static String family(String label) {
    String s = label.startsWith(RunnerInventory.CLUSTER_PREFIX)
        ? label.substring(RunnerInventory.CLUSTER_PREFIX.length()) : label;
    int dash = s.indexOf('-');
    return dash < 0 ? s : s.substring(0, dash);
  }

  /**
   * A choice among {@code n} values is drawn from 0..PICK-1 and read modulo {@code n}: the smallest
   * draw that selects value {@code k} is {@code k}, so shrinking still ends at the first value that
   * fails, and the draw does not depend on the label or layout picked before it.
   */
  private static final int PICK = 840;

  private static <T> T pick(List<T> values, int draw) {
    return values.get(draw % values.size());
  }

  /**
   * The draws of one block, read once the layout and runner are known: a {@code fixed-seq-len}
   * block ({@code agentic} false, the shrink target) or an {@code agentic-coding} one, so shrinking
   * can turn an agentic block into a fixed one and keep the entries that make a property fail.
   */
  private record RawBlock(boolean agentic, int seqLen, boolean writeUtilization, BigDecimal utilization,
      List<RawEntry> entries) {}

  private record RawWorker(int numWorker, int tp, boolean epIsTp, boolean dpAttn, int dcp) {}

  /** {@code ep}/{@code dp-attn} choices: 0 = absent (the shrink target), 1 = ep 1 / false, 2 = ep = tp / true. */
  private record RawEntry(int tp, int ep, int dpAttn, int dcp, RawWorker prefill, RawWorker decode, int spec,
      int offload, Conc conc) {}

  private static Gen<RawBlock> rawBlock() {
    return Generate.range(0, 1).zip(Generate.range(0, SEQ_LENS.size() - 1), Generate.range(0, 1),
        Generate.pick(UTILIZATIONS), someOf(rawEntry(), 3),
        (agentic, seq, write, u, entries) -> new RawBlock(agentic == 1, seq, write == 1, u, entries));
  }

  private static Gen<RawWorker> rawWorker() {
    return Generate.range(1, 3).zip(Generate.range(0, PICK - 1), Generate.range(0, 1), Generate.range(0, 1),
        Generate.range(0, PICK - 1), (n, tp, ep, dp, dcp) -> new RawWorker(n, tp, ep == 1, dp == 1, dcp));
  }

  private static Gen<RawEntry> rawEntry() {
    Gen<int[]> oneNode = Generate.range(0, PICK - 1).zip(Generate.range(0, 2), Generate.range(0, 2),
        Generate.range(0, PICK - 1), (tp, ep, dp, dcp) -> new int[] {tp, ep, dp, dcp});
    // the first worker draw is the prefill pool or the aggregate worker
    Gen<RawWorker[]> workers = rawWorker().zip(rawWorker(), (p, d) -> new RawWorker[] {p, d});
    Gen<int[]> extras = Generate.range(0, SPEC.size() - 1).zip(Generate.range(0, PICK - 1), (s, kv) -> new int[] {s, kv});
    return oneNode.zip(workers, extras, concurrency(), (n, w, x, c) -> new RawEntry(n[0], n[1], n[2], n[3], w[0], w[1], x[0],
        x[1], c));
  }

  private static GeneratedConfig build(NodeLayout layout, Scenarios mix, Label label, String[] id, String transfer,
      List<RawBlock> raw) {
    // a mix without a label for the drawn kind reads every block as the other kind
    boolean allAgentic = mix == Scenarios.AGENTIC;
    boolean allFixed = mix == Scenarios.FIXED;
    String framework = pick(layout.multinode() ? MULTI_NODE_FRAMEWORKS : FRAMEWORKS, Integer.parseInt(id[0]));
    String runner = label.name();
    List<Block> blocks = raw.stream().filter(b -> allFixed || !allAgentic && !b.agentic())
        .map(b -> new Block(SEQ_LENS.get(b.seqLen())[0], SEQ_LENS.get(b.seqLen())[1],
            b.entries().stream().map(e -> entry(layout, label, false, e)).toList()))
        .toList();
    List<AgenticBlock> agentic = raw.stream().filter(b -> allAgentic || !allFixed && b.agentic()).map(b -> {
      List<Entry> space = b.entries().stream().map(e -> entry(layout, label, true, e)).toList();
      boolean dram = space.stream().anyMatch(e -> e.kvOffload().map(kv -> kv.mode() == KvOffloading.DRAM).orElse(false));
      // V29: a block with a DRAM-offloading entry states its utilization
      return new AgenticBlock(dram || b.writeUtilization() ? Optional.of(b.utilization()) : Optional.empty(), space);
    }).toList();
    return new GeneratedConfig(
        id[2] + "-" + id[1] + "-" + runner.replace("cluster:", "").replace(':', '-') + "-" + framework,
        "example/" + framework + ":1." + id[3], "org/model-" + id[3], id[2], id[1], framework, runner, layout,
        layout.disagg() ? Optional.of(transfer) : Optional.empty(), blocks, agentic);
  }

  private static Entry entry(NodeLayout layout, Label label, boolean agentic, RawEntry raw) {
    int g = Math.max(1, label.gpusPerNode());
    Optional<SpecDecoding> spec = SPEC.get(raw.spec());
    Optional<KvOffload> offload = agentic ? pick(offloads(layout, label), raw.offload()) : Optional.empty();
    switch (layout) {
      case SINGLE_NODE -> {
        int tp = pick(oneNodeTps(g), raw.tp());
        return new GeneratedConfig.OnOneNode(tp, raw.ep() == 0 ? OptionalInt.empty() : OptionalInt.of(raw.ep() == 1 ? 1 : tp),
            raw.dpAttn() == 0 ? Optional.empty() : Optional.of(raw.dpAttn() == 2),
            // absent first, then a divisor of tp (V14)
            raw.dcp() % (divisors(tp).size() + 1) == 0 ? OptionalInt.empty()
                : OptionalInt.of(divisors(tp).get(raw.dcp() % (divisors(tp).size() + 1) - 1)),
            spec, offload, raw.conc());
      }
      case DISAGGREGATED -> {
        return new GeneratedConfig.Disaggregated(worker(raw.prefill(), g), worker(raw.decode(), g), spec, offload,
            raw.conc());
      }
      default -> {
        WorkerPool w = worker(raw.prefill(), g);
        // the nodes the pool fills: ceil(num-worker × tp / G)
        return new GeneratedConfig.Aggregated(w, Math.max(1, (w.gpus() + g - 1) / g), spec, offload, raw.conc());
      }
    }
  }

  private static WorkerPool worker(RawWorker raw, int g) {
    int tp = pick(workerTps(g), raw.tp());
    return new WorkerPool(raw.numWorker(), tp, raw.epIsTp() ? tp : 1, raw.dpAttn(), pick(divisors(tp), raw.dcp()));
  }

  /** The divisors of {@code tp}, smallest first: the dcp-size values V14 allows. */
  private static List<Integer> divisors(int tp) {
    List<Integer> out = new ArrayList<>();
    for (int d = 1; d <= tp; d++) {
      if (tp % d == 0) {
        out.add(d);
      }
    }
    return out;
  }

  /** Powers of two up to {@code g}: single-node tp (tp × pp × pcp-size ≤ G, V56). */
  private static List<Integer> oneNodeTps(int g) {
    List<Integer> tps = new ArrayList<>();
    for (int tp = 1; tp <= Math.max(1, g); tp *= 2) {
      tps.add(tp);
    }
    return tps;
  }

  /** Multi-node worker tp: powers of two dividing G, then G and 2·G, so a replica tiles nodes (V57). */
  private static List<Integer> workerTps(int g) {
    TreeSet<Integer> tps = new TreeSet<>();
    for (int tp = 1; tp <= g; tp *= 2) {
      if (g % tp == 0) {
        tps.add(tp);
      }
    }
    tps.add(g);
    tps.add(2 * g);
    return List.copyOf(tps);
  }

  /**
   * KV offload of an agentic entry: single-node entries must state it (V22), so none first;
   * multi-node entries may leave it out (absent first). DRAM only where the cluster has DRAM facts.
   */
  private static List<Optional<KvOffload>> offloads(NodeLayout layout, Label label) {
    List<Optional<KvOffload>> modes = new ArrayList<>();
    if (layout.multinode()) {
      modes.add(Optional.empty());
    }
    modes.add(Optional.of(new KvOffload(KvOffloading.NONE, Optional.empty())));
    if (label.dram()) {
      BACKENDS.forEach(b -> modes.add(Optional.of(new KvOffload(KvOffloading.DRAM, Optional.of(b)))));
    }
    return modes;
  }

  /**
   * One to {@code max} elements, in slot order. Every slot is drawn with a presence flag whose
   * shrink target is "absent", so shrinking can drop <em>any</em> element (QuickTheories' own lists
   * shrink by dropping from the end, which leaves {@code [1, 100]} where {@code [100]} is the smallest
   * counterexample); when no slot is present the first one is kept.
   */
  static <T> Gen<List<T>> someOf(Gen<T> element, int max) {
    Gen<Integer> present = Generate.range(0, 1);
    Gen<Slot<T>> slot = element.zip(present, (e, p) -> new Slot<>(e, p == 1));
    return lists().of(slot).ofSize(max).map(slots -> {
      List<T> out = slots.stream().filter(Slot::present).map(Slot::value).toList();
      return out.isEmpty() ? List.of(slots.get(0).value()) : out;
    });
  }

  private record Slot<T>(T value, boolean present) {}

  /**
   * A conc-list, or a range ending at the list's largest value and starting at a separate draw
   * (1..64, at most the end): both forms read the same values, so shrinking from a range to a list
   * (choice 0, the shrink target) keeps the largest concurrency a property may depend on.
   */
  private static Gen<Conc> concurrency() {
    return Generate.range(0, 1).zip(someOf(Generate.range(1, 512), 3), Generate.range(1, 64), (kind, values, start) -> {
      if (kind == 0) {
        return Conc.list(values);
      }
      int end = values.stream().mapToInt(Integer::intValue).max().orElseThrow();
      return Conc.range(Math.min(start, end), end);
    });
  }
}
