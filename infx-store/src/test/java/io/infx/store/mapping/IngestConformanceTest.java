package io.infx.store.mapping;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Runs every case of the InferenceX-app ingestion conformance corpus in-process: each
 * {@code cases-*.json} in the folder named by {@code INFX_CONFORMANCE_INGEST} (default
 * {@code ../shared/conformance/ingest} beside the repository). The expectation vocabulary
 * ({@code expected}, {@code expected_subset}, {@code expected_absent}, …) is the corpus README's,
 * with vitest's {@code toEqual}/{@code toMatchObject} semantics. {@code version-conflicts.json}
 * is reported apart and not scored.
 */
class IngestConformanceTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  static Path corpus() {
    String env = System.getenv("INFX_CONFORMANCE_INGEST");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String root = System.getProperty("infx.repo.root", "..");
    return Path.of(root).resolve("../shared/conformance/ingest").normalize();
  }

  @Test
  void everyIngestCaseAgrees() throws IOException {
    Path dir = corpus();
    Assumptions.assumeTrue(Files.isDirectory(dir),
        "ingest conformance corpus not found at " + dir + " (set INFX_CONFORMANCE_INGEST); skipping");
    runFolder(dir, "ingest conformance");
  }

  /**
   * The project's own cases in {@code src/test/resources/ingest-reference-derived}: assertions of
   * the peer's test files that the shared corpus does not carry, in its format ({@code derive.py}
   * there names the test of each). Always present, so never skipped.
   */
  @Test
  void everyReferenceDerivedCaseAgrees() throws IOException {
    Path dir = Path.of("src/test/resources/ingest-reference-derived").toAbsolutePath();
    assertThat(dir).isDirectory();
    runFolder(dir, "ingest reference-derived cases");
  }

  private static void runFolder(Path dir, String title) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(p -> p.getFileName().toString().matches("cases-.*\\.json")).sorted().toList();
    }
    assertThat(files).as("cases-*.json in " + dir).isNotEmpty();
    int passed = 0;
    List<String> failures = new ArrayList<>();
    for (Path f : files) {
      for (JsonNode c : MAPPER.readTree(f.toFile())) {
        String problem = check(c);
        if (problem == null) {
          passed++;
        } else {
          failures.add(c.get("id").asText() + ": " + problem);
        }
      }
    }
    int conflictPassed = 0;
    int conflictTotal = 0;
    Path conflicts = dir.resolve("version-conflicts.json");
    if (Files.exists(conflicts)) {
      for (JsonNode c : MAPPER.readTree(conflicts.toFile())) {
        conflictTotal++;
        if (check(c) == null) {
          conflictPassed++;
        }
      }
    }
    failures.forEach(x -> System.out.println("FAIL " + x));
    System.out.println(title + ": " + passed + " passed, " + failures.size() + " failed"
        + " (version conflicts, not scored: " + conflictPassed + "/" + conflictTotal + " agree with our choice)");
    assertThat(failures).as(passed + " passed, " + failures.size() + " failed").isEmpty();
  }

  // ---------------------------------------------------------------- one case

  private static String check(JsonNode c) {
    try {
      return checkOrThrow(c);
    } catch (RuntimeException e) {
      return "threw " + e;
    }
  }

  private static String checkOrThrow(JsonNode c) {
    String fn = c.get("function").asText();
    JsonNode args = decode(c.get("input").get("args"));
    SkipTracker tracker = new SkipTracker(line -> { });
    if (c.has("preprocess") && fn.equals("scrubWithheldPowerMetrics")) {
      // The test first normalizes the power contract of the metrics object onto itself.
      ObjectNode metrics = (ObjectNode) arg(args, 0);
      BenchmarkMapper.normalizePowerContractMetrics(metrics.deepCopy(), metrics);
    }
    JsonNode actual = call(fn, args, tracker);
    if (c.has("expected")) {
      JsonNode expected = decode(c.get("expected"));
      if (!jsEquals(expected, actual)) {
        return "expected " + show(expected) + " but got " + show(actual);
      }
    }
    if (c.has("expected_not")) {
      if (jsEquals(decode(c.get("expected_not")), actual)) {
        return "expected something other than " + show(actual);
      }
    }
    if (c.has("expected_not_null") && c.get("expected_not_null").asBoolean()) {
      if (actual.isNull() || actual.isMissingNode()) {
        return "expected a result, got " + show(actual);
      }
    }
    if (c.has("expected_subset")) {
      String why = matchObject(decode(c.get("expected_subset")), actual, "");
      if (why != null) {
        return "subset mismatch " + why + " in " + show(actual);
      }
    }
    if (c.has("expected_absent")) {
      for (JsonNode p : c.get("expected_absent")) {
        JsonNode v = at(actual, p.asText());
        if (!v.isMissingNode()) {
          return "expected " + p.asText() + " absent, got " + show(v);
        }
      }
    }
    if (c.has("expected_length")) {
      for (Map.Entry<String, JsonNode> e : c.get("expected_length").properties()) {
        JsonNode v = at(actual, e.getKey());
        int len = v.isTextual() ? v.textValue().length() : v.isContainerNode() ? v.size() : -1;
        if (len != e.getValue().asInt()) {
          return "expected length " + e.getValue() + " at '" + e.getKey() + "', got " + show(v);
        }
      }
    }
    if (c.has("expected_close")) {
      for (JsonNode e : c.get("expected_close")) {
        JsonNode v = at(actual, e.get("path").asText());
        double tol = Math.pow(10, -e.get("digits").asInt()) / 2;
        if (!v.isNumber() || !(Math.abs(v.doubleValue() - e.get("value").asDouble()) < tol)) {
          return "expected " + e.get("path").asText() + " ≈ " + e.get("value") + ", got " + show(v);
        }
      }
    }
    if (c.has("expected_tracker")) {
      String why = checkTracker(c.get("expected_tracker"), tracker);
      if (why != null) {
        return why;
      }
    }
    if (c.has("checks")) {
      for (JsonNode ch : c.get("checks")) {
        String why = runCheck(ch, actual);
        if (why != null) {
          return why;
        }
      }
    }
    if (c.has("relation")) {
      JsonNode r = c.get("relation");
      SkipTracker t2 = r.path("shared_tracker").asBoolean(false) ? tracker : new SkipTracker(line -> { });
      String otherFn = r.has("other_function") ? r.get("other_function").asText() : fn;
      JsonNode other = call(otherFn, decode(r.get("other_input").get("args")), t2);
      switch (r.get("kind").asText()) {
        case "same_metrics_as" -> {
          if (!jsEquals(member(actual, "metrics"), member(other, "metrics"))) {
            return "metrics differ from the related input: " + show(member(actual, "metrics")) + " vs "
                + show(member(other, "metrics"));
          }
          for (JsonNode p : r.path("other_expected_absent")) {
            if (!at(other, p.asText()).isMissingNode() || !at(actual, p.asText()).isMissingNode()) {
              return "expected " + p.asText() + " absent on both";
            }
          }
        }
        case "same_config_key_as", "different_config_key_from" -> {
          String a = configKey(member(actual, r.path("path").asText("config")));
          String b = configKey(member(other, r.path("other_path").asText("config")));
          boolean same = a.equals(b);
          if (same != r.get("kind").asText().equals("same_config_key_as")) {
            return "config keys " + a + " / " + b + " violate " + r.get("kind").asText();
          }
        }
        default -> {
          return "unknown relation " + r.get("kind");
        }
      }
    }
    return null;
  }

  private static String checkTracker(JsonNode exp, SkipTracker tracker) {
    JsonNode state = trackerState(tracker);
    if (exp.has("skips")) {
      String why = matchObject(exp.get("skips"), state.get("skips"), "skips");
      if (why != null) {
        return "tracker " + why + " in " + state.get("skips");
      }
    }
    for (String[] set : new String[][] {{"unmappedModels_contains", "unmappedModels"}, {"unmappedHws_contains", "unmappedHws"},
        {"unmappedPrecisions_contains", "unmappedPrecisions"}}) {
      for (JsonNode v : exp.path(set[0])) {
        if (!contains(state.get(set[1]), v)) {
          return "tracker " + set[1] + " lacks " + v + ": " + state.get(set[1]);
        }
      }
    }
    return null;
  }

  private static String runCheck(JsonNode ch, JsonNode actual) {
    String op = ch.get("op").asText();
    JsonNode target = ch.has("path") && !op.equals("sorted_values") ? at(actual, ch.get("path").asText()) : actual;
    switch (op) {
      case "contains" -> {
        return contains(target, ch.get("value")) ? null : show(target) + " lacks " + ch.get("value");
      }
      case "not_contains" -> {
        return !contains(target, ch.get("value")) ? null : show(target) + " holds " + ch.get("value");
      }
      case "string_contains" -> {
        return target.isTextual() && target.textValue().contains(ch.get("value").asText()) ? null
            : show(target) + " does not contain " + ch.get("value");
      }
      case "split_count" -> {
        int n = target.isTextual() ? target.textValue().split(java.util.regex.Pattern.quote(ch.get("sep").asText()), -1).length : -1;
        return n == ch.get("value").asInt() ? null : "split count " + n + " != " + ch.get("value");
      }
      case "sorted_values" -> {
        String path = ch.get("path").asText();
        String field = path.substring(path.indexOf("].") + 2);
        List<String> list = new ArrayList<>();
        for (JsonNode e : actual) {
          list.add(at(e, field).asText());
        }
        list.sort(null);
        List<String> want = new ArrayList<>();
        ch.get("value").forEach(v -> want.add(v.asText()));
        return list.equals(want) ? null : "sorted " + path + " " + list + " != " + want;
      }
      default -> {
        return "unknown check " + op;
      }
    }
  }

  private static boolean contains(JsonNode collection, JsonNode value) {
    if (collection == null || !collection.isArray()) {
      return false;
    }
    for (JsonNode e : collection) {
      if (jsEquals(value, e)) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- calls

  private static JsonNode arg(JsonNode args, int i) {
    return i < args.size() ? args.get(i) : MissingNode.getInstance();
  }

  private static JsonNode call(String fn, JsonNode args, SkipTracker tracker) {
    JsonNode a0 = arg(args, 0);
    return switch (fn) {
      case "hwToGpuKey" -> text(Normalizers.hwToGpuKey(a0.asText()));
      case "resolveModelKey" -> text(Normalizers.resolveModelKey(a0));
      case "normalizeFramework" -> {
        Normalizers.Framework f = Normalizers.normalizeFramework(Js.string(a0), present(arg(args, 1)));
        ObjectNode o = MAPPER.createObjectNode();
        o.put("framework", f.framework()).put("disagg", f.disagg());
        yield o;
      }
      case "normalizePrecision" -> TextNode.valueOf(Normalizers.normalizePrecision(Js.string(a0)));
      case "normalizeSpecMethod" -> TextNode.valueOf(Normalizers.normalizeSpecMethod(present(a0)));
      case "parseBool" -> BooleanNode.valueOf(Normalizers.parseBool(present(a0)));
      case "parseNum" -> number(Normalizers.parseNum(present(a0)));
      case "parseInt2" -> number(Normalizers.parseInt2(present(a0)));
      case "parseIslOsl" -> Normalizers.parseIslOsl(a0.asText()).<JsonNode>map(x -> {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("isl", x.isl()).put("osl", x.osl());
        return o;
      }).orElse(NullNode.getInstance());
      case "configCacheKey" -> TextNode.valueOf(configKey(a0));
      case "resolveConfigTopology" ->
          ConfigTopology.resolve(a0, Js.string(arg(args, 1)), arg(args, 2).asBoolean()).toJson();
      case "mapBenchmarkRow" -> {
        JsonNode fb = arg(args, 1);
        Normalizers.IslOsl fallback = fb.isObject() ? new Normalizers.IslOsl(fb.get("isl").asLong(), fb.get("osl").asLong()) : null;
        yield BenchmarkMapper.map(a0, tracker, fallback).<JsonNode>map(BenchmarkParams::toJson).orElse(NullNode.getInstance());
      }
      case "mapEvalRow" -> {
        ArrayNode out = MAPPER.createArrayNode();
        EvalMapper.mapEvalRow(a0, arg(args, 1), tracker).forEach(e -> out.add(e.toJson()));
        yield out;
      }
      case "mapAggEvalRow" -> EvalMapper.mapAggEvalRow(a0, tracker).<JsonNode>map(EvalParams::toJson).orElse(NullNode.getInstance());
      case "extractWorkers" -> {
        ArrayNode w = BenchmarkMapper.extractWorkers(present(a0));
        yield w == null ? MissingNode.getInstance() : w;
      }
      case "scrubWithheldPowerMetrics" -> {
        ObjectNode metrics = a0.deepCopy();
        ObjectNode o = MAPPER.createObjectNode();
        o.put("return", BenchmarkMapper.scrubWithheldPowerMetrics(metrics));
        o.set("metrics", metrics);
        yield o;
      }
      case "mapRunStats" -> {
        ArrayNode out = MAPPER.createArrayNode();
        RunStats.map(a0, tracker).forEach(r -> out.add(r.toJson()));
        yield out;
      }
      case "hasSupportedResultSchemaVersion" -> BooleanNode.valueOf(Normalizers.hasSupportedResultSchemaVersion(a0));
      case "extractRuntimeMetadata" -> BenchmarkMapper.extractRuntimeMetadata(a0);
      case "physicalChipCount" -> {
        OptionalLong n = Normalizers.physicalChipCount(present(a0));
        yield n.isPresent() ? MAPPER.getNodeFactory().numberNode(n.getAsLong()) : MissingNode.getInstance();
      }
      case "skipTracker" -> runTracker(a0);
      default -> throw new IllegalArgumentException("no harness for " + fn);
    };
  }

  private static JsonNode present(JsonNode v) {
    return v == null || v.isMissingNode() ? null : v;
  }

  private static JsonNode text(Optional<String> s) {
    return s.<JsonNode>map(TextNode::valueOf).orElse(NullNode.getInstance());
  }

  private static JsonNode number(OptionalDouble d) {
    return d.isPresent() ? DoubleNode.valueOf(d.getAsDouble()) : MissingNode.getInstance();
  }

  /**
   * {@code path} of a mapper result for a relation. A relation compares results' configs or
   * metrics ({@code configCacheKey(result.config)}); mapEvalRow returns a list, whose test
   * destructures its one element ({@code const [individual] = mapEvalRow(...)}), so a path the
   * list itself lacks is read from its first element. {@code path}/{@code other_path} in the
   * relation name another place explicitly.
   */
  private static JsonNode member(JsonNode result, String path) {
    JsonNode v = at(result, path);
    if (v.isMissingNode() && result.isArray() && result.size() > 0) {
      v = at(result.get(0), path);
    }
    return v;
  }

  private static String configKey(JsonNode c) {
    if (!c.isObject()) {
      throw new IllegalArgumentException("no config to key in the result: " + show(c));
    }
    return new ConfigParams(c.get("hardware").asText(), c.get("framework").asText(), c.get("model").asText(),
        c.get("precision").asText(), c.get("specMethod").asText(), c.get("disagg").asBoolean(),
        c.get("isMultinode").asBoolean(), c.get("prefillTp").asLong(), c.get("prefillEp").asLong(),
        c.get("prefillDpAttn").asBoolean(), c.get("prefillNumWorkers").asLong(), c.get("decodeTp").asLong(),
        c.get("decodeEp").asLong(), c.get("decodeDpAttn").asBoolean(), c.get("decodeNumWorkers").asLong(),
        c.get("numPrefillGpu").asLong(), c.get("numDecodeGpu").asLong()).cacheKey();
  }

  private static JsonNode runTracker(JsonNode ops) {
    SkipTracker t = new SkipTracker(line -> { });
    Map<String, SkipTracker.Snapshot> snaps = new java.util.LinkedHashMap<>();
    ObjectNode snapshots = MAPPER.createObjectNode();
    ObjectNode diffs = MAPPER.createObjectNode();
    for (JsonNode op : ops) {
      switch (op.get("op").asText()) {
        case "inc" -> t.add(SkipTracker.Skip.valueOf(op.get("counter").asText()), op.path("by").asLong(1));
        case "set" -> t.set(SkipTracker.Skip.valueOf(op.get("counter").asText()), op.get("value").asLong());
        case "addUnmappedModel" -> t.addUnmappedModel(op.get("value").asText());
        case "addUnmappedHw" -> t.addUnmappedHw(op.get("value").asText());
        case "recordDbError" -> t.recordDbError(op.get("context").asText(), op.get("message").asText());
        case "recordTelemetryError" -> t.recordTelemetryError(op.get("context").asText(), op.get("message").asText());
        case "snapshot" -> {
          SkipTracker.Snapshot s = t.snapshot();
          snaps.put(op.get("as").asText(), s);
          ObjectNode o = snapshots.putObject(op.get("as").asText());
          o.put("model", s.model()).put("hw", s.hw()).put("islOsl", s.islOsl());
          s.models().forEach(o.putArray("models")::add);
          ArrayNode hws = o.putArray("hws");
          s.hws().forEach(hws::add);
          if (!o.has("models")) {
            o.putArray("models");
          }
        }
        case "diff" -> {
          SkipTracker.Diff d = t.diff(snaps.get(op.get("of").asText()));
          ObjectNode o = diffs.putObject(op.get("as").asText());
          o.put("droppedModel", d.droppedModel()).put("droppedHw", d.droppedHw()).put("droppedIslOsl", d.droppedIslOsl());
          ArrayNode nm = o.putArray("newModels");
          d.newModels().forEach(nm::add);
          ArrayNode nh = o.putArray("newHws");
          d.newHws().forEach(nh::add);
        }
        default -> throw new IllegalArgumentException("unknown tracker op " + op);
      }
    }
    ObjectNode state = (ObjectNode) trackerState(t);
    state.set("snapshots", snapshots);
    state.set("diffs", diffs);
    return state;
  }

  private static JsonNode trackerState(SkipTracker t) {
    ObjectNode state = MAPPER.createObjectNode();
    ObjectNode skips = state.putObject("skips");
    t.skips().forEach((k, v) -> skips.put(k.name(), v));
    ArrayNode models = state.putArray("unmappedModels");
    t.unmappedModels().forEach(models::add);
    ArrayNode hws = state.putArray("unmappedHws");
    t.unmappedHws().forEach(hws::add);
    ArrayNode precisions = state.putArray("unmappedPrecisions");
    t.unmappedPrecisions().forEach(precisions::add);
    return state;
  }

  // ---------------------------------------------------------------- JS-like comparison

  /** Decodes {@code {"$js": …}} markers; an undefined property is dropped from its object. */
  static JsonNode decode(JsonNode n) {
    if (n == null) {
      return MissingNode.getInstance();
    }
    if (n.isObject()) {
      if (n.size() == 1 && n.has("$js")) {
        return switch (n.get("$js").asText()) {
          case "undefined" -> MissingNode.getInstance();
          case "NaN" -> DoubleNode.valueOf(Double.NaN);
          case "Infinity" -> DoubleNode.valueOf(Double.POSITIVE_INFINITY);
          case "-Infinity" -> DoubleNode.valueOf(Double.NEGATIVE_INFINITY);
          default -> throw new IllegalArgumentException("unknown $js " + n);
        };
      }
      ObjectNode o = MAPPER.createObjectNode();
      for (Map.Entry<String, JsonNode> e : n.properties()) {
        JsonNode v = decode(e.getValue());
        if (!v.isMissingNode()) {
          o.set(e.getKey(), v);
        }
      }
      return o;
    }
    if (n.isArray()) {
      ArrayNode a = MAPPER.createArrayNode();
      for (JsonNode e : n) {
        JsonNode v = decode(e);
        a.add(v.isMissingNode() ? NullNode.getInstance() : v);
      }
      return a;
    }
    return n;
  }

  /** vitest {@code toEqual}: deep equality, undefined properties count as absent, NaN equals NaN. */
  static boolean jsEquals(JsonNode e, JsonNode a) {
    boolean eMissing = e == null || e.isMissingNode();
    boolean aMissing = a == null || a.isMissingNode();
    if (eMissing || aMissing) {
      return eMissing && aMissing;
    }
    if (e.isNumber() && a.isNumber()) {
      double x = e.doubleValue();
      double y = a.doubleValue();
      return x == y || (Double.isNaN(x) && Double.isNaN(y));
    }
    if (e.isObject() && a.isObject()) {
      if (e.size() != a.size()) {
        return false;
      }
      for (Map.Entry<String, JsonNode> f : e.properties()) {
        if (!a.has(f.getKey()) || !jsEquals(f.getValue(), a.get(f.getKey()))) {
          return false;
        }
      }
      return true;
    }
    if (e.isArray() && a.isArray()) {
      if (e.size() != a.size()) {
        return false;
      }
      for (int i = 0; i < e.size(); i++) {
        if (!jsEquals(e.get(i), a.get(i))) {
          return false;
        }
      }
      return true;
    }
    return e.getNodeType() == a.getNodeType() && e.equals(a);
  }

  /** vitest {@code toMatchObject}; returns null on a match, else where it differs. */
  static String matchObject(JsonNode e, JsonNode a, String path) {
    if (e.isObject()) {
      if (a == null || !a.isObject()) {
        return path + ": expected an object, got " + show(a);
      }
      for (Map.Entry<String, JsonNode> f : e.properties()) {
        String why = matchObject(f.getValue(), a.has(f.getKey()) ? a.get(f.getKey()) : MissingNode.getInstance(),
            path + "." + f.getKey());
        if (why != null) {
          return why;
        }
      }
      return null;
    }
    if (e.isArray()) {
      if (a == null || !a.isArray() || a.size() != e.size()) {
        return path + ": expected " + show(e) + ", got " + show(a);
      }
      for (int i = 0; i < e.size(); i++) {
        String why = matchObject(e.get(i), a.get(i), path + "[" + i + "]");
        if (why != null) {
          return why;
        }
      }
      return null;
    }
    return jsEquals(e, a) ? null : path + ": expected " + show(e) + ", got " + show(a);
  }

  /**
   * A path like {@code metrics.p99.9_intvty}, {@code [0].metrics.alias} or {@code workers[1].x};
   * object keys may themselves hold dots, so the longest matching key wins.
   */
  static JsonNode at(JsonNode node, String path) {
    if (path.isEmpty()) {
      return node == null ? MissingNode.getInstance() : node;
    }
    if (node == null || node.isMissingNode()) {
      return MissingNode.getInstance();
    }
    if (path.startsWith(".")) {
      return at(node, path.substring(1));
    }
    if (path.startsWith("[")) {
      int end = path.indexOf(']');
      int i = Integer.parseInt(path.substring(1, end));
      return node.isArray() && i < node.size() ? at(node.get(i), path.substring(end + 1)) : MissingNode.getInstance();
    }
    if (!node.isObject()) {
      return MissingNode.getInstance();
    }
    String best = null;
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if ((path.equals(k) || path.startsWith(k + ".") || path.startsWith(k + "["))
          && (best == null || k.length() > best.length())) {
        best = k;
      }
    }
    if (best == null) {
      return MissingNode.getInstance();
    }
    return at(node.get(best), path.substring(best.length()));
  }

  private static String show(JsonNode n) {
    return n == null || n.isMissingNode() ? "undefined" : n.toString();
  }
}
