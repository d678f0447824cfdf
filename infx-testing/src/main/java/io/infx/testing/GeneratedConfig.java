package io.infx.testing;

import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.ConfigRule;
import io.infx.matrix.RowKind;
import io.infx.matrix.config.KvOffloading;
import io.infx.matrix.config.SpecDecoding;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One generated master config: its catalogue key, identity, node layout and scenarios, as typed values
 * (what a property asserts on, and what a shrunk counterexample prints) and as the YAML text a user
 * would write ({@link #yaml()}), which infx-matrix loads with {@code file:line:column} locations like
 * any master file.
 *
 * <p>The {@link NodeLayout} decides the shape of every search-space entry, fixed and agentic alike:
 * {@link OnOneNode} ({@code multinode: false}), {@link Disaggregated} prefill/decode workers
 * ({@code multinode: true, disagg: true}, with a top-level {@code kv-p2p-transfer}) or one
 * {@link Aggregated} worker with {@code num-nodes} ({@code multinode: true, disagg: false}).
 *
 * @param key catalogue key, e.g. {@code dsr1-fp8-h100-vllm}
 * @param image {@code image}, e.g. {@code example/vllm:1.7}
 * @param model {@code model}
 * @param modelPrefix {@code model-prefix}, e.g. {@code dsr1}
 * @param precision {@code precision}, e.g. {@code fp8}
 * @param framework {@code framework}, e.g. {@code vllm} (single node) or {@code dynamo-sglang} (multi-node)
 * @param runner a label of the runners.yaml the generator was given ({@code cluster:<id>} when the
 *     config has agentic blocks, rule V20)
 * @param layout single node, disaggregated or aggregated multi-node
 * @param kvP2pTransfer the top-level KV transfer engine (present exactly for disaggregated configs)
 * @param blocks the {@code fixed-seq-len} blocks (possibly none)
 * @param agenticBlocks the {@code agentic-coding} blocks (possibly none; never both empty)
 */
public record GeneratedConfig(String key, String image, String model, String modelPrefix, String precision,
    String framework, String runner, NodeLayout layout, Optional<String> kvP2pTransfer, List<Block> blocks,
    List<AgenticBlock> agenticBlocks) {

  public GeneratedConfig {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(layout, "layout");
    Objects.requireNonNull(kvP2pTransfer, "kvP2pTransfer");
    blocks = List.copyOf(blocks);
    agenticBlocks = List.copyOf(agenticBlocks);
  }

  /** How a config's deployments are laid out on nodes; fixes the shape of every search-space entry. */
  public enum NodeLayout {
    /** {@code multinode: false}: entries are {@link OnOneNode} ({@code tp}, {@code ep}, {@code dp-attn}). */
    SINGLE_NODE,
    /** {@code multinode: true, disagg: true}: entries are {@link Disaggregated} prefill + decode workers. */
    DISAGGREGATED,
    /** {@code multinode: true, disagg: false}: entries are one {@link Aggregated} worker and {@code num-nodes}. */
    AGGREGATED;

    /** The master's {@code multinode} flag. */
    public boolean multinode() {
      return this != SINGLE_NODE;
    }

    /** The master's {@code disagg} flag. */
    public boolean disagg() {
      return this == DISAGGREGATED;
    }
  }

  /**
   * One {@code fixed-seq-len} block.
   *
   * @param isl input sequence length (tokens)
   * @param osl output sequence length (tokens)
   */
  public record Block(int isl, int osl, List<Entry> searchSpace) {
    public Block {
      searchSpace = List.copyOf(searchSpace);
    }
  }

  /**
   * One {@code agentic-coding} block (AgentX trace replay).
   *
   * @param dramUtilization fraction of host DRAM offered to KV offload, 0 &lt; x ≤ 1; present whenever
   *     an entry offloads to DRAM (rule V29)
   */
  public record AgenticBlock(Optional<BigDecimal> dramUtilization, List<Entry> searchSpace) {
    public AgenticBlock {
      Objects.requireNonNull(dramUtilization, "dramUtilization");
      searchSpace = List.copyOf(searchSpace);
    }
  }

  /**
   * Concurrency points of an entry: either a {@code conc-list} or a {@code conc-start..conc-end}
   * range (expanded by doubling). In agentic blocks a point is a number of concurrent AgentX users.
   */
  public record Conc(List<Integer> list, OptionalInt start, OptionalInt end) {
    public Conc {
      list = List.copyOf(list);
      if (start.isPresent() != end.isPresent() || start.isPresent() == !list.isEmpty()) {
        throw new IllegalArgumentException("a conc-list or both range bounds, not both: " + list + " " + start + ".." + end);
      }
    }

    /** A {@code conc-list}. */
    public static Conc list(List<Integer> values) {
      return new Conc(values, OptionalInt.empty(), OptionalInt.empty());
    }

    /** A {@code conc-start..conc-end} range. */
    public static Conc range(int start, int end) {
      return new Conc(List.of(), OptionalInt.of(start), OptionalInt.of(end));
    }

    /** Whether this is a range. */
    public boolean isRange() {
      return start.isPresent();
    }

    /** The largest concurrency asked for. */
    public int max() {
      return end.isPresent() ? end.getAsInt() : list.stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    @Override
    public String toString() {
      return isRange() ? start.getAsInt() + ".." + end.getAsInt() : list.toString();
    }
  }

  /**
   * A KV-offload declaration of an agentic entry.
   *
   * @param mode {@code kv-offloading}
   * @param backend {@code kv-offload-backend.name}, present exactly when {@code mode} is DRAM (V25–V27)
   */
  public record KvOffload(KvOffloading mode, Optional<String> backend) {
    public KvOffload {
      Objects.requireNonNull(mode, "mode");
      Objects.requireNonNull(backend, "backend");
    }

    @Override
    public String toString() {
      return mode.wire() + backend.map(b -> "-" + b).orElse("");
    }
  }

  /**
   * A worker pool of a multi-node entry ({@code prefill}, {@code decode} or the aggregate
   * {@code worker}): {@code num-worker} replicas of {@code tp} GPUs each.
   */
  public record WorkerPool(int numWorker, int tp, int ep, boolean dpAttn, int dcpSize) {

    /** A pool without decode context parallelism ({@code dcp-size} 1, not written). */
    public WorkerPool(int numWorker, int tp, int ep, boolean dpAttn) {
      this(numWorker, tp, ep, dpAttn, 1);
    }

    /** GPUs of the pool: {@code num-worker × tp}. */
    public int gpus() {
      return numWorker * tp;
    }

    /** The reference's role tag, e.g. {@code 2x4ep4dpa} (as in multi-node agentic exp-names). */
    @Override
    public String toString() {
      return numWorker + "x" + tp + (ep != 1 ? "ep" + ep : "") + (dpAttn ? "dpa" : "")
          + (dcpSize != 1 ? "dcp" + dcpSize : "");
    }
  }

  /** One search-space entry, shaped by the config's {@link NodeLayout}. */
  public sealed interface Entry permits OnOneNode, Disaggregated, Aggregated {

    /** Concurrency points. */
    Conc conc();

    /** {@code spec-decoding} when written. */
    Optional<SpecDecoding> specDecoding();

    /** KV offload of an agentic entry (required on single-node agentic entries, V22); empty in fixed blocks. */
    Optional<KvOffload> kvOffload();

    /** The largest concurrency this entry asks for. */
    default int maxConc() {
      return conc().max();
    }

    /** The {@code conc-list} (empty for a range). */
    default List<Integer> concList() {
      return conc().list();
    }

    /** {@code conc-start} of a range. */
    default OptionalInt concStart() {
      return conc().start();
    }

    /** {@code conc-end} of a range. */
    default OptionalInt concEnd() {
      return conc().end();
    }
  }

  /**
   * A single-node entry: tensor parallelism, optional expert parallelism, DP-attention and decode
   * context parallelism ({@code dcp-size}, a divisor of tp, rule V14).
   */
  public record OnOneNode(int tp, OptionalInt ep, Optional<Boolean> dpAttn, OptionalInt dcpSize,
      Optional<SpecDecoding> specDecoding, Optional<KvOffload> kvOffload, Conc conc) implements Entry {

    /** An entry without {@code dcp-size}. */
    public OnOneNode(int tp, OptionalInt ep, Optional<Boolean> dpAttn, Optional<SpecDecoding> specDecoding,
        Optional<KvOffload> kvOffload, Conc conc) {
      this(tp, ep, dpAttn, OptionalInt.empty(), specDecoding, kvOffload, conc);
    }
  }

  /** A disaggregated multi-node entry: a prefill and a decode worker pool. */
  public record Disaggregated(WorkerPool prefill, WorkerPool decode, Optional<SpecDecoding> specDecoding,
      Optional<KvOffload> kvOffload, Conc conc) implements Entry {}

  /** An aggregated multi-node entry: one worker pool serving both phases on {@code num-nodes} nodes. */
  public record Aggregated(WorkerPool worker, int numNodes, Optional<SpecDecoding> specDecoding,
      Optional<KvOffload> kvOffload, Conc conc) implements Entry {}

  /** Every search-space entry: fixed-seq-len blocks first, then agentic blocks, in order. */
  public List<Entry> entries() {
    return Stream.concat(fixedEntries().stream(), agenticEntries().stream()).toList();
  }

  /** The entries of the {@code fixed-seq-len} blocks. */
  public List<Entry> fixedEntries() {
    return blocks.stream().flatMap(b -> b.searchSpace().stream()).toList();
  }

  /** The entries of the {@code agentic-coding} blocks. */
  public List<Entry> agenticEntries() {
    return agenticBlocks.stream().flatMap(b -> b.searchSpace().stream()).toList();
  }

  /** Whether the config has {@code agentic-coding} blocks. */
  public boolean isAgentic() {
    return !agenticBlocks.isEmpty();
  }

  /**
   * The kinds of matrix rows the config expands to (without filters): single-node or multi-node
   * fixed-seq-len rows for its fixed blocks, single-node or multi-node agentic rows for its agentic
   * blocks.
   */
  public Set<RowKind> rowKinds() {
    Set<RowKind> kinds = EnumSet.noneOf(RowKind.class);
    if (!blocks.isEmpty()) {
      kinds.add(layout.multinode() ? RowKind.MULTI_NODE : RowKind.SINGLE_NODE);
    }
    if (!agenticBlocks.isEmpty()) {
      kinds.add(layout.multinode() ? RowKind.MULTI_NODE_AGENTIC : RowKind.SINGLE_NODE_AGENTIC);
    }
    return kinds;
  }

  /** The config as a master file's text: one top-level key, block style, two-space indents. */
  public String yaml() {
    StringBuilder sb = new StringBuilder();
    sb.append(key).append(":\n");
    sb.append("  image: \"").append(image).append("\"\n");
    sb.append("  model: ").append(model).append('\n');
    sb.append("  model-prefix: ").append(modelPrefix).append('\n');
    sb.append("  precision: ").append(precision).append('\n');
    sb.append("  framework: ").append(framework).append('\n');
    sb.append("  runner: ").append(runner).append('\n');
    sb.append("  multinode: ").append(layout.multinode()).append('\n');
    if (layout.multinode()) {
      sb.append("  disagg: ").append(layout.disagg()).append('\n');
    }
    kvP2pTransfer.ifPresent(t -> sb.append("  kv-p2p-transfer: ").append(t).append('\n'));
    sb.append("  scenarios:\n");
    if (!blocks.isEmpty()) {
      sb.append("    fixed-seq-len:\n");
      for (Block b : blocks) {
        sb.append("    - isl: ").append(b.isl()).append('\n');
        sb.append("      osl: ").append(b.osl()).append('\n');
        sb.append("      search-space:").append(b.searchSpace().isEmpty() ? " []\n" : "\n");
        b.searchSpace().forEach(e -> entry(sb, e));
      }
    }
    if (!agenticBlocks.isEmpty()) {
      sb.append("    agentic-coding:\n");
      for (AgenticBlock b : agenticBlocks) {
        sb.append("    - ");
        if (b.dramUtilization().isPresent()) {
          sb.append("dram-utilization: ").append(b.dramUtilization().get().toPlainString()).append("\n      ");
        }
        sb.append("search-space:").append(b.searchSpace().isEmpty() ? " []\n" : "\n");
        b.searchSpace().forEach(e -> entry(sb, e));
      }
    }
    return sb.toString();
  }

  /** One search-space entry at indent 6, its first key after {@code "- "}. */
  private static void entry(StringBuilder sb, Entry e) {
    List<String> lines = new ArrayList<>();
    if (e instanceof OnOneNode n) {
      lines.add("tp: " + n.tp());
      n.ep().ifPresent(ep -> lines.add("ep: " + ep));
      n.dpAttn().ifPresent(d -> lines.add("dp-attn: " + d));
      n.dcpSize().ifPresent(d -> lines.add("dcp-size: " + d));
    } else if (e instanceof Disaggregated d) {
      worker(lines, "prefill", d.prefill());
      worker(lines, "decode", d.decode());
    } else if (e instanceof Aggregated a) {
      worker(lines, "worker", a.worker());
      lines.add("num-nodes: " + a.numNodes());
    }
    e.specDecoding().ifPresent(s -> lines.add("spec-decoding: " + s.wire()));
    e.kvOffload().ifPresent(kv -> {
      lines.add("kv-offloading: " + kv.mode().wire());
      kv.backend().ifPresent(b -> lines.add("kv-offload-backend: {name: " + b + "}"));
    });
    if (e.conc().isRange()) {
      lines.add("conc-start: " + e.conc().start().getAsInt());
      lines.add("conc-end: " + e.conc().end().getAsInt());
    } else {
      lines.add("conc-list: " + e.conc().list());
    }
    for (int i = 0; i < lines.size(); i++) {
      sb.append(i == 0 ? "      - " : "        ").append(lines.get(i)).append('\n');
    }
  }

  private static void worker(List<String> lines, String role, WorkerPool w) {
    lines.add(role + ":");
    lines.add("  num-worker: " + w.numWorker());
    lines.add("  tp: " + w.tp());
    lines.add("  ep: " + w.ep());
    lines.add("  dp-attn: " + w.dpAttn());
    if (w.dcpSize() != 1) {
      lines.add("  dcp-size: " + w.dcpSize());
    }
  }

  /** The YAML text as a master file named {@code label} (e.g. {@code acme.yaml}). */
  public Source source(String label) {
    return Source.text(label, yaml());
  }

  /** Loads and validates {@link #yaml()} as {@code <key>.yaml}, as {@code Catalog.load} does. */
  public Catalog catalog() {
    return catalog(List.of());
  }

  /** As {@link #catalog()}, with a team's own rules run beside the built-in ones. */
  public Catalog catalog(List<? extends ConfigRule> rules) {
    return Catalog.load(List.of(source(key + ".yaml")), rules);
  }

  /**
   * Compact: key, runner, node layout and every block's entries, e.g.
   * {@code GeneratedConfig[k on cluster:b200 DISAGGREGATED nixl, 8192/1024: [p1x4 d2x8 conc=[1]]]}.
   */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("GeneratedConfig[").append(key).append(" on ").append(runner)
        .append(' ').append(layout);
    kvP2pTransfer.ifPresent(t -> sb.append(' ').append(t));
    for (Block b : blocks) {
      sb.append(", ").append(b.isl()).append('/').append(b.osl()).append(": ");
      describe(sb, b.searchSpace());
    }
    for (AgenticBlock b : agenticBlocks) {
      sb.append(", agentic");
      b.dramUtilization().ifPresent(u -> sb.append(" dram-utilization=").append(u.toPlainString()));
      sb.append(": ");
      describe(sb, b.searchSpace());
    }
    return sb.append(']').toString();
  }

  private static void describe(StringBuilder sb, List<Entry> space) {
    sb.append('[');
    for (int i = 0; i < space.size(); i++) {
      Entry e = space.get(i);
      sb.append(i > 0 ? "; " : "");
      if (e instanceof OnOneNode n) {
        sb.append("tp=").append(n.tp());
        n.ep().ifPresent(ep -> sb.append(" ep=").append(ep));
        n.dpAttn().ifPresent(d -> sb.append(" dp-attn=").append(d));
        n.dcpSize().ifPresent(d -> sb.append(" dcp=").append(d));
      } else if (e instanceof Disaggregated d) {
        sb.append('p').append(d.prefill()).append(" d").append(d.decode());
      } else if (e instanceof Aggregated a) {
        sb.append('w').append(a.worker()).append(" nodes=").append(a.numNodes());
      }
      e.specDecoding().ifPresent(s -> sb.append(" spec=").append(s.wire()));
      e.kvOffload().ifPresent(kv -> sb.append(" kv=").append(kv));
      sb.append(" conc=").append(e.conc());
    }
    sb.append(']');
  }
}
