package io.infx.matrix;

import io.infx.core.ErrorKind;
import io.infx.core.ImmutableViolation;
import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Fluent entry point for expanding master configs in code or JShell: pick the configs (files,
 * a {@link Catalog}, or configs declared here with {@link #singleNode} / {@link #multiNode}), the
 * runner file, filters, bounds and eval mode, then {@link #expand()}. Every method returns a new, immutable
 * {@code Sweep} (and every declaration step a new {@link Declaration}), so a base can be
 * specialised freely without changing what was expanded from it.
 *
 * <pre>{@code
 * Matrix m = Sweep.fromFiles(Path.of("configs/nvidia-master.yaml"))
 *     .runners(Path.of("configs/runners.yaml"))
 *     .modelPrefix("dsr1").seqLens("8k1k").singleNodeOnly()
 *     .maxConc(64)
 *     .evals(EvalMode.NONE)
 *     .expand();
 *
 * // A config declared in code: the identity is required by the types (ConfigIdentity's staged
 * // builder), search spaces are added one block at a time, and every step returns a new value.
 * Matrix mine = Sweep.singleNode(ConfigIdentity.image("vllm/vllm-openai:v0.11.0")
 *         .model("meta-llama/Llama-3.1-70B-Instruct")
 *         .modelPrefix("llama").precision("fp8").framework("vllm").runner("h100"))
 *     .searchSpace(8192, 1024, Sweep.tp(8).conc(4, 64), Sweep.tp(4).ep(4).concList(16, 48))
 *     .expand();
 * }</pre>
 *
 * Expansion follows {@code generate full-sweep} (see {@link Generator#fullSweep}); a
 * {@link #configKeys} selection first narrows the catalogue to the matching keys (exact keys or
 * {@code *}/{@code ?} globs).
 *
 * <p>A mistake in a DSL call ({@code seqLens("2k2k")}, {@code stepSize(1)}, {@code minConc} above
 * {@code maxConc}, {@code maxConc(0)}, a null filter value, {@code runnerType} without a runner
 * file) throws a {@link ValidationException} whose violation carries a rule id, a pointer naming the
 * setting and the location of the call in the caller's source ({@code com/acme/Ci.java:42:1}), as a
 * config file's violations carry {@code file:line:column}.
 */
public final class Sweep {

  private final Catalog catalog;
  private final RunnerInventory runners;
  private final ImmutableFullSweepOptions options;
  private final List<String> configKeys;
  /** Whether {@link #runners} was called: runner types are checked against a runner file only. */
  private final boolean runnerFile;
  /** Where {@link #runnerType} was last called, to locate a runner-type error found at expansion. */
  private final Optional<Location> runnerTypeCall;

  private Sweep(Catalog catalog, RunnerInventory runners, ImmutableFullSweepOptions options, List<String> keys,
      boolean runnerFile, Optional<Location> runnerTypeCall) {
    this.catalog = catalog;
    this.runners = runners;
    this.options = options;
    this.configKeys = keys;
    this.runnerFile = runnerFile;
    this.runnerTypeCall = runnerTypeCall;
  }

  private static Sweep start(Catalog catalog) {
    return new Sweep(Objects.requireNonNull(catalog, "catalog"), emptyRunners(),
        ImmutableFullSweepOptions.builder().build(), List.of(), false, Optional.empty());
  }

  /** A sweep over a loaded catalogue. */
  public static Sweep of(Catalog catalog) {
    return start(catalog);
  }

  /** A sweep over master files, merged in order (loaded and validated now). */
  public static Sweep fromFiles(Path... files) {
    return start(Catalog.load(Objects.requireNonNull(files, "files")));
  }

  /** A sweep over master files or in-memory texts. */
  public static Sweep fromSources(List<Source> sources) {
    return start(Catalog.load(Objects.requireNonNull(sources, "sources")));
  }

  /** A sweep over configs keyed by config key, in map order (validated now). */
  public static Sweep of(Map<String, ? extends MasterConfig> configs) {
    return start(Catalog.of(Objects.requireNonNull(configs, "configs")));
  }

  /**
   * A sweep over configs built in code; each is keyed by the catalogue convention
   * {@code <model-prefix>-<precision>-<runner>-<framework>} (a numeric suffix separates clashes).
   */
  public static Sweep of(MasterConfig... configs) {
    Objects.requireNonNull(configs, "configs");
    Map<String, MasterConfig> keyed = new LinkedHashMap<>();
    for (MasterConfig c : configs) {
      Objects.requireNonNull(c, "config");
      String base = ConfigIdentity.conventionalKey(c.modelPrefix(), c.precision(), c.runner(), c.framework());
      String key = base;
      for (int n = 2; keyed.containsKey(key); n++) {
        key = base + "-" + n;
      }
      keyed.put(key, c);
    }
    return of(keyed);
  }

  /**
   * A sweep over configs declared with {@link #singleNode} / {@link #multiNode}.
   *
   * @throws ValidationException ({@code sweep.duplicate-key}, located at this call) when two
   *     declarations have the same key
   */
  public static Sweep of(Declaration... configs) {
    Objects.requireNonNull(configs, "configs");
    Map<String, MasterConfig> keyed = new LinkedHashMap<>();
    for (int i = 0; i < configs.length; i++) {
      Declaration d = Objects.requireNonNull(configs[i], "config");
      if (keyed.put(d.key(), d.build()) != null) {
        throw mistake(callSite(), Violation.builder().ruleId("sweep.duplicate-key").pointer("/configs/" + i)
            .message("config key declared twice; give one of them another key with key(…)")
            .actual(d.key()).build());
      }
    }
    return of(keyed);
  }

  /**
   * A new sweep with {@code change} applied to the options; a broken {@link FullSweepOptions} check
   * is rethrown located at the DSL call that broke it.
   */
  private Sweep with(UnaryOperator<ImmutableFullSweepOptions> change) {
    return with(change, runnerTypeCall);
  }

  private Sweep with(UnaryOperator<ImmutableFullSweepOptions> change, Optional<Location> typeCall) {
    ImmutableFullSweepOptions changed;
    try {
      changed = change.apply(options);
    } catch (ValidationException e) {
      throw located(e, callSite());
    }
    return new Sweep(catalog, runners, changed, configKeys, runnerFile, typeCall);
  }

  // ---- mistakes in DSL calls: located ValidationExceptions, like the file rules ---------------------

  /**
   * Where the caller of the DSL called it: the first stack frame outside {@code Sweep}, as
   * {@code <package path>/<File>.java:<line>:1} (column 1: class files record lines, not columns);
   * a JShell snippet is named as JShell names it (e.g. {@code #12}). Empty when the frame carries no
   * line number (classes compiled without debug information).
   */
  static Optional<Location> callSite() {
    String self = Sweep.class.getName();
    return StackWalker.getInstance().walk(frames -> frames
        .filter(f -> !f.getClassName().equals(self) && !f.getClassName().startsWith(self + "$"))
        .findFirst())
        .filter(f -> f.getLineNumber() > 0 && f.getFileName() != null)
        .map(f -> new Location(sourceName(f.getClassName(), f.getFileName()), f.getLineNumber(), 1));
  }

  private static String sourceName(String className, String fileName) {
    int dot = className.lastIndexOf('.');
    if (!fileName.endsWith(".java") || dot < 0) {
      return fileName;
    }
    return className.substring(0, dot).replace('.', '/') + "/" + fileName;
  }

  /** {@code e}'s violations, each located at {@code at} unless it has a location already. */
  private static ValidationException located(ValidationException e, Optional<Location> at) {
    if (at.isEmpty()) {
      return e;
    }
    List<Violation> out = new ArrayList<>();
    for (Violation v : e.violations()) {
      out.add(v.location().isPresent() ? v : ImmutableViolation.copyOf(v).withLocation(at.get()));
    }
    return new ValidationException(e.kind(), out);
  }

  private static ValidationException mistake(Optional<Location> at, Violation v) {
    return located(new ValidationException(ErrorKind.USAGE, List.of(v)), at);
  }

  /** The values of a filter, checked for null (the array or an element): {@code sweep.null}. */
  private static <T> List<T> filterValues(String setting, T[] values) {
    if (values == null) {
      throw mistake(callSite(), Violation.builder().ruleId("sweep.null").pointer("/" + setting)
          .message(setting + "(null): a filter takes values, not null; call it with no values to clear it")
          .build());
    }
    for (int i = 0; i < values.length; i++) {
      if (values[i] == null) {
        throw mistake(callSite(), Violation.builder().ruleId("sweep.null").pointer("/" + setting + "/" + i)
            .message(setting + ": a filter value cannot be null").build());
      }
    }
    return Arrays.asList(values);
  }

  private static <T> T value(String setting, T value) {
    if (value == null) {
      throw mistake(callSite(), Violation.builder().ruleId("sweep.null").pointer("/" + setting)
          .message(setting + "(null): a value is required").build());
    }
    return value;
  }

  /**
   * A bound of the DSL: at least 1. The command line keeps the reference's reading of a bound
   * {@code ≤ 0} ({@code --max-conc 0} skips every fixed-seq-len entry, spec matrix §4.5), which in
   * code is always a mistake (a sweep of nothing).
   */
  private static int bound(String setting, int value) {
    if (value < 1) {
      throw mistake(callSite(), Violation.builder().ruleId("sweep.bound").pointer("/" + setting)
          .message(setting + " must be at least 1: a bound below 1 keeps no fixed-seq-len point")
          .expected("≥ 1").actual(Integer.toString(value)).build());
    }
    return value;
  }

  /**
   * The runner file: scheduling labels and the cluster facts node counts and DRAM budgets need.
   * Without it a sweep has an empty inventory: single-node fixed-seq-len rows expand as usual,
   * but runner filters match nothing and rows that need cluster facts (multi-node node counts,
   * KV-offload budgets) fail validation with a {@code V55}/{@code V59} violation on the config.
   */
  public Sweep runners(RunnerInventory inventory) {
    return new Sweep(catalog, Objects.requireNonNull(inventory, "inventory"), options, configKeys, true,
        runnerTypeCall);
  }

  /** The runner file at {@code file} (loaded and validated now). */
  public Sweep runners(Path file) {
    return runners(RunnerInventory.load(Objects.requireNonNull(file, "file")));
  }

  /**
   * Configs whose key starts with one of {@code prefixes} (the reference's --model-prefix); no
   * values clears the filter.
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for a null value
   */
  public Sweep modelPrefix(String... prefixes) {
    List<String> list = filterValues("modelPrefix", prefixes);
    return with(o -> o.withModelPrefixes(list));
  }

  /**
   * Configs of these precisions (exact match, e.g. {@code fp8}); no values clears the filter.
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for a null value
   */
  public Sweep precision(String... precisions) {
    List<String> list = filterValues("precision", precisions);
    return with(o -> o.withPrecisions(list));
  }

  /**
   * Configs of these frameworks (exact match, e.g. {@code vllm}); no values clears the filter.
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for a null value
   */
  public Sweep framework(String... frameworks) {
    List<String> list = filterValues("framework", frameworks);
    return with(o -> o.withFrameworks(list));
  }

  /**
   * Configs on these runner labels; each must be a label of the runner file given with
   * {@link #runners}, checked when the sweep expands (before or after this call, either order).
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for a null value; at
   *     {@link #expand()}, {@code V51.runner-type} (kind {@code SELECTION}, located at this call)
   *     for a label the runner file lacks, or for any label when no runner file was given
   */
  public Sweep runnerType(String... labels) {
    List<String> list = filterValues("runnerType", labels);
    return with(o -> o.withRunnerTypes(list), list.isEmpty() ? Optional.empty() : callSite());
  }

  /**
   * Fixed-seq-len families {@code 1k1k} / {@code 8k1k} (agentic rows are kept).
   *
   * @throws ValidationException located at this call: {@code V52.seq-lens} for any other value,
   *     {@code sweep.null} for null
   */
  public Sweep seqLens(String... families) {
    List<String> list = filterValues("seqLens", families);
    return with(o -> o.withSeqLens(list));
  }

  /**
   * Only these scenario lists of each config ({@code fixed-seq-len}, {@code agentic-coding}); no
   * values reads both.
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for a null value
   */
  public Sweep scenario(ScenarioType... types) {
    List<ScenarioType> list = filterValues("scenario", types);
    return with(o -> o.withScenarioTypes(list));
  }

  /** Single-node configs only (multi-node ones are left out). */
  public Sweep singleNodeOnly() {
    return with(o -> o.withSingleNode(true).withMultiNode(false));
  }

  /** Multi-node configs only (single-node ones are left out). */
  public Sweep multiNodeOnly() {
    return with(o -> o.withSingleNode(false).withMultiNode(true));
  }

  /**
   * Only the configs whose keys match (exact keys or {@code *}/{@code ?} globs), in catalogue order;
   * a pattern matching nothing fails when the sweep expands ({@code V53}).
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for a null pattern
   */
  public Sweep configKeys(String... patterns) {
    List<String> list = List.copyOf(filterValues("configKeys", patterns));
    return new Sweep(catalog, runners, options, list, runnerFile, runnerTypeCall);
  }

  /**
   * Expand each config to the concrete runner names containing {@code text}.
   *
   * @throws ValidationException ({@code sweep.null}, located at this call) for null
   */
  public Sweep runnerNodeFilter(String text) {
    String t = value("runnerNodeFilter", text);
    return with(o -> o.withRunnerNodeFilter(t));
  }

  /**
   * Lower concurrency bound (spec matrix §4.5: single-node ranges start at it, other points below it
   * are dropped).
   *
   * @throws ValidationException located at this call: {@code sweep.bound} for {@code min < 1},
   *     {@code V48.conc-bounds} when it exceeds {@link #maxConc}
   */
  public Sweep minConc(int min) {
    int m = bound("minConc", min);
    return with(o -> o.withMinConc(m));
  }

  /**
   * Upper concurrency bound (spec matrix §4.5: fixed-seq-len entries with nothing left under it run
   * at the cap; agentic points above it are dropped).
   *
   * @throws ValidationException located at this call: {@code sweep.bound} for {@code max < 1},
   *     {@code V48.conc-bounds} when {@link #minConc} exceeds it
   */
  public Sweep maxConc(int max) {
    int m = bound("maxConc", max);
    return with(o -> o.withMaxConc(m));
  }

  /**
   * Geometric factor of concurrency ranges (default 2).
   *
   * @throws ValidationException ({@code V47.step-size}, located at this call) unless it exceeds 1
   */
  public Sweep stepSize(int factor) {
    return with(o -> o.withStepSize(factor));
  }

  /**
   * Skips single-node fixed-seq-len entries with a TP above {@code tp}.
   *
   * @throws ValidationException ({@code sweep.bound}, located at this call) for {@code tp < 1}
   */
  public Sweep maxTp(int tp) {
    int t = bound("maxTp", tp);
    return with(o -> o.withMaxTp(t));
  }

  /**
   * Clamps an explicit single-node fixed-seq-len EP to {@code ep}.
   *
   * @throws ValidationException ({@code sweep.bound}, located at this call) for {@code ep < 1}
   */
  public Sweep maxEp(int ep) {
    int e = bound("maxEp", ep);
    return with(o -> o.withMaxEp(e));
  }

  /**
   * Which rows run evals ({@link EvalMode}; default {@link EvalMode#DEFAULT}).
   *
   * @throws ValidationException located at this call: {@code sweep.null} for null,
   *     {@code V50.smoke-trim} for {@link EvalMode#SMOKE} after {@link #trimConc()}
   */
  public Sweep evals(EvalMode mode) {
    EvalMode m = value("evals", mode);
    return with(o -> o.withEvalMode(m));
  }

  /**
   * Keep only the minimum concurrency of every deployment shape (after eval selection).
   *
   * @throws ValidationException ({@code V50.smoke-trim}, located at this call) after
   *     {@code evals(EvalMode.SMOKE)}
   */
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

  /** The filters, bounds and eval mode set so far, as {@code generate full-sweep} options. */
  public FullSweepOptions options() {
    return options;
  }

  /**
   * Expands the selection into a matrix ({@link Generator#fullSweep}).
   *
   * @throws ValidationException {@code V51.runner-type} (kind {@code SELECTION}, located at the
   *     {@link #runnerType} call) when a runner type is not a label of the runner file or no runner
   *     file was given; the generator's errors otherwise
   */
  public Matrix expand() {
    if (!options.runnerTypes().isEmpty()) {
      Optional<String> invalid = runnerFile
          ? io.infx.matrix.internal.Expansion.invalidRunnerTypes(options.runnerTypes(), runners)
          : Optional.of("runnerType(" + String.join(", ", options.runnerTypes()) + ") needs the runner file "
              + "that defines the labels: add .runners(…) to the sweep");
      if (invalid.isPresent()) {
        throw located(new ValidationException(ErrorKind.SELECTION, List.of(Violation.builder()
            .ruleId("V51.runner-type").pointer("/runnerType").message(invalid.get()).build())), runnerTypeCall);
      }
    }
    return Generator.fullSweep(catalog(), runners, options);
  }

  /** E.g. {@code Sweep{configs=[llama-fp8-h100-vllm], runner-labels=0, options=FullSweepOptions{…}}}. */
  @Override
  public String toString() {
    return "Sweep{configs=" + catalog.keys() + (configKeys.isEmpty() ? "" : ", configKeys=" + configKeys)
        + ", runner-labels=" + runners.labels().size() + ", options=" + options + "}";
  }

  private static RunnerInventory emptyRunners() {
    return io.infx.matrix.runners.ImmutableRunnerInventory.builder().build();
  }

  // ---- declaring configs in code ----------------------------------------------------------------

  /**
   * Declares a single-node config (fixed-seq-len blocks and/or AgentX blocks), with no search space
   * yet: the card's chain {@code Sweep.singleNode(identity).searchSpace(isl, osl, entries…).expand()}.
   * (Every {@code Sweep.of} returns a {@code Sweep}; a declaration starts with {@code singleNode} or
   * {@link #multiNode}.)
   */
  public static SingleNode singleNode(ConfigIdentity identity) {
    return new SingleNode(Objects.requireNonNull(identity, "identity"), Optional.empty(), List.of(), List.of());
  }

  /** Declares a multi-node config, with no search space yet. */
  public static MultiNode multiNode(ConfigIdentity identity) {
    return new MultiNode(Objects.requireNonNull(identity, "identity"), Optional.empty(), Optional.empty(),
        List.of(), List.of());
  }

  /**
   * A single-node (TP-shaped) search-space entry, fixed-seq-len or AgentX. {@code tp} is checked only
   * by the master-config rules (V14: {@code dcp-size} divides it); like the reference, {@code 0} or a
   * negative TP is not rejected (docs/decisions.md, Matrix).
   */
  public static Entry tp(int tp) {
    return new Entry(tp, Map.of());
  }

  /** A worker pool: {@code numWorker} replicas of TP {@code tp}, EP {@code ep}. */
  public static Worker worker(int numWorker, int tp, int ep, boolean dpAttn) {
    return Worker.builder().numWorker(numWorker).tp(tp).ep(ep).dpAttn(dpAttn).build();
  }

  /** A disaggregated multi-node entry (prefill and decode pools). */
  public static MultiEntry disaggregated(Worker prefill, Worker decode) {
    Objects.requireNonNull(prefill, "prefill");
    Objects.requireNonNull(decode, "decode");
    return new MultiEntry(List.of(b -> b.prefill(prefill).decode(decode)),
        "disaggregated(prefill " + workerText(prefill) + ", decode " + workerText(decode) + ")");
  }

  /** An aggregated multi-node entry: one pool of TP {@code tp} on {@code numNodes} nodes. */
  public static MultiEntry aggregated(int tp, int ep, boolean dpAttn, int numNodes) {
    AggregateWorker w = AggregateWorker.builder().tp(tp).ep(ep).dpAttn(dpAttn).build();
    return new MultiEntry(List.of(b -> b.worker(w).numNodes(numNodes)),
        "aggregated(" + tp + ", " + ep + ", " + dpAttn + ", " + numNodes + ")");
  }

  private static String workerText(Worker w) {
    return w.numWorker() + "×tp" + w.tp() + "/ep" + w.ep() + (w.dpAttn() ? "/dp-attn" : "");
  }

  /**
   * A config declared in code: an immutable value. Every method that adds to it returns a new
   * declaration and leaves this one (and whatever was expanded from it) unchanged, so a base
   * declaration can be specialised freely. {@link #build()} validates nothing; the sweep does, with
   * pointers under {@code /<key>/…}.
   */
  public sealed interface Declaration permits SingleNode, MultiNode {
    /** The identity every config needs (required when the declaration is started). */
    ConfigIdentity identity();

    /** The catalogue key ({@link ConfigIdentity#key()}). */
    default String key() {
      return identity().key();
    }

    /** The master config as declared (not yet validated). */
    MasterConfig build();

    /** A sweep over this config alone (validated now), to add a runner file, filters or bounds. */
    default Sweep sweep() {
      return Sweep.of(this);
    }

    /**
     * Validates this config and expands it with an empty runner inventory and the default options
     * ({@link Sweep#expand()}); use {@link #sweep()} for a runner file, filters or bounds.
     *
     * @throws io.infx.core.ValidationException listing every violated rule with its pointer
     */
    default Matrix expand() {
      return sweep().expand();
    }
  }

  /** A declared block: the built value and the DSL text that declared it (for {@code toString}). */
  private record Block<T>(T value, String text) {}

  private static String joined(Object[] parts) {
    StringBuilder sb = new StringBuilder();
    for (Object o : parts) {
      sb.append(", ").append(o);
    }
    return sb.toString();
  }

  private static <T> List<T> plus(List<T> list, T item) {
    List<T> out = new ArrayList<>(list);
    out.add(item);
    return List.copyOf(out);
  }

  private static <T> List<T> values(List<Block<T>> blocks) {
    return blocks.stream().map(Block::value).toList();
  }

  private static Block<AgenticScenario> agenticBlock(Optional<Double> dramUtilization, AgenticEntry[] entries,
      String text) {
    Objects.requireNonNull(dramUtilization, "dramUtilization");
    AgenticScenario built = AgenticScenario.builder().addSearchSpace(entries)
        .dramUtilization(dramUtilization.map(d -> new BigDecimal(Double.toString(d)))).build();
    return new Block<>(built, text);
  }

  private static AgenticEntry[] agenticEntries(Entry[] entries) {
    AgenticEntry[] built = new AgenticEntry[entries.length];
    for (int i = 0; i < entries.length; i++) {
      built[i] = Objects.requireNonNull(entries[i], "entry").agentic();
    }
    return built;
  }

  /** A single-node config: identity, optional router, fixed-seq-len and AgentX blocks. Immutable. */
  public static final class SingleNode implements Declaration {
    private final ConfigIdentity identity;
    private final Optional<Component> router;
    private final List<Block<SingleNodeSeqLen>> fixed;
    private final List<Block<AgenticScenario>> agentic;

    private SingleNode(ConfigIdentity identity, Optional<Component> router, List<Block<SingleNodeSeqLen>> fixed,
        List<Block<AgenticScenario>> agentic) {
      this.identity = identity;
      this.router = router;
      this.fixed = fixed;
      this.agentic = agentic;
    }

    @Override
    public ConfigIdentity identity() {
      return identity;
    }

    /**
     * The same config filed under {@code key}. The key rules are the YAML ones, checked when the
     * sweep validates: {@code *} is rejected (V3.key-wildcard), {@code ?}, {@code [}, {@code ]} too
     * (Q7.key-glob); any other text is accepted.
     */
    public SingleNode key(String key) {
      return new SingleNode(identity.withKey(key), router, fixed, agentic);
    }

    /** A router for the whole config (e.g. {@code router("sglang-router", "0.2.1")}). */
    public SingleNode router(String name, String version) {
      return new SingleNode(identity, Optional.of(Component.of(name, version)), fixed, agentic);
    }

    /**
     * A new declaration with one more fixed-seq-len block: ISL/OSL in tokens and its entries (each
     * built with {@link Sweep#tp}). This declaration is unchanged. Like a YAML block, any ISL/OSL is
     * accepted (a negative one included) and no entries is allowed: that block expands to no rows,
     * as the reference's {@code search-space: []} does (docs/decisions.md, Matrix).
     *
     * @throws IllegalStateException if an entry sets an AgentX-only field (KV offload)
     */
    public SingleNode searchSpace(int isl, int osl, Entry... entries) {
      List<SingleNodeEntry> built = new ArrayList<>();
      for (Entry e : entries) {
        built.add(Objects.requireNonNull(e, "entry").fixed());
      }
      SingleNodeSeqLen block = SingleNodeSeqLen.builder().isl(isl).osl(osl).searchSpace(built).build();
      return new SingleNode(identity, router,
          plus(fixed, new Block<>(block, ".searchSpace(" + isl + ", " + osl + joined(entries) + ")")), agentic);
    }

    /** A new declaration with one more AgentX block; {@code dramUtilization} (0–1] is needed by DRAM-offload entries. */
    public SingleNode agentic(Optional<Double> dramUtilization, AgenticEntry... entries) {
      return new SingleNode(identity, router, fixed, plus(agentic, agenticBlock(dramUtilization, entries,
          ".agentic(" + dramUtilization + joined(entries) + ")")));
    }

    /** A new declaration with one more AgentX block of entries built with {@link Sweep#tp}. */
    public SingleNode agentic(double dramUtilization, Entry... entries) {
      return new SingleNode(identity, router, fixed, plus(agentic, agenticBlock(Optional.of(dramUtilization),
          agenticEntries(entries), ".agentic(" + dramUtilization + joined(entries) + ")")));
    }

    @Override
    public SingleNodeMaster build() {
      return SingleNodeMaster.builder()
          .image(identity.image()).model(identity.model()).modelPrefix(identity.modelPrefix())
          .precision(identity.precision()).framework(identity.framework()).runner(identity.runner())
          .multinode(false).router(router)
          .scenarios(ImmutableSingleNodeScenarios.builder().fixedSeqLen(values(fixed))
              .agenticCoding(values(agentic)).build())
          .build();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SingleNode d && identity.equals(d.identity) && router.equals(d.router)
          && fixed.equals(d.fixed) && agentic.equals(d.agentic);
    }

    @Override
    public int hashCode() {
      return Objects.hash(identity, router, fixed, agentic);
    }

    /** The declaration as the chain that makes it, e.g. {@code Sweep.singleNode(llama-fp8-h100-vllm{…}).searchSpace(8192, 1024, tp(8).conc(4, 64))}. */
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("Sweep.singleNode(").append(identity).append(')');
      router.ifPresent(r -> sb.append(".router(").append(r.name()).append(", ").append(r.version()).append(')'));
      fixed.forEach(b -> sb.append(b.text()));
      agentic.forEach(b -> sb.append(b.text()));
      return sb.toString();
    }
  }

  /** A multi-node config: identity, optional disaggregation and router, search-space blocks. Immutable. */
  public static final class MultiNode implements Declaration {
    private final ConfigIdentity identity;
    private final Optional<String> transfer;
    private final Optional<Component> router;
    private final List<Block<MultiNodeSeqLen>> fixed;
    private final List<Block<AgenticScenario>> agentic;

    private MultiNode(ConfigIdentity identity, Optional<String> transfer, Optional<Component> router,
        List<Block<MultiNodeSeqLen>> fixed, List<Block<AgenticScenario>> agentic) {
      this.identity = identity;
      this.transfer = transfer;
      this.router = router;
      this.fixed = fixed;
      this.agentic = agentic;
    }

    @Override
    public ConfigIdentity identity() {
      return identity;
    }

    /** The same config filed under {@code key}; the key rules are those of {@link SingleNode#key}. */
    public MultiNode key(String key) {
      return new MultiNode(identity.withKey(key), transfer, router, fixed, agentic);
    }

    /** Disaggregated serving with KV transfer engine {@code transfer} (e.g. {@code nixl}). */
    public MultiNode disagg(String transfer) {
      return new MultiNode(identity, Optional.of(Objects.requireNonNull(transfer, "transfer")), router, fixed,
          agentic);
    }

    public MultiNode router(String name, String version) {
      return new MultiNode(identity, transfer, Optional.of(Component.of(name, version)), fixed, agentic);
    }

    /**
     * A new declaration with one more fixed-seq-len block (ISL/OSL in tokens). This one is unchanged.
     * As for {@link SingleNode#searchSpace}, any ISL/OSL and no entries (no rows) are accepted.
     */
    public MultiNode searchSpace(int isl, int osl, MultiEntry... entries) {
      List<MultiNodeEntry> built = new ArrayList<>();
      for (MultiEntry e : entries) {
        built.add(Objects.requireNonNull(e, "entry").build());
      }
      MultiNodeSeqLen block = MultiNodeSeqLen.builder().isl(isl).osl(osl).searchSpace(built).build();
      return new MultiNode(identity, transfer, router,
          plus(fixed, new Block<>(block, ".searchSpace(" + isl + ", " + osl + joined(entries) + ")")), agentic);
    }

    /** A new declaration with one more AgentX block. */
    public MultiNode agentic(Optional<Double> dramUtilization, AgenticEntry... entries) {
      return new MultiNode(identity, transfer, router, fixed, plus(agentic, agenticBlock(dramUtilization, entries,
          ".agentic(" + dramUtilization + joined(entries) + ")")));
    }

    @Override
    public MultiNodeMaster build() {
      return MultiNodeMaster.builder()
          .image(identity.image()).model(identity.model()).modelPrefix(identity.modelPrefix())
          .precision(identity.precision()).framework(identity.framework()).runner(identity.runner())
          .multinode(true).disagg(transfer.isPresent()).kvP2pTransfer(transfer).router(router)
          .scenarios(ImmutableMultiNodeScenarios.builder().fixedSeqLen(values(fixed))
              .agenticCoding(values(agentic)).build())
          .build();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof MultiNode d && identity.equals(d.identity) && transfer.equals(d.transfer)
          && router.equals(d.router) && fixed.equals(d.fixed) && agentic.equals(d.agentic);
    }

    @Override
    public int hashCode() {
      return Objects.hash(identity, transfer, router, fixed, agentic);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("Sweep.multiNode(").append(identity).append(')');
      transfer.ifPresent(t -> sb.append(".disagg(").append(t).append(')'));
      router.ifPresent(r -> sb.append(".router(").append(r.name()).append(", ").append(r.version()).append(')'));
      fixed.forEach(b -> sb.append(b.text()));
      agentic.forEach(b -> sb.append(b.text()));
      return sb.toString();
    }
  }

  /**
   * A single-node entry: topology, concurrency, and (for AgentX) KV offload. Immutable: every method
   * returns a new entry. Prints as the chain that makes it, e.g. {@code tp(4).ep(4).concList(16, 48)}.
   */
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

    private Entry(int tp, Map<Key, Object> fields) {
      this.tp = tp;
      this.fields = fields;
    }

    private Entry set(Key key, Object value) {
      Map<Key, Object> f = new LinkedHashMap<>(fields);
      f.put(key, value);
      return new Entry(tp, Collections.unmodifiableMap(f));
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
      return set(Key.SPEC_DECODING, Objects.requireNonNull(mode, "mode"));
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
          default -> throw new IllegalStateException(k + " applies to AgentX entries only: " + this);
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

    @Override
    public boolean equals(Object o) {
      return o instanceof Entry e && tp == e.tp && fields.equals(e.fields);
    }

    @Override
    public int hashCode() {
      return Objects.hash(tp, fields);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("tp(").append(tp).append(')');
      fields.forEach((k, v) -> {
        switch (k) {
          case CONC_START -> sb.append(".conc(").append(v).append(", ").append(fields.get(Key.CONC_END)).append(')');
          case CONC_END, KV_OFFLOAD_BACKEND -> { }
          case CONC_LIST -> sb.append(".concList(").append(String.join(", ",
              ((List<?>) v).stream().map(String::valueOf).toList())).append(')');
          case EP -> sb.append(".ep(").append(v).append(')');
          case PP -> sb.append(".pp(").append(v).append(')');
          case DCP_SIZE -> sb.append(".dcp(").append(v).append(')');
          case PCP_SIZE -> sb.append(".pcp(").append(v).append(')');
          case DP_ATTN -> sb.append(".dpAttn()");
          case SPEC_DECODING -> sb.append(".spec(").append(v).append(')');
          case ROUTER -> sb.append(".router(").append(((Component) v).name()).append(", ")
              .append(((Component) v).version()).append(')');
          case KV_OFFLOADING -> sb.append(v == KvOffloading.NONE ? ".noOffload()"
              : ".dramOffload(" + ((OffloadBackend) fields.get(Key.KV_OFFLOAD_BACKEND)).name() + ")");
          default -> sb.append('.').append(k).append('(').append(v).append(')');
        }
      });
      return sb.toString();
    }
  }

  /** A multi-node entry: its pools and concurrency. Immutable: every method returns a new entry. */
  public static final class MultiEntry {
    private final List<Consumer<ImmutableMultiNodeEntry.Builder>> steps;
    private final String text;

    private MultiEntry(List<Consumer<ImmutableMultiNodeEntry.Builder>> steps, String text) {
      this.steps = steps;
      this.text = text;
    }

    private MultiEntry then(Consumer<ImmutableMultiNodeEntry.Builder> step, String more) {
      return new MultiEntry(plus(steps, step), text + more);
    }

    public MultiEntry conc(int start, int end) {
      return then(b -> b.concStart(start).concEnd(end), ".conc(" + start + ", " + end + ")");
    }

    public MultiEntry concList(Integer... values) {
      List<Integer> list = List.of(values);
      return then(b -> b.concList(list), ".concList(" + String.join(", ",
          list.stream().map(String::valueOf).toList()) + ")");
    }

    public MultiEntry spec(SpecDecoding mode) {
      Objects.requireNonNull(mode, "mode");
      return then(b -> b.specDecoding(mode), ".spec(" + mode + ")");
    }

    MultiNodeEntry build() {
      ImmutableMultiNodeEntry.Builder b = ImmutableMultiNodeEntry.builder();
      steps.forEach(s -> s.accept(b));
      return b.build();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof MultiEntry e && build().equals(e.build());
    }

    @Override
    public int hashCode() {
      return build().hashCode();
    }

    @Override
    public String toString() {
      return text;
    }
  }
}
