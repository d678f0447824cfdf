package io.infx.results.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.python.PythonJsonDecoder;
import io.infx.results.evals.internal.PyValues;
import io.infx.core.python.PythonNumbers;
import io.infx.core.python.PythonRepr;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Collects lm-eval outputs into {@link EvalRow}s exactly as {@code utils/collect_eval_results.py}
 * does (conformance corpus {@code evals/collect}).
 *
 * <p>Discovery: the results directory itself when it holds a {@code meta_env.json} (one artifact
 * downloaded flat), then each immediate subdirectory holding one, in directory-listing order;
 * deeper levels are ignored and a missing directory yields nothing. Per artifact, candidate files
 * are the {@code *.json} files beside {@code meta_env.json} (dot-files included) that parse as a
 * JSON object with a {@code lm_eval_version} key. An unbatched artifact contributes its newest
 * candidate (by modification time); a batched one ({@code eval_concs} is a list) contributes, per
 * {@code _conc<N>[_k].json} suffix, the newest file, concurrency ascending, restricted to
 * {@code completed_eval_concs}. Each file gives one row per task of its {@code results}.
 *
 * <p>Scores: with a {@code filter_list}, a filter whose name contains {@code strict} or
 * {@code resolved} (SWE-bench's resolved rate, {@code exact_match,resolved}) gives the strict score
 * ({@code em_strict}, and the row's {@code score}), one containing {@code flex} or {@code extract}
 * the flexible one; the last matching filter wins. Without filters, {@code acc} (accuracy) or the
 * bare metric. Values are published as found: a rate stays a fraction, a count stays a count.
 */
public final class EvalCollector {

  /** The file each artifact must carry. */
  public static final String META_ENV = "meta_env.json";

  /** {@code _conc<N>} or {@code _conc<N>_<k>} at the end of a staged result file name. */
  public static final Pattern CONC_SUFFIX = Pattern.compile("_conc(\\d+)(?:_\\d+)?\\.json$");

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private EvalCollector() {}

  /**
   * Collects every eval row under {@code resultsDir}.
   *
   * @param workingDir directory relative paths are resolved against
   * @param resultsDir the results directory as the user wrote it; the rows' {@code source} is built
   *     from this text (pathlib-normalized), so relative input gives relative sources
   * @return rows in discovery order
   * @throws EvalInputException where the reference stops with a traceback (e.g. {@code "hw": null})
   */
  public static List<EvalRow> collect(Path workingDir, String resultsDir) {
    String rootText = normalizePath(resultsDir);
    Path root = workingDir.resolve(rootText);
    List<EvalRow> rows = new ArrayList<>();
    for (EvalSet set : findEvalSets(root, rootText)) {
      collectSet(set, rows);
    }
    return rows;
  }

  private record EvalSet(Path dir, String text) {}

  private static List<EvalSet> findEvalSets(Path root, String rootText) {
    List<EvalSet> out = new ArrayList<>();
    if (Files.exists(root.resolve(META_ENV))) {
      out.add(new EvalSet(root, rootText));
    }
    // Directory-listing order, as pathlib's iterdir(); errors end the discovery silently.
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
      for (Path d : ds) {
        if (Files.isDirectory(d) && Files.exists(d.resolve(META_ENV))) {
          out.add(new EvalSet(d, join(rootText, d.getFileName().toString())));
        }
      }
    } catch (IOException | RuntimeException e) {
      // as the reference: whatever was found so far
    }
    return out;
  }

  private static void collectSet(EvalSet set, List<EvalRow> rows) {
    JsonNode meta = loadJson(set.dir().resolve(META_ENV)).orElse(null);
    if (meta == null || !PyValues.truthy(meta)) {
      meta = NODES.objectNode();
    }
    ObjectNode metaObj = dict(meta, "meta_env.json in " + set.text());
    JsonNode batchConcs = metaObj.get("eval_concs");
    boolean batched = batchConcs != null && batchConcs.isArray();
    Set<Long> allowed = null;
    if (batched) {
      JsonNode completed = metaObj.has("completed_eval_concs") ? metaObj.get("completed_eval_concs") : batchConcs;
      if (completed.isArray()) {
        allowed = new HashSet<>();
        for (JsonNode c : completed) {
          allowed.add(PythonNumbers.truncatingInt(c).orElse(-1));
        }
      }
    }
    for (Candidate lm : lmEvalFiles(set.dir(), batched)) {
      ObjectNode rowMeta = metaObj;
      if (batched) {
        long conc = lm.conc().orElseThrow();
        if (allowed != null && !allowed.contains(conc)) {
          continue;
        }
        rowMeta = metaObj.deepCopy();
        rowMeta.put("conc", conc);
      }
      String source = join(set.text(), lm.path().getFileName().toString());
      for (Metrics m : extractMetrics(lm.data(), source)) {
        rows.add(buildRow(rowMeta, m, set.text()));
      }
    }
  }

  private record Candidate(Path path, ObjectNode data, long mtimeNanos, OptionalLong conc) {}

  private static List<Candidate> lmEvalFiles(Path dir, boolean batched) {
    List<Candidate> lm = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.json")) {
      for (Path p : ds) {
        if (p.getFileName().toString().equals(META_ENV)) {
          continue;
        }
        Optional<JsonNode> data = loadJson(p);
        if (data.isEmpty() || !data.get().isObject() || !data.get().has("lm_eval_version")) {
          continue;
        }
        long mtime = Files.getLastModifiedTime(p).to(java.util.concurrent.TimeUnit.NANOSECONDS);
        Matcher m = CONC_SUFFIX.matcher(p.getFileName().toString());
        OptionalLong conc = m.find() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
        lm.add(new Candidate(p, (ObjectNode) data.get(), mtime, conc));
      }
    } catch (IOException e) {
      return List.of();
    }
    if (lm.isEmpty()) {
      return List.of();
    }
    // Equal times have no defined winner in the reference; the name decides here.
    Comparator<Candidate> newest = Comparator.comparingLong(Candidate::mtimeNanos)
        .thenComparing(c -> c.path().getFileName().toString());
    if (!batched) {
      return List.of(lm.stream().max(newest).orElseThrow());
    }
    Map<Long, Candidate> latest = new TreeMap<>();
    for (Candidate c : lm) {
      if (c.conc().isEmpty()) {
        continue;
      }
      latest.merge(c.conc().getAsLong(), c, (a, b) -> newest.compare(a, b) >= 0 ? a : b);
    }
    return new ArrayList<>(latest.values());
  }

  /** {@code load_json}: the parsed file, or empty when it cannot be read or parsed. */
  static Optional<JsonNode> loadJson(Path p) {
    try {
      if (Files.isDirectory(p)) {
        return Optional.empty();
      }
      return Optional.of(PythonJsonDecoder.load(p));
    } catch (IOException | PythonJsonDecoder.EncodingError | PythonJsonDecoder.DecodeError
        | RuntimeException e) {
      return Optional.empty();
    }
  }

  private record Metrics(String task, JsonNode strict, JsonNode strictSe, JsonNode flex,
      JsonNode flexSe, JsonNode accuracy, JsonNode accuracySe, JsonNode nEff, JsonNode model,
      String source) {}

  private static List<Metrics> extractMetrics(ObjectNode data, String source) {
    JsonNode results = getOr(data, "results", NODES.objectNode(), source);
    JsonNode configs = getOr(data, "configs", NODES.objectNode(), source);
    if (!PyValues.truthy(results)) {
      return List.of();
    }
    ObjectNode resultsObj = attr(results, "keys", source + ": results");
    List<Metrics> out = new ArrayList<>();
    var it = resultsObj.fields();
    while (it.hasNext()) {
      var e = it.next();
      String task = e.getKey();
      JsonNode taskResults = e.getValue();
      JsonNode taskConfig = getOr(configs, task, NODES.objectNode(), source + ": configs");
      JsonNode metricList = getOr(taskConfig, "metric_list", NODES.arrayNode(), source);
      String baseMetric = "exact_match";
      if (PyValues.truthy(metricList)) {
        baseMetric = PythonRepr.str(item(item(metricList, 0, source), "metric", source));
      }
      JsonNode filterList = getOr(taskConfig, "filter_list", NODES.arrayNode(), source);
      JsonNode strict = null;
      JsonNode strictSe = null;
      JsonNode flex = null;
      JsonNode flexSe = null;
      JsonNode accuracy = null;
      JsonNode accuracySe = null;
      if (!PyValues.truthy(filterList)) {
        if (dict(taskResults, source + ": results." + task).has("acc")) {
          accuracy = getOr(taskResults, "acc", null, source);
          accuracySe = getOr(taskResults, "acc_stderr", null, source);
        } else {
          strict = getOr(taskResults, baseMetric, null, source);
          strictSe = getOr(taskResults, baseMetric + "_stderr", null, source);
        }
      } else {
        for (JsonNode f : iterate(filterList, source)) {
          JsonNode nameNode = item(f, "name", source);
          if (!nameNode.isTextual()) {
            throw new EvalInputException("TypeError", "argument of type '"
                + PythonNumbers.typeName(nameNode) + "' is not iterable",
                source + ": configs." + task + ".filter_list has a non-string name " + PythonRepr.repr(nameNode));
          }
          String fname = nameNode.textValue();
          // A filter name with "resolved" is SWE-bench's resolved rate (utils/evals/swebench_score.py
          // publishes it as exact_match,resolved): the strict score, as upstream's collector since #1947.
          if (fname.contains("strict") || fname.contains("resolved")) {
            strict = getOr(taskResults, baseMetric + "," + fname, null, source);
            strictSe = getOr(taskResults, baseMetric + "_stderr," + fname, null, source);
          } else if (fname.contains("flex") || fname.contains("extract")) {
            flex = getOr(taskResults, baseMetric + "," + fname, null, source);
            flexSe = getOr(taskResults, baseMetric + "_stderr," + fname, null, source);
          }
        }
      }
      JsonNode nSamples = getOr(data, "n-samples", NODES.objectNode(), source);
      JsonNode taskSamples = getOr(nSamples, task, NODES.objectNode(), source);
      JsonNode nEff = getOr(taskSamples, "effective", null, source);
      JsonNode model = getOr(data, "model_name", null, source);
      if (!PyValues.truthy(model)) {
        JsonNode metadata = getOr(taskConfig, "metadata", NODES.objectNode(), source);
        model = getOr(metadata, "model", null, source);
      }
      out.add(new Metrics(task, orNull(strict), orNull(strictSe), orNull(flex), orNull(flexSe),
          orNull(accuracy), orNull(accuracySe), orNull(nEff), orNull(model), source));
    }
    return out;
  }

  private static EvalRow buildRow(ObjectNode meta, Metrics m, String setText) {
    String where = setText + "/" + META_ENV;
    boolean multinode = asBool(meta.get("is_multinode"));
    long prefillTp = asInt(meta.has("prefill_tp") ? meta.get("prefill_tp") : orDefault(meta, "tp", 1), 1);
    long prefillEp = asInt(meta.has("prefill_ep") ? meta.get("prefill_ep") : orDefault(meta, "ep", 1), 1);
    long prefillWorkers = asInt(orDefault(meta, "prefill_num_workers", 1), 1);
    long decodeTp = asInt(meta.has("decode_tp") ? meta.get("decode_tp") : orDefault(meta, "tp", 1), 1);
    long decodeEp = asInt(meta.has("decode_ep") ? meta.get("decode_ep") : orDefault(meta, "ep", 1), 1);
    long decodeWorkers = asInt(orDefault(meta, "decode_num_workers", 1), 1);
    JsonNode dpAttention = meta.has("dp_attention") ? meta.get("dp_attention") : NODES.textNode("none");
    JsonNode prefillDp = orNull(meta.get("prefill_dp_attention"));
    JsonNode decodeDp = orNull(meta.get("decode_dp_attention"));
    if (prefillDp.isNull()) {
      prefillDp = dpAttention;
    }
    if (decodeDp.isNull()) {
      decodeDp = dpAttention;
    }
    if (multinode) {
      dpAttention = PyValues.equal(prefillDp, decodeDp) ? prefillDp
          : NODES.textNode("prefill=" + lower(prefillDp) + ",decode=" + lower(decodeDp));
    }
    JsonNode model = PyValues.truthy(m.model()) ? m.model() : orDefault(meta, "model", "unknown");
    EvalRow.ScoreName scoreName = null;
    JsonNode score = NODES.nullNode();
    JsonNode scoreSe = NODES.nullNode();
    if (!m.strict().isNull()) {
      scoreName = EvalRow.ScoreName.EM_STRICT;
      score = m.strict();
      scoreSe = m.strictSe();
    } else if (!m.accuracy().isNull()) {
      scoreName = EvalRow.ScoreName.ACCURACY;
      score = m.accuracy();
      scoreSe = m.accuracySe();
    }
    return EvalRow.builder()
        .multinode(multinode)
        .modelPrefix(orDefault(meta, "infmax_model_prefix", "unknown"))
        .model(model)
        .hw(caseOf(orDefault(meta, "hw", "unknown"), "upper", where, "hw").toUpperCase(Locale.ROOT))
        .framework(caseOf(orDefault(meta, "framework", "unknown"), "lower", where, "framework")
            .toLowerCase(Locale.ROOT))
        .precision(caseOf(orDefault(meta, "precision", "unknown"), "lower", where, "precision")
            .toLowerCase(Locale.ROOT))
        .specDecoding(orDefault(meta, "spec_decoding", "unknown"))
        .isl(asInt(orDefault(meta, "isl", 0), 0))
        .osl(asInt(orDefault(meta, "osl", 0), 0))
        .tp(meta.has("tp") ? asInt(meta.get("tp"), prefillTp) : prefillTp)
        .ep(meta.has("ep") ? asInt(meta.get("ep"), prefillEp) : prefillEp)
        .prefillTp(prefillTp)
        .prefillEp(prefillEp)
        .prefillNumWorkers(prefillWorkers)
        .decodeTp(decodeTp)
        .decodeEp(decodeEp)
        .decodeNumWorkers(decodeWorkers)
        .conc(asInt(orDefault(meta, "conc", 0), 0))
        .dpAttention(lower(dpAttention))
        .prefillDpAttention(lower(prefillDp))
        .decodeDpAttention(lower(decodeDp))
        .task(m.task())
        .emStrict(m.strict())
        .emStrictSe(m.strictSe())
        .emFlexible(m.flex())
        .emFlexibleSe(m.flexSe())
        .nEff(m.nEff())
        .source(m.source())
        .score(score)
        .scoreName(Optional.ofNullable(scoreName))
        .scoreSe(scoreSe)
        .build();
  }

  private static String caseOf(JsonNode v, String method, String where, String key) {
    if (!v.isTextual()) {
      throw new EvalInputException("AttributeError",
          "'" + PythonNumbers.typeName(v) + "' object has no attribute '" + method + "'",
          where + ": \"" + key + "\" must be a string, got " + PythonRepr.repr(v)
              + " (the reference crashes on it)");
    }
    return v.textValue();
  }

  private static String lower(JsonNode v) {
    return PythonRepr.str(v).toLowerCase(Locale.ROOT);
  }

  /** {@code as_bool}: bools as is, null/missing → false, else {@code str(x).lower() == "true"}. */
  private static boolean asBool(JsonNode v) {
    if (v == null || v.isNull()) {
      return false;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    return lower(v).equals("true");
  }

  /** {@code as_int(x, default)}: Python {@code int(x)}, the default on any exception. */
  private static long asInt(JsonNode v, long fallback) {
    return PythonNumbers.truncatingInt(v).orElse(fallback);
  }

  private static JsonNode orDefault(ObjectNode meta, String key, Object fallback) {
    if (meta.has(key)) {
      return meta.get(key);
    }
    return fallback instanceof Integer i ? NODES.numberNode(i) : NODES.textNode((String) fallback);
  }

  private static JsonNode orNull(JsonNode v) {
    return v == null ? NODES.nullNode() : v;
  }

  /** {@code obj.get(key, default)}, crashing like Python when {@code obj} is not a dict. */
  private static JsonNode getOr(JsonNode obj, String key, JsonNode fallback, String where) {
    ObjectNode o = attr(obj, "get", where);
    return o.has(key) ? o.get(key) : fallback;
  }

  private static ObjectNode attr(JsonNode obj, String method, String where) {
    if (obj instanceof ObjectNode o) {
      return o;
    }
    throw new EvalInputException("AttributeError",
        "'" + PythonNumbers.typeName(obj) + "' object has no attribute '" + method + "'",
        where + ": expected a JSON object, got " + PythonRepr.repr(obj) + " (the reference crashes on it)");
  }

  private static ObjectNode dict(JsonNode obj, String where) {
    return attr(obj, "get", where);
  }

  private static JsonNode item(JsonNode obj, Object key, String where) {
    if (key instanceof Integer i && obj.isArray() && obj.size() > i) {
      return obj.get(i);
    }
    if (key instanceof String s && obj.isObject() && obj.has(s)) {
      return obj.get(s);
    }
    throw new EvalInputException(key instanceof String && obj.isObject() ? "KeyError" : "TypeError",
        key instanceof String && obj.isObject() ? PythonRepr.repr((String) key)
            : "'" + PythonNumbers.typeName(obj) + "' object is not subscriptable",
        where + ": cannot read [" + key + "] of " + PythonRepr.repr(obj) + " (the reference crashes on it)");
  }

  private static Iterable<JsonNode> iterate(JsonNode v, String where) {
    if (v.isArray()) {
      return v;
    }
    throw new EvalInputException("TypeError", "'" + PythonNumbers.typeName(v) + "' object is not iterable",
        where + ": filter_list must be a list, got " + PythonRepr.repr(v));
  }

  /**
   * {@code str(PurePosixPath(text))}: empty and {@code .} components dropped, repeated and
   * trailing slashes removed, {@code ..} kept; empty input is {@code .}.
   */
  static String normalizePath(String text) {
    String prefix = text.startsWith("//") && !text.startsWith("///") ? "//" : text.startsWith("/") ? "/" : "";
    List<String> parts = new ArrayList<>();
    for (String p : text.split("/")) {
      if (!p.isEmpty() && !p.equals(".")) {
        parts.add(p);
      }
    }
    String joined = String.join("/", parts);
    if (prefix.isEmpty() && joined.isEmpty()) {
      return ".";
    }
    return prefix + joined;
  }

  private static String join(String base, String name) {
    if (base.equals(".")) {
      return name;
    }
    return base.endsWith("/") ? base + name : base + "/" + name;
  }
}
