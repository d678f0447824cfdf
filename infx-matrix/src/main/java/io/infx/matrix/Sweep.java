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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Fluent entry point for expanding master configs in code or JShell: pick the configs (files,
 * a {@link Catalog}, or configs declared here), the runner file, filters, bounds and eval mode,
 * then {@link #expand()}. Every method returns a new, immutable {@code Sweep}, so a base sweep can
 * be specialised freely.
 *
 * <pre>{@code
 * Matrix m = Sweep.fromFiles(Path.of("configs/nvidia-master.yaml"))
 *     .runners(Path.of("configs/runners.yaml"))
 *     .modelPrefix("dsr1").seqLens("8k1k").singleNodeOnly()
 *     .maxConc(64)
 *     .evals(EvalMode.NONE)
 *     .expand();
 *
 * Matrix mine = Sweep.of(Sweep.singleNode("llama-fp8-h100-vllm")
 *         .image("vllm/vllm-openai:v0.11.0").model("meta-llama/Llama-3.1-70B-Instruct")
 *         .modelPrefix("llama").precision("fp8").framework("vllm").runner("h100")
 *         .searchSpace(8192, 1024, Sweep.tp(8).conc(4, 64), Sweep.tp(4).ep(4).concList(16, 48)))
 *     .expand();
 * }</pre>
 *
 * Expansion follows {@code generate full-sweep} (see {@link Generator#fullSweep}); a
 * {@link #configKeys} selection first narrows the catalogue to the matching keys (exact keys or
 * {@code *}/{@code ?} globs).
 */
public final class Sweep {

  private final Catalog catalog;
  private final RunnerInventory runners;
  private final ImmutableFullSweepOptions options;
  private final List<String> configKeys;

  private Sweep(Catalog catalog, RunnerInventory runners, ImmutableFullSweepOptions options, List<String> keys) {
    this.catalog = catalog;
    this.runners = runners;
    this.options = options;
    this.configKeys = keys;
  }

  private static Sweep start(Catalog catalog) {
    return new Sweep(catalog, emptyRunners(), ImmutableFullSweepOptions.builder().build(), List.of());
  }

  /** A sweep over a loaded catalogue. */
  public static Sweep of(Catalog catalog) {
    return start(catalog);
  }

  /** A sweep over master files, merged in order (loaded and validated now). */
  public static Sweep fromFiles(Path... files) {
    return start(Catalog.load(files));
  }

  /** A sweep over master files or in-memory texts. */
  public static Sweep fromSources(List<Source> sources) {
    return start(Catalog.load(sources));
  }

  /** A sweep over configs keyed by config key, in map order (validated now). */
  public static Sweep of(Map<String, ? extends MasterConfig> configs) {
    return start(Catalog.of(configs));
  }

  /**
   * A sweep over configs built in code; each is keyed by the catalogue convention
   * {@code <model-prefix>-<precision>-<runner>-<framework>} (a numeric suffix separates clashes).
   */
  public static Sweep of(MasterConfig... configs) {
    Map<String, MasterConfig> keyed = new LinkedHashMap<>();
    for (MasterConfig c : configs) {
      String base = (c.modelPrefix() + "-" + c.precision() + "-" + c.runner().replace("cluster:", "") + "-"
          + c.framework()).replaceAll("[*?\\[\\]]", "_");
      String key = base;
      for (int n = 2; keyed.containsKey(key); n++) {
        key = base + "-" + n;
      }
      keyed.put(key, c);
    }
    return of(keyed);
  }

  /** A sweep over configs declared with {@link #singleNode} / {@link #multiNode}. */
  public static Sweep of(Declaration... configs) {
    Map<String, MasterConfig> keyed = new LinkedHashMap<>();
    for (Declaration d : configs) {
      if (keyed.put(d.key(), d.build()) != null) {
        throw new IllegalArgumentException("config key declared twice: " + d.key());
      }
    }
    return of(keyed);
  }

  private Sweep with(UnaryOperator<ImmutableFullSweepOptions> change) {
    return new Sweep(catalog, runners, change.apply(options), configKeys);
  }

  /**
   * The runner file: scheduling labels and the cluster facts node counts and DRAM budgets need.
   * Without it a sweep has an empty inventory: single-node fixed-seq-len rows expand as usual,
   * but runner filters match nothing and rows that need cluster facts (multi-node node counts,
   * KV-offload budgets) fail validation with a {@code V55}/{@code V59} violation on the config.
   */
  public Sweep runners(RunnerInventory inventory) {
    return new Sweep(catalog, Objects.requireNonNull(inventory, "inventory"), options, configKeys);
  }

  /** The runner file at {@code file} (loaded and validated now). */
  public Sweep runners(Path file) {
    return runners(RunnerInventory.load(file));
  }

  /** Configs whose key starts with one of {@code prefixes} (the reference's --model-prefix). */
  public Sweep modelPrefix(String... prefixes) {
    return with(o -> o.withModelPrefixes(Arrays.asList(prefixes)));
  }

  public Sweep precision(String... precisions) {
    return with(o -> o.withPrecisions(Arrays.asList(precisions)));
  }

  public Sweep framework(String... frameworks) {
    return with(o -> o.withFrameworks(Arrays.asList(frameworks)));
  }

  /** Configs on these runner labels (each must be a label of the runner file). */
  public Sweep runnerType(String... labels) {
    return with(o -> o.withRunnerTypes(Arrays.asList(labels)));
  }

  /** Fixed-seq-len families {@code 1k1k} / {@code 8k1k} (agentic rows are kept). */
  public Sweep seqLens(String... families) {
    return with(o -> o.withSeqLens(Arrays.asList(families)));
  }

  public Sweep scenario(ScenarioType... types) {
    return with(o -> o.withScenarioTypes(Arrays.asList(types)));
  }

  public Sweep singleNodeOnly() {
    return with(o -> o.withSingleNode(true).withMultiNode(false));
  }

  public Sweep multiNodeOnly() {
    return with(o -> o.withSingleNode(false).withMultiNode(true));
  }

  /** Only the configs whose keys match (exact keys or {@code *}/{@code ?} globs), in catalogue order. */
  public Sweep configKeys(String... patterns) {
    return new Sweep(catalog, runners, options, List.of(patterns));
  }

  /** Expand each config to the concrete runner names containing {@code text}. */
  public Sweep runnerNodeFilter(String text) {
    return with(o -> o.withRunnerNodeFilter(text));
  }

  public Sweep minConc(int min) {
    return with(o -> o.withMinConc(min));
  }

  public Sweep maxConc(int max) {
    return with(o -> o.withMaxConc(max));
  }

  /** Geometric factor of concurrency ranges (default 2; must exceed 1). */
  public Sweep stepSize(int factor) {
    return with(o -> o.withStepSize(factor));
  }

  public Sweep maxTp(int tp) {
    return with(o -> o.withMaxTp(tp));
  }

  public Sweep maxEp(int ep) {
    return with(o -> o.withMaxEp(ep));
  }

  public Sweep evals(EvalMode mode) {
    return with(o -> o.withEvalMode(mode));
  }

  /** Keep only the minimum concurrency of every deployment shape (after eval selection). */
  public Sweep trimConc() {
    return with(o -> o.withTrimConc(true));
  }

  /** The selected catalogue (after {@link #configKeys}). */
  public Catalog catalog() {
    if (configKeys.isEmpty()) {
      return catalog;
    }
    Map<String, MasterConfig> kept = new LinkedHashMap<>();
    Set<String> keys = new LinkedHashSet<>(Generator.resolveKeys(catalog, configKeys));
    for (Map.Entry<String, MasterConfig> e : catalog.configs().entrySet()) {
      if (keys.contains(e.getKey())) {
        kept.put(e.getKey(), e.getValue());
      }
    }
    return Catalog.of(kept);
  }

  public FullSweepOptions options() {
    return options;
  }

  /** Expands the selection into a matrix. */
  public Matrix expand() {
    return Generator.fullSweep(catalog(), runners, options);
  }

  private static RunnerInventory emptyRunners() {
    return io.infx.matrix.runners.ImmutableRunnerInventory.builder().build();
  }

  // ---- declaring configs in code ----------------------------------------------------------------

  /** A config being declared in code; {@link #build()} validates nothing (the sweep does). */
  public interface Declaration {
    String key();

    MasterConfig build();
  }

  /** Declares a single-node config (fixed-seq-len blocks and/or AgentX blocks). */
  public static SingleNode singleNode(String key) {
    return new SingleNode(key);
  }

  /** Declares a multi-node config. */
  public static MultiNode multiNode(String key) {
    return new MultiNode(key);
  }

  /** A single-node (TP-shaped) search-space entry, fixed-seq-len or AgentX. */
  public static Entry tp(int tp) {
    return new Entry(tp);
  }

  /** A worker pool: {@code numWorker} replicas of TP {@code tp}, EP {@code ep}. */
  public static Worker worker(int numWorker, int tp, int ep, boolean dpAttn) {
    return Worker.builder().numWorker(numWorker).tp(tp).ep(ep).dpAttn(dpAttn).build();
  }

  /** A disaggregated multi-node entry (prefill and decode pools). */
  public static MultiEntry disaggregated(Worker prefill, Worker decode) {
    return new MultiEntry(ImmutableMultiNodeEntry.builder().prefill(prefill).decode(decode));
  }

  /** An aggregated multi-node entry: one pool of TP {@code tp} on {@code numNodes} nodes. */
  public static MultiEntry aggregated(int tp, int ep, boolean dpAttn, int numNodes) {
    return new MultiEntry(ImmutableMultiNodeEntry.builder()
        .worker(AggregateWorker.builder().tp(tp).ep(ep).dpAttn(dpAttn).build())
        .numNodes(numNodes));
  }

  /** Identity fields every config declares. */
  abstract static class Identity<S extends Identity<S>> implements Declaration {
    final String key;
    String image;
    String model;
    String modelPrefix;
    String precision;
    String framework;
    String runner;
    Component router;
    final List<AgenticScenario> agentic = new ArrayList<>();

    Identity(String key) {
      this.key = Objects.requireNonNull(key, "key");
    }

    @SuppressWarnings("unchecked")
    private S self() {
      return (S) this;
    }

    @Override
    public String key() {
      return key;
    }

    public S image(String v) {
      image = v;
      return self();
    }

    public S model(String v) {
      model = v;
      return self();
    }

    public S modelPrefix(String v) {
      modelPrefix = v;
      return self();
    }

    public S precision(String v) {
      precision = v;
      return self();
    }

    public S framework(String v) {
      framework = v;
      return self();
    }

    public S runner(String v) {
      runner = v;
      return self();
    }

    public S router(String name, String version) {
      router = Component.of(name, version);
      return self();
    }

    /** An AgentX block; {@code dramUtilization} (0–1] is needed by DRAM-offload entries. */
    public S agentic(Optional<Double> dramUtilization, AgenticEntry... entries) {
      agentic.add(AgenticScenario.builder().addSearchSpace(entries)
          .dramUtilization(dramUtilization.map(d -> new BigDecimal(Double.toString(d)))).build());
      return self();
    }

    /** An AgentX block of single-node entries built with {@link Sweep#tp}. */
    public S agentic(double dramUtilization, Entry... entries) {
      AgenticEntry[] built = new AgenticEntry[entries.length];
      for (int i = 0; i < entries.length; i++) {
        built[i] = entries[i].agentic();
      }
      return agentic(Optional.of(dramUtilization), built);
    }

    String need(String value, String name) {
      if (value == null) {
        throw new IllegalStateException("config '" + key + "' has no " + name);
      }
      return value;
    }
  }

  /** A single-node config under construction. */
  public static final class SingleNode extends Identity<SingleNode> {
    private final List<SingleNodeSeqLen> fixed = new ArrayList<>();

    SingleNode(String key) {
      super(key);
    }

    /** A fixed-seq-len block: ISL/OSL in tokens and its entries. */
    public SingleNode searchSpace(int isl, int osl, Entry... entries) {
      List<SingleNodeEntry> built = new ArrayList<>();
      for (Entry e : entries) {
        built.add(e.fixed());
      }
      fixed.add(SingleNodeSeqLen.builder().isl(isl).osl(osl).searchSpace(built).build());
      return this;
    }

    @Override
    public SingleNodeMaster build() {
      return SingleNodeMaster.builder()
          .image(need(image, "image")).model(need(model, "model")).modelPrefix(need(modelPrefix, "modelPrefix"))
          .precision(need(precision, "precision")).framework(need(framework, "framework"))
          .runner(need(runner, "runner")).multinode(false).router(Optional.ofNullable(router))
          .scenarios(ImmutableSingleNodeScenarios.builder().fixedSeqLen(fixed).agenticCoding(agentic).build())
          .build();
    }
  }

  /** A multi-node config under construction. */
  public static final class MultiNode extends Identity<MultiNode> {
    private final List<MultiNodeSeqLen> fixed = new ArrayList<>();
    private boolean disagg;
    private String transfer;

    MultiNode(String key) {
      super(key);
    }

    /** Disaggregated serving with KV transfer engine {@code transfer} (e.g. {@code nixl}). */
    public MultiNode disagg(String transfer) {
      this.disagg = true;
      this.transfer = transfer;
      return this;
    }

    public MultiNode searchSpace(int isl, int osl, MultiEntry... entries) {
      List<MultiNodeEntry> built = new ArrayList<>();
      for (MultiEntry e : entries) {
        built.add(e.build());
      }
      fixed.add(MultiNodeSeqLen.builder().isl(isl).osl(osl).searchSpace(built).build());
      return this;
    }

    @Override
    public MultiNodeMaster build() {
      return MultiNodeMaster.builder()
          .image(need(image, "image")).model(need(model, "model")).modelPrefix(need(modelPrefix, "modelPrefix"))
          .precision(need(precision, "precision")).framework(need(framework, "framework"))
          .runner(need(runner, "runner")).multinode(true).disagg(disagg)
          .kvP2pTransfer(Optional.ofNullable(transfer)).router(Optional.ofNullable(router))
          .scenarios(ImmutableMultiNodeScenarios.builder().fixedSeqLen(fixed).agenticCoding(agentic).build())
          .build();
    }
  }

  /** A single-node entry: topology, concurrency, and (for AgentX) KV offload. Immutable. */
  public static final class Entry {
    /** The search-space settings an entry can carry; each one's config key is its kebab-case name. */
    private enum Key {
      CONC_START, CONC_END, CONC_LIST, EP, PP, DCP_SIZE, PCP_SIZE, DP_ATTN, SPEC_DECODING, ROUTER,
      KV_OFFLOADING, KV_OFFLOAD_BACKEND;

      @Override
      public String toString() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
      }
    }

    private final int tp;
    private final Map<Key, Object> fields;

    private Entry(int tp) {
      this(tp, Map.of());
    }

    private Entry(int tp, Map<Key, Object> fields) {
      this.tp = tp;
      this.fields = fields;
    }

    private Entry set(Key key, Object value) {
      Map<Key, Object> f = new LinkedHashMap<>(fields);
      f.put(key, value);
      return new Entry(tp, f);
    }

    /** Concurrency range {@code start..end}, expanded geometrically. */
    public Entry conc(int start, int end) {
      return set(Key.CONC_START, start).set(Key.CONC_END, end);
    }

    /** Explicit concurrency points (order and duplicates kept). */
    public Entry concList(Integer... values) {
      return set(Key.CONC_LIST, List.of(values));
    }

    public Entry ep(int ep) {
      return set(Key.EP, ep);
    }

    public Entry pp(int pp) {
      return set(Key.PP, pp);
    }

    public Entry dcp(int dcpSize) {
      return set(Key.DCP_SIZE, dcpSize);
    }

    public Entry pcp(int pcpSize) {
      return set(Key.PCP_SIZE, pcpSize);
    }

    public Entry dpAttn() {
      return set(Key.DP_ATTN, true);
    }

    public Entry spec(SpecDecoding mode) {
      return set(Key.SPEC_DECODING, mode);
    }

    public Entry router(String name, String version) {
      return set(Key.ROUTER, Component.of(name, version));
    }

    /** AgentX: no KV offload. */
    public Entry noOffload() {
      return set(Key.KV_OFFLOADING, KvOffloading.NONE);
    }

    /** AgentX: KV offload to host DRAM through {@code backend}. */
    public Entry dramOffload(String backend) {
      return set(Key.KV_OFFLOADING, KvOffloading.DRAM).set(Key.KV_OFFLOAD_BACKEND, OffloadBackend.of(backend));
    }

    @SuppressWarnings("unchecked")
    SingleNodeEntry fixed() {
      ImmutableSingleNodeEntry.Builder b = SingleNodeEntry.builder().tp(tp);
      fields.forEach((k, v) -> {
        switch (k) {
          case CONC_START -> b.concStart((Integer) v);
          case CONC_END -> b.concEnd((Integer) v);
          case CONC_LIST -> b.concList((List<Integer>) v);
          case EP -> b.ep((Integer) v);
          case PP -> b.pp((Integer) v);
          case DCP_SIZE -> b.dcpSize((Integer) v);
          case PCP_SIZE -> b.pcpSize((Integer) v);
          case DP_ATTN -> b.dpAttn((Boolean) v);
          case SPEC_DECODING -> b.specDecoding((SpecDecoding) v);
          case ROUTER -> b.router((Component) v);
          default -> throw new IllegalStateException(k + " applies to AgentX entries only");
        }
      });
      return b.build();
    }

    @SuppressWarnings("unchecked")
    AgenticEntry agentic() {
      ImmutableAgenticEntry.Builder b = AgenticEntry.builder().tp(tp);
      fields.forEach((k, v) -> {
        switch (k) {
          case CONC_START -> b.concStart((Integer) v);
          case CONC_END -> b.concEnd((Integer) v);
          case CONC_LIST -> b.concList((List<Integer>) v);
          case EP -> b.ep((Integer) v);
          case PP -> b.pp((Integer) v);
          case DCP_SIZE -> b.dcpSize((Integer) v);
          case PCP_SIZE -> b.pcpSize((Integer) v);
          case DP_ATTN -> b.dpAttn((Boolean) v);
          case SPEC_DECODING -> b.specDecoding((SpecDecoding) v);
          case ROUTER -> b.router((Component) v);
          case KV_OFFLOADING -> b.kvOffloading((KvOffloading) v);
          case KV_OFFLOAD_BACKEND -> b.kvOffloadBackend((OffloadBackend) v);
          default -> throw new IllegalStateException("unexpected " + k);
        }
      });
      return b.build();
    }
  }

  /** A multi-node entry under construction. */
  public static final class MultiEntry {
    private final ImmutableMultiNodeEntry.Builder builder;

    private MultiEntry(ImmutableMultiNodeEntry.Builder builder) {
      this.builder = builder;
    }

    public MultiEntry conc(int start, int end) {
      builder.concStart(start).concEnd(end);
      return this;
    }

    public MultiEntry concList(Integer... values) {
      builder.concList(List.of(values));
      return this;
    }

    public MultiEntry spec(SpecDecoding mode) {
      builder.specDecoding(mode);
      return this;
    }

    MultiNodeEntry build() {
      return builder.build();
    }
  }
}
