package io.infx.matrix.internal;

import io.infx.matrix.RowField;
import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.python.PythonRepr;
import io.infx.core.bind.Origin;
import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.ScenarioType;
import io.infx.matrix.config.AgenticEntry;
import io.infx.matrix.config.AgenticScenario;
import io.infx.matrix.config.Component;
import io.infx.matrix.config.KvOffloading;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.MultiNodeEntry;
import io.infx.matrix.config.OffloadBackend;
import io.infx.matrix.config.SearchEntry;
import io.infx.matrix.config.SeqLen;
import io.infx.matrix.config.SingleNodeEntry;
import io.infx.matrix.config.WorkerShape;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Expansion of validated master configs into matrix rows, before eval selection (reference §4.2–4.10):
 * config selection, runner resolution, concurrency expansion and bounds, topology defaults, derived
 * fields ({@code max-model-len}, {@code exp-name}, {@code node-count}, DRAM budget). Rows carry their
 * keys in the reference's construction order.
 */
public final class Expansion {

  /** Seconds an AgentX trace replay runs; a constant of the reference. */
  public static final int AGENTIC_DURATION_SECONDS = 3600;

  private final RunnerInventory runners;
  private final Hardware hardware;

  public Expansion(RunnerInventory runners) {
    this.runners = runners;
    this.hardware = new Hardware(runners);
  }

  /** Options of one traversal; {@code fullSweep} is empty for test-config semantics. */
  private record Traversal(
      Optional<FullSweepOptions> fullSweep,
      Set<String> seqFamilies,
      Set<ScenarioType> scenarioTypes,
      Optional<String> nodeFilter,
      List<Integer> concFilter) {}

  /** Full-sweep rows before eval selection. */
  public List<Row> fullSweep(Catalog catalog, FullSweepOptions o) {
    invalidRunnerTypes(o.runnerTypes(), runners).ifPresent(message -> {
      throw Fail.selection("V51.runner-type", message);
    });
    List<MasterConfig> selected = new ArrayList<>();
    for (Map.Entry<String, MasterConfig> e : catalog.configs().entrySet()) {
      MasterConfig c = e.getValue();
      if (!o.modelPrefixes().isEmpty() && o.modelPrefixes().stream().noneMatch(p -> e.getKey().startsWith(p))) {
        continue;
      }
      if (!o.precisions().isEmpty() && !o.precisions().contains(c.precision())) {
        continue;
      }
      if (!o.frameworks().isEmpty() && !o.frameworks().contains(c.framework())) {
        continue;
      }
      if (!o.runnerTypes().isEmpty() && !o.runnerTypes().contains(c.runner())) {
        continue;
      }
      selected.add(c);
    }
    return expand(selected, new Traversal(Optional.of(o), families(o.seqLens()), o.scenarioTypes(),
        o.runnerNodeFilter(), List.of()));
  }

  /** Test-config rows before eval selection (keys resolved with {@link #resolveKeys}). */
  public List<Row> testConfig(Catalog catalog, List<String> keys, List<String> seqLens,
      Set<ScenarioType> scenarioTypes, Optional<String> nodeFilter, List<Integer> concs) {
    List<MasterConfig> selected = new ArrayList<>();
    for (String k : resolveKeys(keys, catalog.keys())) {
      selected.add(catalog.configs().get(k));
    }
    return expand(selected, new Traversal(Optional.empty(), families(seqLens), scenarioTypes, nodeFilter, concs));
  }

  /**
   * V51: the runner types of {@code types} that are not labels of {@code runners}, as the error
   * message (invalid values and all valid labels, sorted), or empty when every type is a label.
   */
  public static Optional<String> invalidRunnerTypes(List<String> types, RunnerInventory runners) {
    Set<String> invalid = new TreeSet<>(types);
    invalid.removeAll(runners.labels().keySet());
    if (invalid.isEmpty()) {
      return Optional.empty();
    }
    List<String> quoted = new ArrayList<>();
    for (String s : invalid) {
      quoted.add(PythonRepr.repr(s));
    }
    return Optional.of("Invalid runner type(s): {" + String.join(", ", quoted)
        + "}. Valid runner types are: " + String.join(", ", new TreeSet<>(runners.labels().keySet())));
  }

