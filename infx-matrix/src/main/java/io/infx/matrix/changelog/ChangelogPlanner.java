package io.infx.matrix.changelog;

import io.infx.core.ErrorKind;
import io.infx.matrix.ScenarioType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.changelog.MatrixBackend.Catalogue;
import io.infx.matrix.EvalMode;
import io.infx.matrix.changelog.MatrixBackend.Runners;
import io.infx.matrix.changelog.internal.RawMasters;
import io.infx.core.json.Json;
import io.infx.matrix.RowKind;
import io.infx.matrix.internal.JsonValues;
import io.infx.matrix.internal.Row;
import io.infx.matrix.internal.RowRules;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * Turns appended changelog entries into the bucketed CI matrix (reference
 * {@code infx.matrix.plan.build_plan}; spec §6.3–§6.8).
 *
 * <pre>{@code
 * ChangelogPlan plan = ChangelogPlanner.standard().plan(
 *     ChangelogDiff.between(baseText, headText, "perf-changelog.yaml").entries(false),
 *     "main", "HEAD", headRevision, () -> baseRevision, ChangelogPlanner.Options.defaults());
 * }</pre>
 *
 * <p>Per entry: keys are resolved ({@code *} is the only wildcard), throughput rows are expanded
 * with {@code test-config --no-evals} semantics and eval rows with {@code --evals-only
 * [--all-evals]}, each (config, scenario) claimed once for throughput and once for evals;
 * entries with {@code all-evals} go first. Throughput rows are optionally trimmed, fingerprinted
 * and bucketed; eval rows are de-duplicated by app identity. Nothing is returned unless every
 * output row validates (V72).
 *
 * <p>Thread-safe; holds no state besides its backend.
 */
public final class ChangelogPlanner {

  /**
   * Planner options.
   *
   * @param trimConc {@code --trim-conc}: keep the minimum concurrency of every throughput shape
   * @param allEvals {@code --all-evals}: every entry expands its eval selection
   * @param evalsOnly {@code --evals-only}: no throughput for any entry
   * @param allowRetired {@code --allow-retired}: accept seed 003's {@code retired: true}
   *     entries (verified removal, metadata-only output); off by default as in the reference
   */
  public record Options(boolean trimConc, boolean allEvals, boolean evalsOnly,
      boolean allowRetired) {
    /** Every option off: the reference planner's default run. */
    public static Options defaults() {
      return new Options(false, false, false, false);
    }
  }

  private static final ErrorKind KIND = ChangelogEntries.KIND;
  private final MatrixBackend backend;

  private ChangelogPlanner(MatrixBackend backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  /** A planner on the {@code io.infx.matrix} generator. */
  public static ChangelogPlanner standard() {
    return new ChangelogPlanner(MatrixBackend.standard());
  }

  /** A planner on the given expansion backend (tests, alternative generators). */
  public static ChangelogPlanner using(MatrixBackend backend) {
    return new ChangelogPlanner(backend);
  }

  /**
   * Plans the sweep for the given added entries.
   *
   * @param entries the added entries, in file order
   * @param baseRef the base ref, echoed in {@code changelog_metadata}
   * @param headRef the head ref, echoed in {@code changelog_metadata}
   * @param head the head revision's master and runner files
   * @param base the base revision's files; only read for append-only and retired entries
   * @throws InfxException kind {@code changelog} for changelog rule violations; the backend's
   *     kinds ({@code config-validation}, {@code generation}, …) for catalogue problems
   */
  public ChangelogPlan plan(List<ChangelogEntry> entries, String baseRef, String headRef,
      Revision head, Supplier<Revision> base, Options options) {
    if (entries.isEmpty()) {
      throw new InfxException(KIND,
          "[changelog.no-entries] No valid YAML entries found in the changelog additions.");
    }
    ChangelogPlan.Metadata metadata = new ChangelogPlan.Metadata(baseRef, headRef, entries);
    if (entries.stream().anyMatch(ChangelogEntry::retired)) {
      return retire(entries, head, base, options, metadata);
    }
    if (entries.stream().anyMatch(ChangelogEntry::noEvals)
        && (options.allEvals() || options.evalsOnly())) {
      throw rule("changelog.no-evals.modifiers",
          "no-evals entries cannot use all-evals or evals-only modifiers");
    }
    boolean appendOnly = entries.stream().anyMatch(ChangelogEntry::appendOnly);
    if (appendOnly && !entries.stream().allMatch(ChangelogEntry::appendOnly)) {
      throw rule("changelog.append-only.mixed",
          "append-only entries cannot share a sweep with regular changelog entries");
    }
    if (appendOnly && (options.allEvals() || options.evalsOnly())) {
      throw rule("changelog.append-only.modifiers",
          "append-only sweeps cannot use all-evals or evals-only modifiers");
    }

    Catalogue catalogue = backend.loadCatalogue(head.masters());
    List<Resolved> resolved = new ArrayList<>();
    for (ChangelogEntry e : entries) {
      resolved.add(new Resolved(e, resolveKeys(e.configKeys(), catalogue.keys(),
          "in master configs")));
    }

    Generator current = new Generator(catalogue, () -> backend.loadRunners(head.runners()));
    Generator previous = null;
    if (appendOnly) {
      Revision baseRevision = base.get();
      Map<String, Set<ScenarioType>> selected = new LinkedHashMap<>();
      for (Resolved r : resolved) {
        for (String key : r.keys()) {
          selected.computeIfAbsent(key, k -> EnumSet.noneOf(ScenarioType.class))
              .addAll(r.entry().scenarios());
        }
      }
      Map<String, JsonNode> baseRaw = RawMasters.load(baseRevision.masters(), KIND);
      Map<String, JsonNode> headRaw = RawMasters.load(head.masters(), KIND);
      AppendOnly.checkScope(baseRaw, headRaw, selected);
      Catalogue baseCatalogue = backend.loadCatalogue(baseRevision.masters());
      previous = new Generator(baseCatalogue, () -> backend.loadRunners(baseRevision.runners()));
    }

    // all-evals entries first, so the broadest eval request wins for a shared config.
    List<Resolved> ordered = new ArrayList<>(resolved);
    ordered.sort(Comparator.comparing(r -> !r.entry().allEvals()));

    List<ObjectNode> throughput = new ArrayList<>();
    List<ObjectNode> evalRows = new ArrayList<>();
    Map<String, Set<ScenarioType>> throughputSeen = new LinkedHashMap<>();
    Map<String, Set<ScenarioType>> evalSeen = new LinkedHashMap<>();
    for (Resolved r : ordered) {
      ChangelogEntry e = r.entry();
      boolean expand = options.allEvals() || e.allEvals();
      boolean suppress = options.evalsOnly() || e.evalsOnly() || e.allEvals();
      if (!suppress) {
        for (Map.Entry<Set<ScenarioType>, List<String>> g
            : claim(r.keys(), e.scenarios(), throughputSeen).entrySet()) {
          List<ObjectNode> rows = current.expand(g.getValue(), g.getKey(), EvalMode.NONE);
          if (e.appendOnly()) {
            rows = AppendOnly.delta(previous.expand(g.getValue(), g.getKey(), EvalMode.NONE), rows);
          }
          throughput.addAll(rows);
        }
      }
      if (e.appendOnly() || e.noEvals()) {
        continue;
      }
      for (Map.Entry<Set<ScenarioType>, List<String>> g
          : claim(r.keys(), e.scenarios(), evalSeen).entrySet()) {
        List<ObjectNode> rows = current.expand(g.getValue(), g.getKey(),
            expand ? EvalMode.ALL : EvalMode.SUBSET);
        if (e.evalMinPrefillEp().isPresent()) {
          rows = filterByPrefillEp(rows, e.evalMinPrefillEp().getAsInt());
        }
        evalRows.addAll(rows);
      }
    }

    if (options.trimConc() && !throughput.isEmpty()) {
      throughput = backend.trimConc(throughput);
    }
    List<String> problems = new ArrayList<>();
    Map<String, List<ObjectNode>> singleNode = new LinkedHashMap<>();
    Map<String, List<ObjectNode>> multiNode = new LinkedHashMap<>();
    for (ObjectNode row : throughput) {
      row.put("recipe-fingerprint", RecipeFingerprint.of(row));
      boolean multi = hasPrefill(row);
      String family = "agentic-coding".equals(row.path("scenario-type").asText(null))
          ? "agentic" : family(row.get("isl"), row.get("osl"));
      RowKind schema = pickSchema(row, multi);
      ObjectNode out = serialize(row, schema, "throughput row", problems);
      (multi ? multiNode : singleNode).computeIfAbsent(family, k -> new ArrayList<>()).add(out);
    }

    List<ObjectNode> evals = new ArrayList<>();
    List<ObjectNode> agenticEvals = new ArrayList<>();
    List<ObjectNode> multinodeEvals = new ArrayList<>();
    List<ObjectNode> multinodeAgenticEvals = new ArrayList<>();
    List<ObjectNode> picked = evalRows.isEmpty() ? evalRows : backend.dropAppCollidingEvals(evalRows);
    for (ObjectNode row : picked) {
      if (!truthy(row.get("run-eval"))) {
        continue;
      }
      boolean multi = hasPrefill(row);
      boolean agentic = "agentic-coding".equals(row.path("scenario-type").asText(null));
      RowKind schema = multi
          ? (agentic ? RowKind.MULTI_NODE_AGENTIC : RowKind.MULTI_NODE)
          : (agentic ? RowKind.SINGLE_NODE_AGENTIC : RowKind.SINGLE_NODE);
      ObjectNode out = serialize(row, schema, "eval row", problems);
      (multi ? (agentic ? multinodeAgenticEvals : multinodeEvals)
          : (agentic ? agenticEvals : evals)).add(out);
    }
    if (!problems.isEmpty()) {
      List<Violation> violations = new ArrayList<>();
      problems.forEach(p -> violations.add(Violation.of("changelog.output-row", p)));
      throw new ValidationException(KIND, violations);
    }
    return new ChangelogPlan(singleNode, multiNode, evals, agenticEvals, multinodeEvals,
        multinodeAgenticEvals, metadata, Optional.empty());
  }

  /** Seed 003's retirement flow: every selected config existed in the base and is gone now. */
  private ChangelogPlan retire(List<ChangelogEntry> entries, Revision head,
      Supplier<Revision> base, Options options, ChangelogPlan.Metadata metadata) {
    if (!options.allowRetired()) {
      throw rule("changelog.retired.disabled",
          "retired: Extra inputs are not permitted (retired entries need --allow-retired)");
    }
    if (!entries.stream().allMatch(ChangelogEntry::retired)) {
      throw rule("changelog.retired.mixed",
          "retired entries cannot share a change with other changelog entries");
    }
    if (options.allEvals() || options.evalsOnly() || options.trimConc()) {
      throw rule("changelog.retired.modifiers",
          "retired entries produce no sweep; they cannot use all-evals, evals-only or trim-conc");
    }
    Revision baseRevision = base.get();
    List<String> baseKeys = List.copyOf(RawMasters.load(baseRevision.masters(), KIND).keySet());
    Set<String> headKeys = RawMasters.load(head.masters(), KIND).keySet();
    List<String> stillPresent = new ArrayList<>();
    for (ChangelogEntry e : entries) {
      for (String key : resolveKeys(e.configKeys(), baseKeys, "in the base revision's master "
          + "configs")) {
        if (headKeys.contains(key)) {
          stillPresent.add(key);
        }
      }
    }
    if (!stillPresent.isEmpty()) {
      throw rule("changelog.retired.present", "retired configs must be removed from the head "
          + "master configs, but these are still there: " + stillPresent);
    }
    return ChangelogPlan.metadataOnly(metadata);
  }

  private record Resolved(ChangelogEntry entry, List<String> keys) {}

  /** Lazily loads runners once, then expands. */
  private final class Generator {
    private final Catalogue catalogue;
    private final Supplier<Runners> runnerLoader;
    private Runners runners;

    Generator(Catalogue catalogue, Supplier<Runners> runnerLoader) {
      this.catalogue = catalogue;
      this.runnerLoader = runnerLoader;
    }

    List<ObjectNode> expand(List<String> keys, Set<ScenarioType> scenarios, EvalMode mode) {
      if (runners == null) {
        runners = runnerLoader.get();
      }
      return backend.expand(catalogue, runners, keys, scenarios, mode);
    }
  }

  /**
   * Resolves changelog config keys (V67): an exact key must exist; a key containing {@code *}
   * is an anchored pattern where {@code *} matches any run of characters and everything else
   * is literal ({@code ?} too). Matches keep catalogue order; duplicates keep their first place.
   *
   * @throws InfxException kind {@code changelog} for an unknown key or an empty pattern
   */
  public static List<String> resolveKeys(List<String> patterns, List<String> catalogueKeys,
      String where) {
    Set<String> resolved = new LinkedHashSet<>();
    Set<String> known = new LinkedHashSet<>(catalogueKeys);
    for (String key : patterns) {
      if (key.contains("*")) {
        String rx = java.util.Arrays.stream(key.split("\\*", -1)).map(Pattern::quote)
            .collect(java.util.stream.Collectors.joining(".*"));
        Pattern p = Pattern.compile(rx, Pattern.DOTALL);
        List<String> matched = catalogueKeys.stream().filter(k -> p.matcher(k).matches()).toList();
        if (matched.isEmpty()) {
          throw rule("changelog.key.no-match", "No config keys matched the wildcard pattern '"
              + key + "' " + where + ".");
        }
        resolved.addAll(matched);
      } else if (!known.contains(key)) {
        throw rule("changelog.key.unknown", "Config key '" + key + "' not found " + where + ".");
      } else {
        resolved.add(key);
      }
    }
    return List.copyOf(resolved);
  }

  /**
   * Claims the (config, scenario) pairs not yet claimed, grouped by the exact tuple of newly
   * claimed scenarios (canonical order), in order of first appearance.
   */
  private static Map<Set<ScenarioType>, List<String>> claim(List<String> keys,
      Set<ScenarioType> scenarios, Map<String, Set<ScenarioType>> seen) {
    Map<Set<ScenarioType>, List<String>> groups = new LinkedHashMap<>();
    for (String key : keys) {
      Set<ScenarioType> already = seen.computeIfAbsent(key, k -> EnumSet.noneOf(ScenarioType.class));
      EnumSet<ScenarioType> unseen = EnumSet.noneOf(ScenarioType.class);
      for (ScenarioType t : ScenarioType.values()) {
        if (scenarios.contains(t) && !already.contains(t)) {
          unseen.add(t);
        }
      }
      if (!unseen.isEmpty()) {
        already.addAll(unseen);
        groups.computeIfAbsent(unseen, k -> new ArrayList<>()).add(key);
      }
    }
    return groups;
  }

  /** Drops multi-node eval rows whose prefill EP is below the threshold (or not a number). */
  static List<ObjectNode> filterByPrefillEp(List<ObjectNode> rows, int minEp) {
    List<ObjectNode> kept = new ArrayList<>();
    for (ObjectNode row : rows) {
      JsonNode prefill = row.get("prefill");
      if (prefill != null && prefill.isObject()) {
        JsonNode ep = prefill.get("ep");
        if (ep == null) {
          if (1 < minEp) {
            continue;
          }
        } else if (!ep.isIntegralNumber() || ep.longValue() < minEp) {
          continue;
        }
      }
      kept.add(row);
    }
    return kept;
  }

  /** Sequence family name: {@code 1k1k}, {@code 8k1k}, else {@code <isl>_<osl>}. */
  static String family(JsonNode isl, JsonNode osl) {
    String i = isl == null ? "None" : isl.asText();
    String o = osl == null ? "None" : osl.asText();
    if (i.equals("1024") && o.equals("1024")) {
      return "1k1k";
    }
    if (i.equals("8192") && o.equals("1024")) {
      return "8k1k";
    }
    return i + "_" + o;
  }

  private static boolean hasPrefill(ObjectNode row) {
    JsonNode p = row.get("prefill");
    return p != null && !p.isNull();
  }

  /** The schema a planner row is re-serialized through: the fixed-seq one if valid, else agentic. */
  private static RowKind pickSchema(ObjectNode row, boolean multi) {
    RowKind fixed = multi ? RowKind.MULTI_NODE : RowKind.SINGLE_NODE;
    RowKind agentic = multi ? RowKind.MULTI_NODE_AGENTIC : RowKind.SINGLE_NODE_AGENTIC;
    Row fields = (Row) JsonValues.toJava(row);
    if (RowRules.check(fields, fixed, true).isEmpty()) {
      return fixed;
    }
    if (RowRules.check(fields, agentic, true).isEmpty()) {
      return agentic;
    }
    return row.has("scenario-type") ? agentic : fixed;
  }

  /**
   * Rule V72: the row checked against {@code schema} (the field table's rules) and re-serialized in
   * schema order with defaults; problems are collected, the row is returned as it came then.
   */
  private static ObjectNode serialize(ObjectNode row, RowKind schema, String what,
      List<String> problems) {
    Row fields = (Row) JsonValues.toJava(row);
    List<RowRules.Problem> found = RowRules.check(fields, schema, true);
    if (!found.isEmpty()) {
      problems.add(what + " " + row.path("exp-name").asText("?") + " is not a valid "
          + schema.modelName() + ": " + String.join("; ", found.stream().map(RowRules.Problem::render).toList()));
      return row;
    }
    return Json.mapper().valueToTree(RowRules.schemaForm(fields, schema));
  }

  private static boolean truthy(JsonNode n) {
    return n != null && n.isBoolean() && n.booleanValue();
  }

  private static InfxException rule(String ruleId, String message) {
    return new ValidationException(KIND, List.of(Violation.of(ruleId, message)));
  }
}