  /**
   * The sequence families {@code seqLens} names, in order.
   *
   * @throws ValidationException (kind {@code USAGE}) for anything but {@code 1k1k} and
   *     {@code 8k1k}, one {@code V52.seq-lens} violation per bad value
   */
  public static Set<String> families(List<String> seqLens) {
    List<Violation> bad = seqLensViolations(seqLens);
    if (!bad.isEmpty()) {
      throw new ValidationException(ErrorKind.USAGE, bad);
    }
    return new LinkedHashSet<>(seqLens);
  }

  /** V52: one violation (pointer {@code /seqLens/<i>}) per value of {@code seqLens} that is not a family. */
  public static List<Violation> seqLensViolations(List<String> seqLens) {
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < seqLens.size(); i++) {
      String s = seqLens.get(i);
      if (!s.equals("1k1k") && !s.equals("8k1k")) {
        out.add(Violation.builder().ruleId("V52.seq-lens").pointer("/seqLens/" + i)
            .message("unknown sequence family").expected("1k1k or 8k1k").actual(PythonRepr.repr(s)).build());
      }
    }
    return out;
  }

  /**
   * Resolves test-config keys in the order given: an argument with {@code *} or {@code ?} is a
   * shell-style glob ({@code [..]} classes too) over all keys in catalogue order and must match one
   * at least (V53); any other argument must be an existing key. Duplicates keep their first place.
   */
  public static List<String> resolveKeys(List<String> args, List<String> available) {
    Set<String> out = new LinkedHashSet<>();
    for (String arg : args) {
      if (arg.indexOf('*') >= 0 || arg.indexOf('?') >= 0) {
        java.util.regex.Pattern p = Glob.toRegex(arg);
        List<String> matches = new ArrayList<>();
        for (String k : available) {
          if (p.matcher(k).matches()) {
            matches.add(k);
          }
        }
        if (matches.isEmpty()) {
          throw Fail.selection("V53.config-keys", "Pattern '" + arg + "' matched no config keys.\nAvailable keys: "
              + String.join(", ", new TreeSet<>(available)));
        }
        out.addAll(matches);
      } else {
        if (!available.contains(arg)) {
          throw Fail.selection("V53.config-keys", "Config key(s) not found: " + arg + ".\nAvailable keys: "
              + String.join(", ", new TreeSet<>(available)));
        }
        out.add(arg);
      }
    }
    return new ArrayList<>(out);
  }

  private List<Row> expand(List<MasterConfig> configs, Traversal t) {
    List<Row> rows = new ArrayList<>();
    Optional<FullSweepOptions> fs = t.fullSweep();
    for (MasterConfig config : configs) {
      boolean multinode = config.multinode();
      List<String> runnerValues = runnerValues(config.runner(), t.nodeFilter(), fs.isEmpty());
      if (runnerValues.isEmpty()) {
        continue;
      }
      boolean fixedWanted = t.scenarioTypes().isEmpty() || t.scenarioTypes().contains(ScenarioType.FIXED_SEQ_LEN);
      boolean agenticWanted = t.scenarioTypes().isEmpty() || t.scenarioTypes().contains(ScenarioType.AGENTIC_CODING);
      boolean nodeAllowed = fs.map(o -> multinode ? o.multiNode() : o.singleNode()).orElse(true);
      if (fixedWanted) {
        for (SeqLen seq : config.fixedSeqLen()) {
          if (!t.seqFamilies().isEmpty() && !t.seqFamilies().contains(seq.family())) {
            continue;
          }
          for (SearchEntry entry : seq.searchSpace()) {
            if (!nodeAllowed) {
              continue;
            }
            Optional<Integer> ep = entry instanceof SingleNodeEntry s ? s.ep() : Optional.empty();
            if (fs.isPresent() && !multinode) {
              FullSweepOptions o = fs.get();
              int tp = ((SingleNodeEntry) entry).tp();
              if (o.maxTp().isPresent() && (o.maxTp().get() <= 0 || tp > o.maxTp().get())) {
                continue;
              }
              if (o.maxEp().isPresent()) {
                if (o.maxEp().get() <= 0) {
                  continue;
                }
                ep = ep.map(v -> Math.min(v, o.maxEp().get()));
              }
            }
            List<Integer> values = fixedConcurrencies(entry, multinode, fs, t.concFilter());
            if (values == null) {
              continue;
            }
            rows.addAll(fixedRows(config, entry, seq, values, runnerValues, ep));
          }
        }
      }
      if (!agenticWanted || !nodeAllowed) {
        continue;
      }
      for (AgenticScenario scenario : config.agenticCoding()) {
        for (AgenticEntry entry : scenario.searchSpace()) {
          rows.addAll(agenticRows(config, entry, scenario, runnerValues, fs, t.concFilter()));
        }
      }
    }
    return rows;
  }

  /** §4.4: the label, or its concrete runner names containing the filter text. */
  List<String> runnerValues(String label, Optional<String> filter, boolean includeLabel) {
    if (filter.isEmpty() || filter.get().isEmpty()) {
      return List.of(label);
    }
    String f = filter.get();
    List<String> candidates = runners.runnersOf(label);
    if (!includeLabel) {
      List<String> out = new ArrayList<>();
      for (String n : candidates) {
        if (n.contains(f)) {
          out.add(n);
        }
      }
      return out;
    }
    List<String> all = new ArrayList<>();
    if (label.contains(f)) {
      all.add(label);
    }
    all.addAll(candidates);
    Set<String> out = new LinkedHashSet<>();
    for (String n : all) {
      if (n.contains(f)) {
        out.add(n);
      }
    }
    return new ArrayList<>(out);
  }

  /** §4.3, §4.5, §4.6: the points of a fixed entry; null skips the entry. */
  private static List<Integer> fixedConcurrencies(SearchEntry entry, boolean multinode,
      Optional<FullSweepOptions> fs, List<Integer> concFilter) {
    if (fs.isEmpty()) {
      List<Integer> values = entry.points(2);
      if (concFilter.isEmpty()) {
        return values;
      }
      List<Integer> kept = new ArrayList<>();
      for (Integer c : values) {
        if (concFilter.contains(c)) {
          kept.add(c);
        }
      }
      return kept.isEmpty() ? null : kept;
    }
    FullSweepOptions o = fs.get();
    Optional<Integer> minimum = o.minConc();
    Optional<Integer> maximum = o.maxConc();
    List<Integer> values;
    if (!entry.hasList()) {
      int start = entry.concStart().orElseThrow();
      int end = entry.concEnd().orElseThrow();
      if (!multinode) {
        if (minimum.isPresent()) {
          if (minimum.get() <= 0 || end < minimum.get()) {
            return null;
          }
          start = Math.max(start, minimum.get());
        }
        if (maximum.isPresent()) {
          if (maximum.get() <= 0) {
            return null;
          }
          start = Math.min(start, maximum.get());
          end = Math.min(end, maximum.get());
        }
        return io.infx.matrix.config.Concurrency.range(start, end, o.stepSize());
      }
      values = io.infx.matrix.config.Concurrency.range(start, end, o.stepSize());
    } else {
      values = entry.concList().orElseThrow();
    }
    if (minimum.isPresent()) {
      if (minimum.get() <= 0) {
        return null;
      }
      List<Integer> kept = new ArrayList<>();
      for (Integer c : values) {
        if (c >= minimum.get()) {
          kept.add(c);
        }
      }
      if (kept.isEmpty()) {
        return null;
      }
      values = kept;
    }
    if (maximum.isPresent()) {
      if (maximum.get() <= 0) {
        return null;
      }
      List<Integer> kept = new ArrayList<>();
      for (Integer c : values) {
        if (c <= maximum.get()) {
          kept.add(c);
        }
      }
      values = kept.isEmpty() ? List.of(maximum.get()) : kept;
    }
    return values;
  }

  /** §4.7, §4.8: rows of one fixed-seq-len entry. */
  private List<Row> fixedRows(MasterConfig config, SearchEntry entry, SeqLen seq, List<Integer> values,
      List<String> runnerValues, Optional<Integer> ep) {
    boolean multinode = config.multinode();
    boolean disagg = config.disagg();
    int isl = seq.isl();
    int osl = seq.osl();
    boolean requirePower = seq.requirePower();
    Optional<Origin> where = entry.origin();
    if (requirePower && !(isl == 8192 && osl == 1024)) {
      throw Fail.generation("V58.require-power", "require-power rollout supports only fixed-sequence 8192/1024",
          where);
    }
    String code = config.modelPrefix();
    String spec = entry.specDecoding().wire();
    Row[] pair = multinode ? workerPair((MultiNodeEntry) entry, disagg) : null;
    String expName = code + "_" + SeqLen.family(isl, osl);
    List<Row> out = new ArrayList<>();
    List<Object> points = multinode ? List.of(Collections.unmodifiableList(new ArrayList<>(values)))
        : new ArrayList<>(values);
    for (Object conc : points) {
      for (String runner : runnerValues) {
        Row row = identity(config, runner);
        row.put("isl", isl);
        row.put("osl", osl);
        if (requirePower) {
          row.put("require-power", true);
        }
        if (multinode) {
          row.put(RowField.SPEC_DECODING.key(), spec);
          row.put("prefill", pair[0]);
          row.put("decode", pair[1]);
          row.put("conc", conc);
          row.put(RowField.MAX_MODEL_LEN.key(), isl + osl + 256);
        } else {
          SingleNodeEntry s = (SingleNodeEntry) entry;
          row.put("tp", s.tp());
          row.put("pp", s.pp());
          row.put("dcp-size", s.dcpSize());
          row.put("pcp-size", s.pcpSize());
          row.put("conc", conc);
          row.put(RowField.MAX_MODEL_LEN.key(), isl + osl + 256);
          row.put("ep", ep.orElse(1));
          row.put(RowField.DP_ATTN.key(), s.dpAttn().orElse(false));
          row.put(RowField.SPEC_DECODING.key(), spec);
        }
        recipes(row, entry);
        row.put("exp-name", expName);
        row.put("disagg", disagg);
        row.put("run-eval", false);
        components(row, entry, config);
        if (multinode) {
          nodeCount(row, (MultiNodeEntry) entry, where);
        }
        RowRules.validate(row, multinode ? io.infx.matrix.RowKind.MULTI_NODE : io.infx.matrix.RowKind.SINGLE_NODE);
        out.add(row);
      }
    }
    return out;
  }

  /** §4.10: rows of one agentic entry; the DRAM budget is resolved before concurrency filtering. */
  private List<Row> agenticRows(MasterConfig config, AgenticEntry entry, AgenticScenario scenario,
      List<String> runnerValues, Optional<FullSweepOptions> fs, List<Integer> concFilter) {
    boolean multinode = config.multinode();
    boolean disagg = config.disagg();
    String code = config.modelPrefix();
    Optional<Origin> where = entry.origin();
    if (multinode != entry.isMultiNodeShaped()) {
      throw Fail.generation("V38.agentic-shape", multinode
          ? "Multinode agentic entries must declare worker or prefill and decode"
          : "Single-node agentic entries must declare tp", where);
    }
    Row[] pair = multinode ? workerPairOf(entry, disagg) : null;
    KvOffloading kv = multinode ? entry.offload() : entry.kvOffloading().orElseThrow();
    String spec = entry.specDecoding().wire();
    Optional<OffloadBackend> backend = entry.kvOffloadBackend();
    int budget = dramBudget(config, entry, scenario, kv, where);

    List<Integer> values = entry.points(fs.map(FullSweepOptions::stepSize).orElse(2));
    if (fs.isPresent() && fs.get().minConc().isPresent()) {
      int m = fs.get().minConc().get();
      values = values.stream().filter(c -> c >= m).toList();
    }
    if (fs.isPresent() && fs.get().maxConc().isPresent()) {
      int m = fs.get().maxConc().get();
      values = values.stream().filter(c -> c <= m).toList();
    }
    if (!concFilter.isEmpty()) {
      values = values.stream().filter(concFilter::contains).toList();
    }
    if (values.isEmpty()) {
      return List.of();
    }
    String offloadSuffix = kv == KvOffloading.NONE ? "kvnone"
        : "kv" + kv.wire() + "-" + backend.map(OffloadBackend::name).orElse("");
    List<Row> out = new ArrayList<>();
    List<Object[]> points = new ArrayList<>();
    if (multinode) {
      for (String r : runnerValues) {
        for (Integer c : values) {
          points.add(new Object[] {r, c});
        }
      }
    } else {
      for (Integer c : values) {
        for (String r : runnerValues) {
          points.add(new Object[] {r, c});
        }
      }
    }
    for (Object[] p : points) {
      String runner = (String) p[0];
      int c = (Integer) p[1];
      Row row = identity(config, runner);
      String expName;
      if (multinode) {
        row.put(RowField.SPEC_DECODING.key(), spec);
        row.put("prefill", pair[0]);
        row.put("decode", pair[1]);
        row.put("conc", List.of(c));
        expName = code + "_" + roleTag(pair[0], "p") + "_" + roleTag(pair[1], "d") + "_conc" + c
            + (kv == KvOffloading.NONE ? "" : "_" + offloadSuffix);
      } else {
        int tp = entry.tp().orElseThrow();
        row.put("tp", tp);
        row.put("pp", entry.pp());
        row.put("dcp-size", entry.dcpSize());
        row.put("pcp-size", entry.pcpSize());
        row.put("ep", entry.ep().orElse(1));
        row.put(RowField.DP_ATTN.key(), entry.dpAttn().orElse(false));
        row.put(RowField.SPEC_DECODING.key(), spec);
        row.put("conc", c);
        expName = code + "_tp" + tp + "_conc" + c + "_" + offloadSuffix
            + (spec.equals("none") ? "" : "_spec-" + spec);
      }
      recipes(row, entry);
      row.put("kv-offloading", kv.wire());
      row.put("total-cpu-dram-gb", budget);
      row.put("duration", AGENTIC_DURATION_SECONDS);
      row.put("exp-name", expName);
      if (multinode) {
        row.put("disagg", disagg);
      }
      row.put("scenario-type", ScenarioType.AGENTIC_CODING.wire());
      backend.ifPresent(b -> row.put("kv-offload-backend", backendRow(b)));
      components(row, entry, config);
      if (multinode) {
        nodeCount(row, entry, where);
      }
      RowRules.validate(row, multinode ? io.infx.matrix.RowKind.MULTI_NODE_AGENTIC
          : io.infx.matrix.RowKind.SINGLE_NODE_AGENTIC);
      out.add(row);
    }
    return out;
  }

  private int dramBudget(MasterConfig config, AgenticEntry entry, AgenticScenario scenario, KvOffloading kv,
      Optional<Origin> where) {
    if (kv != KvOffloading.DRAM) {
      return 0;
    }
    String runner = config.runner();
    long available = hardware.availableDramMib(runner, where);
    int g = hardware.gpusPerNode(runner, where);
    int gpus;
    Optional<? extends WorkerShape> worker = entry.worker().isPresent() ? entry.worker() : entry.prefill();
    if (worker.isPresent()) {
      int r = worker.get().gpusPerReplica();
      if (r > g) {
        if (r % g != 0) {
          throw Fail.generation("V57.dram-topology", "worker tp*pp*pcp-size=" + r
              + " spans multiple nodes but is not a multiple of gpus-per-node=" + g, where);
        }
        gpus = g;
      } else {
        if (g % r != 0) {
          throw Fail.generation("V57.dram-topology", "worker tp*pp*pcp-size=" + r
              + " does not divide gpus-per-node=" + g + " evenly", where);
        }
        gpus = r;
      }
    } else {
      int tp = entry.tp().orElseThrow();
      gpus = tp * entry.pp() * entry.pcpSize();
      if (gpus > g) {
        throw Fail.generation("V56.dram-fit", "tp=" + tp + " with pp=" + entry.pp() + " and pcp-size="
            + entry.pcpSize() + " requires " + gpus + " GPUs and exceeds gpus-per-node=" + g + " for runner '"
            + runner + "'", where);
      }
    }
    return Hardware.dramBudgetGb(available, scenario.dramUtilization().orElseThrow(), gpus, g);
  }

  private static String roleTag(Row worker, String role) {
    StringBuilder sb = new StringBuilder(role).append(worker.integer("num-worker")).append('x')
        .append(worker.integer("tp"));
    Object ep = worker.get("ep");
    if (ep != null && !ep.equals(1)) {
      sb.append("ep").append(ep);
    }
    if (worker.flag(RowField.DP_ATTN.key())) {
      sb.append("dpa");
    }
    return sb.toString();
  }

  private void nodeCount(Row row, io.infx.matrix.config.MultiNodeWorkers entry, Optional<Origin> where) {
    boolean disagg = row.flag("disagg");
    Optional<Integer> numNodes = entry.numNodes();
    if (!disagg && numNodes.isPresent()) {
      row.put("node-count", numNodes.get());
    } else if (numNodes.isPresent()) {
      throw Fail.generation("V59.node-count", "num-nodes is not valid for disaggregated entries", where);
    } else {
      String runner = row.str("runner");
      row.put("node-count", hardware.roleNodes(row.sub("prefill"), "prefill", runner, where)
          + hardware.roleNodes(row.sub("decode"), "decode", runner, where));
    }
  }

  private static Row identity(MasterConfig config, String runner) {
    Row row = new Row();
    row.put("image", config.image());
    row.put("model", config.model());
    row.put(RowField.MODEL_PREFIX.key(), config.modelPrefix());
    row.put("precision", config.precision());
    row.put("framework", config.framework());
    row.put("runner", runner);
    return row;
  }

  private static void recipes(Row row, SearchEntry entry) {
    entry.srtRecipe().ifPresent(v -> row.put("srt-recipe", v));
    entry.evalSrtRecipe().ifPresent(v -> row.put("eval-srt-recipe", v));
  }

  private static void components(Row row, SearchEntry entry, MasterConfig config) {
    Optional<Component> router = entry.router().or(config::router);
    router.ifPresent(r -> row.put("router", componentRow(r)));
    Optional<String> transfer = entry.kvP2pTransfer().or(config::kvP2pTransfer);
    transfer.ifPresent(t -> row.put("kv-p2p-transfer", t));
  }

  static Row componentRow(Component c) {
    Row r = new Row();
    List<String> order = c.keys().isEmpty() ? List.of("name", "version") : c.keys();
    for (String k : order) {
      r.put(k, k.equals("name") ? c.name() : c.version());
    }
    return r;
  }

  static Row backendRow(OffloadBackend b) {
    Row r = new Row();
    List<String> order = b.keys().isEmpty() ? List.of("name", "version") : b.keys();
    for (String k : order) {
      if (k.equals("name")) {
        r.put(k, b.name());
      } else if (b.version().isPresent()) {
        r.put(k, b.version().get());
      } else if (!b.keys().isEmpty()) {
        r.put(k, null);
      }
    }
    return r;
  }

  /** A worker block as written (key order kept), then pp/dcp-size/pcp-size defaults appended. */
  static Row workerRow(WorkerShape w) {
    Row r = new Row();
    Collection<String> order = w.keys().isEmpty() ? canonicalWorkerKeys(w) : w.keys();
    for (String k : order) {
      RowField f = RowField.ofKey(k).orElseThrow(() -> new IllegalStateException("unexpected worker key " + k));
      switch (f) {
        case NUM_WORKER -> r.put(k, w.numWorker());
        case TP -> r.put(k, w.tp());
        case EP -> r.put(k, w.ep());
        case DP_ATTN -> r.put(k, w.dpAttn());
        case PP -> r.put(k, w.pp());
        case DCP_SIZE -> r.put(k, w.dcpSize());
        case PCP_SIZE -> r.put(k, w.pcpSize());
        case HARDWARE -> r.put(k, w.hardware().orElse(null));
        case ADDITIONAL_SETTINGS -> r.put(k, w.additionalSettings().map(List::copyOf).orElse(null));
        default -> throw new IllegalStateException("unexpected worker key " + k);
      }
    }
    r.putIfAbsent("pp", w.pp());
    r.putIfAbsent("dcp-size", w.dcpSize());
    r.putIfAbsent("pcp-size", w.pcpSize());
    return r;
  }

  private static List<String> canonicalWorkerKeys(WorkerShape w) {
    List<String> keys = new ArrayList<>(List.of("num-worker", "tp", "ep", RowField.DP_ATTN.key()));
    if (w.pp() != 1) {
      keys.add("pp");
    }
    if (w.dcpSize() != 1) {
      keys.add("dcp-size");
    }
    if (w.pcpSize() != 1) {
      keys.add("pcp-size");
    }
    w.hardware().ifPresent(h -> keys.add("hardware"));
    w.additionalSettings().ifPresent(h -> keys.add("additional-settings"));
    return keys;
  }

  private static Row[] workerPair(MultiNodeEntry entry, boolean disagg) {
    return pair(entry, disagg);
  }

  private static Row[] workerPairOf(AgenticEntry entry, boolean disagg) {
    return pair(entry, disagg);
  }

  /** §4.9.3: prefill/decode rows; an aggregate worker becomes prefill {@code ×1} and decode {@code ×0}. */
  private static Row[] pair(io.infx.matrix.config.MultiNodeWorkers entry, boolean disagg) {
    if (disagg || entry.worker().isEmpty()) {
      return new Row[] {workerRow(entry.prefill().orElseThrow()), workerRow(entry.decode().orElseThrow())};
    }
    Row worker = workerRow(entry.worker().get());
    Row prefill = new Row();
    prefill.put("num-worker", 1);
    prefill.putAll(worker);
    Row decode = new Row();
    decode.put("num-worker", 0);
    for (Map.Entry<String, Object> e : worker.entrySet()) {
      if (!e.getKey().equals("num-worker") && !e.getKey().equals("additional-settings")) {
        decode.put(e.getKey(), e.getValue());
      }
    }
    return new Row[] {prefill, decode};
  }
}
