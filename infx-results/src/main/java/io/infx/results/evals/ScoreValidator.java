package io.infx.results.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.python.PythonJson;
import io.infx.core.python.PythonJsonDecoder;
import io.infx.results.evals.ValidationReport.Line;
import io.infx.results.evals.ValidationReport.ScoreCheck;
import io.infx.results.evals.ValidationReport.Stream;
import io.infx.results.evals.internal.PyGlob;
import io.infx.results.evals.internal.PyValues;
import io.infx.core.python.PythonNumbers;
import io.infx.core.python.PythonRepr;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

/**
 * The eval score gate, as {@code utils/evals/validate_scores.py} applies it (conformance corpus
 * {@code evals/validate}): thresholds from {@link EvalThresholds}, the model prefix from
 * {@code --model-prefix}, {@code meta_env.json} ({@code infmax_model_prefix}) or
 * {@code $MODEL_PREFIX}, the batched-concurrency manifest check, then every metric of every
 * {@code results*.json} whose name starts with the metric prefix (and is not a {@code *stderr*}
 * metric) compared with {@code value < threshold}.
 *
 * <p>Messages are the reference's, byte for byte: {@code PASS: [conc=4] gsm8k
 * exact_match,strict-match = 0.9522 (>= 0.91 from models.dsr1)} on stdout, {@code FAIL: …} and
 * {@code WARN: …} on stderr.
 */
public final class ScoreValidator {

  /** The reference's message for a bad {@code --expected-concs}. */
  public static final String BAD_EXPECTED_CONCS =
      "FAIL: expected concurrencies must be unique positive integers";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final ValidationOptions options;
  private final Consumer<Line> sink;
  private final List<Line> lines = new ArrayList<>();
  private final List<ScoreCheck> checks = new ArrayList<>();

  private ScoreValidator(ValidationOptions options, Consumer<Line> sink) {
    this.options = options;
    this.sink = sink;
  }

  /** Validates and returns the report (lines are not printed). */
  public static ValidationReport validate(ValidationOptions options) {
    return validate(options, line -> { });
  }

  /**
   * Validates, handing every line to {@code sink} as soon as it is produced (so output written
   * before a crash is kept, as in the reference).
   *
   * @throws EvalInputException where the reference crashes: an unparseable result file, a
   *     thresholds {@code default}/{@code models} entry that is not a mapping, a non-numeric
   *     threshold
   */
  public static ValidationReport validate(ValidationOptions options, Consumer<Line> sink) {
    return new ScoreValidator(options, sink).run();
  }

  /**
   * {@code --expected-concs} parsed: whitespace-separated Python integers; empty when any item is
   * not an integer.
   */
  public static List<Long> parseExpectedConcs(String text) {
    String stripped = PythonNumbers.strip(text);
    List<Long> out = new ArrayList<>();
    if (stripped.isEmpty()) {
      return out;
    }
    for (String item : stripped.split("[\\s\\p{Z}\\u001c-\\u001f\\u0085]+")) {
      var v = PythonNumbers.parseInt(item);
      if (!v.ok()) {
        return new ArrayList<>();
      }
      out.add((long) v.value().get());
    }
    return out;
  }

  private void out(String text) {
    emit(new Line(Stream.OUT, text));
  }

  private void err(String text) {
    emit(new Line(Stream.ERR, text));
  }

  private void emit(Line line) {
    lines.add(line);
    sink.accept(line);
  }

  private Path resolve(String path) {
    return options.workingDir().resolve(path);
  }

  private ValidationReport run() {
    List<Long> expected = null;
    if (options.expectedConcs().isPresent()) {
      expected = parseExpectedConcs(options.expectedConcs().get());
      if (expected.isEmpty() || expected.stream().anyMatch(v -> v <= 0)
          || new java.util.HashSet<>(expected).size() != expected.size()) {
        err(BAD_EXPECTED_CONCS);
        return new ValidationReport(lines, checks, List.of(), 1);
      }
    }

    EvalThresholds config = EvalThresholds.none();
    String thresholdsPath = options.thresholds().orElse(null);
    if (thresholdsPath == null && options.defaultThresholds().isPresent()
        && Files.exists(options.defaultThresholds().get())) {
      thresholdsPath = options.defaultThresholds().get().toAbsolutePath().toString();
    }
    if (thresholdsPath != null && !thresholdsPath.isEmpty()) {
      try {
        config = EvalThresholds.load(resolve(thresholdsPath), thresholdsPath);
        out("Loaded thresholds from " + thresholdsPath);
      } catch (EvalThresholds.LoadException e) {
        err("WARN: could not load thresholds from " + thresholdsPath + ": " + e.getMessage());
      }
    }

    Optional<String> prefix = detectModelPrefix();
    if (prefix.isPresent() && config.hasModel(prefix.get())) {
      out("Model prefix: " + prefix.get() + " (per-model thresholds apply)");
    } else if (prefix.isPresent()) {
      out("Model prefix: " + prefix.get() + " (no per-model override; using global default)");
    } else {
      out("Model prefix: <unknown> (using global default thresholds)");
    }

    boolean failed = false;
    List<String> resultFiles = PyGlob.glob(options.workingDir(), options.resultsGlob());
    resultFiles.sort(PythonJson.CODE_POINT_ORDER);

    List<String> manifestErrors = manifestErrors(resultFiles, expected);
    for (String error : manifestErrors) {
      err("FAIL: " + error);
      failed = true;
    }
    if (manifestErrors.isEmpty()) {
      MetaRead meta = readMeta();
      if (meta.error() != null) {
        err("WARN: could not inspect eval metadata for batched concurrency status: " + meta.error());
      } else if (contains(meta.value(), "eval_concs")) {
        out("PASS: batched eval produced every requested concurrency");
      }
    }

    EvalThresholds.Threshold fallback = EvalThresholds.Threshold.minScore(options.minScore());
    for (String file : resultFiles) {
      String name = file.substring(file.lastIndexOf('/') + 1);
      Matcher m = EvalCollector.CONC_SUFFIX.matcher(name);
      Optional<Long> conc = m.find() ? Optional.of(Long.parseLong(m.group(1))) : Optional.empty();
      String label = conc.map(c -> "[conc=" + m.group(1) + "] ").orElse("");
      JsonNode data = loadResult(file);
      JsonNode results = get(data, "results", NODES.objectNode(), file);
      Iterator<Map.Entry<String, JsonNode>> tasks = items(results, file + ": results");
      while (tasks.hasNext()) {
        Map.Entry<String, JsonNode> t = tasks.next();
        String task = t.getKey();
        EvalThresholds.Threshold threshold = config.resolve(prefix, task, fallback);
        Iterator<Map.Entry<String, JsonNode>> metrics = items(t.getValue(), file + ": results." + task);
        while (metrics.hasNext()) {
          Map.Entry<String, JsonNode> metric = metrics.next();
          String metricName = metric.getKey();
          JsonNode val = metric.getValue();
          if (!metricName.startsWith(options.metricPrefix()) || metricName.contains("stderr")) {
            continue;
          }
          if (!PyValues.isNumber(val)) {
            continue;
          }
          double v = PyValues.toDouble(val);
          double min = threshold.numeric().orElseThrow(() -> new EvalInputException("TypeError",
              "'<' not supported between instances of '" + PythonNumbers.typeName(val) + "' and '"
                  + PythonNumbers.typeName(threshold.value()) + "'",
              "threshold for " + task + " (" + threshold.source() + ") is not a number: "
                  + PythonRepr.repr(threshold.value())));
          boolean below = v < min;
          checks.add(new ScoreCheck(conc, task, metricName, v, threshold, !below, file));
          String shown = fixed4(val);
          if (below) {
            err("FAIL: " + label + task + " " + metricName + " = " + shown + " (< "
                + threshold.display() + " from " + threshold.source() + ")");
            failed = true;
          } else {
            out("PASS: " + label + task + " " + metricName + " = " + shown + " (>= "
                + threshold.display() + " from " + threshold.source() + ")");
          }
        }
      }
    }
    if (checks.isEmpty()) {
      err("WARN: no metrics matched prefix '" + options.metricPrefix() + "'");
    }
    return new ValidationReport(lines, checks, manifestErrors, failed || checks.isEmpty() ? 1 : 0);
  }

  /** {@code f"{val:.4f}"}: integers exactly, floats half-even on the binary value. */
  private static String fixed4(JsonNode val) {
    if (val.isIntegralNumber() || val.isBoolean()) {
      java.math.BigInteger i = val.isBoolean()
          ? java.math.BigInteger.valueOf(val.booleanValue() ? 1 : 0) : val.bigIntegerValue();
      return new BigDecimal(i).setScale(4, RoundingMode.HALF_EVEN).toPlainString();
    }
    return PythonNumbers.formatFixed(val.doubleValue(), 4);
  }

  private Optional<String> detectModelPrefix() {
    if (options.modelPrefix().isPresent() && !options.modelPrefix().get().isEmpty()) {
      return options.modelPrefix();
    }
    MetaRead meta = readMeta();
    if (meta.error() == null && meta.value().isObject()) {
      JsonNode p = meta.value().get("infmax_model_prefix");
      if (PyValues.truthy(p) && !(p.isTextual() && p.textValue().equals("unknown"))) {
        return Optional.of(PythonRepr.str(p));
      }
    }
    Optional<String> env = options.environmentModelPrefix();
    if (env.isPresent() && !env.get().isEmpty() && !env.get().equals("unknown")) {
      return env;
    }
    return Optional.empty();
  }

  /** meta_env.json as {@code json.load(open(path))}: a value, or the exception's text. */
  private record MetaRead(JsonNode value, String error) {}

  private MetaRead readMeta() {
    Path p = resolve(options.metaEnv());
    try {
      if (Files.isDirectory(p)) {
        throw new IOException("Is a directory");
      }
      return new MetaRead(PythonJsonDecoder.load(p), null);
    } catch (IOException e) {
      return new MetaRead(null, PyValues.osError(e, options.metaEnv()));
    } catch (PythonJsonDecoder.DecodeError e) {
      return new MetaRead(null, e.getMessage());
    } catch (PythonJsonDecoder.EncodingError e) {
      throw new EvalInputException("UnicodeDecodeError", e.getMessage(),
          options.metaEnv() + " is not UTF-8 text");
    }
  }

  private List<String> manifestErrors(List<String> resultFiles, List<Long> expected) {
    MetaRead read = readMeta();
    if (read.error() != null) {
      boolean suffixed = resultFiles.stream()
          .anyMatch(f -> EvalCollector.CONC_SUFFIX.matcher(f.substring(f.lastIndexOf('/') + 1)).find());
      if (expected != null || suffixed) {
        return List.of("batched eval result files exist but " + options.metaEnv()
            + " is unavailable or invalid: " + read.error());
      }
      return List.of();
    }
    JsonNode meta = read.value();
    if (expected != null && !contains(meta, "eval_concs")) {
      if (expected.size() > 1) {
        return List.of("workflow requested multiple concurrencies but batched eval metadata is missing");
      }
      List<String> errors = new ArrayList<>();
      JsonNode conc = get(meta, "conc", NODES.nullNode(), options.metaEnv());
      if (!PyValues.equal(conc, NODES.numberNode(expected.get(0)))) {
        errors.add("eval metadata concurrency does not match workflow request");
      }
      if (resultFiles.size() != 1) {
        errors.add("eval must produce exactly one result file");
      }
      return errors;
    }
    if (!contains(meta, "eval_concs")) {
      return List.of();
    }
    JsonNode metaExpected = get(meta, "eval_concs", NODES.nullNode(), options.metaEnv());
    JsonNode completed = get(meta, "completed_eval_concs", NODES.nullNode(), options.metaEnv());
    JsonNode failed = get(meta, "failed_eval_concs", NODES.nullNode(), options.metaEnv());
    if (!metaExpected.isArray() || !completed.isArray() || !failed.isArray()) {
      return List.of("batched eval metadata must contain list-valued concurrency fields");
    }
    for (JsonNode list : List.of(metaExpected, completed, failed)) {
      for (JsonNode v : list) {
        boolean isInt = v.isIntegralNumber() || v.isBoolean();
        if (!isInt || PyValues.toDouble(v) <= 0) {
          return List.of("batched eval metadata contains an invalid concurrency");
        }
      }
    }
    List<Long> metaList = longs(metaExpected);
    List<Long> completedList = longs(completed);
    Set<Long> metaSet = new LinkedHashSet<>(metaList);
    Set<Long> expectedSet = new LinkedHashSet<>(expected != null ? expected : metaList);
    Set<Long> completedSet = new LinkedHashSet<>(completedList);
    Set<Long> failedSet = new TreeSet<>(longs(failed));
    List<String> errors = new ArrayList<>();
    if (metaSet.size() != metaList.size()) {
      errors.add("batched eval metadata contains duplicate expected concurrencies");
    }
    if (completedSet.size() != completedList.size()) {
      errors.add("batched eval metadata contains duplicate completed concurrencies");
    }
    if (expected != null && !metaSet.equals(expectedSet)) {
      errors.add("batched eval metadata does not match workflow concurrencies");
    }
    if (!failedSet.isEmpty()) {
      errors.add("batched eval failed for concurrency: " + joined(failedSet));
    }
    if (!completedSet.equals(expectedSet)) {
      Set<Long> missing = minus(expectedSet, completedSet);
      Set<Long> unexpected = minus(completedSet, expectedSet);
      if (!missing.isEmpty()) {
        errors.add("batched eval is missing completed concurrency: " + joined(missing));
      }
      if (!unexpected.isEmpty()) {
        errors.add("batched eval completed unexpected concurrency: " + joined(unexpected));
      }
    }
    Set<Long> actual = new LinkedHashSet<>();
    for (String file : resultFiles) {
      Matcher m = EvalCollector.CONC_SUFFIX.matcher(file.substring(file.lastIndexOf('/') + 1));
      if (!m.find()) {
        errors.add("batched eval result lacks a concurrency suffix: " + file);
        continue;
      }
      actual.add(Long.parseLong(m.group(1)));
    }
    Set<Long> missingResults = minus(expectedSet, actual);
    Set<Long> unexpectedResults = minus(actual, expectedSet);
    if (!missingResults.isEmpty()) {
      errors.add("batched eval is missing result files for concurrency: " + joined(missingResults));
    }
    if (!unexpectedResults.isEmpty()) {
      errors.add("batched eval has unexpected result files for concurrency: " + joined(unexpectedResults));
    }
    return errors;
  }

  private static List<Long> longs(JsonNode list) {
    List<Long> out = new ArrayList<>();
    for (JsonNode v : list) {
      out.add(v.isBoolean() ? (v.booleanValue() ? 1L : 0L) : v.longValue());
    }
    return out;
  }

  private static Set<Long> minus(Set<Long> a, Set<Long> b) {
    Set<Long> out = new TreeSet<>(a);
    out.removeAll(b);
    return out;
  }

  private static String joined(Set<Long> values) {
    return new TreeSet<>(values).stream().map(String::valueOf).collect(Collectors.joining(", "));
  }

  /** Python {@code key in container} for a parsed JSON value. */
  private boolean contains(JsonNode container, String key) {
    if (container.isObject()) {
      return container.has(key);
    }
    if (container.isArray()) {
      for (JsonNode v : container) {
        if (v.isTextual() && v.textValue().equals(key)) {
          return true;
        }
      }
      return false;
    }
    if (container.isTextual()) {
      return container.textValue().contains(key);
    }
    throw new EvalInputException("TypeError", "argument of type '" + PythonNumbers.typeName(container)
        + "' is not iterable", options.metaEnv() + " must hold a JSON object, got " + PythonRepr.repr(container));
  }

  private static JsonNode get(JsonNode obj, String key, JsonNode fallback, String where) {
    if (obj instanceof ObjectNode o) {
      return o.has(key) ? o.get(key) : fallback;
    }
    throw new EvalInputException("AttributeError", "'" + PythonNumbers.typeName(obj)
        + "' object has no attribute 'get'", where + " must hold a JSON object, got " + PythonRepr.repr(obj));
  }

  private static Iterator<Map.Entry<String, JsonNode>> items(JsonNode obj, String where) {
    if (obj instanceof ObjectNode o) {
      return o.fields();
    }
    throw new EvalInputException("AttributeError", "'" + PythonNumbers.typeName(obj)
        + "' object has no attribute 'items'", where + " must be a JSON object, got " + PythonRepr.repr(obj));
  }

  private JsonNode loadResult(String file) {
    Path p = resolve(file);
    try {
      if (Files.isDirectory(p)) {
        throw new EvalInputException("IsADirectoryError", "[Errno 21] Is a directory: "
            + PythonRepr.repr(file), file + " matches the results glob but is a directory");
      }
      return PythonJsonDecoder.load(p);
    } catch (IOException e) {
      String text = PyValues.osError(e, file);
      throw new EvalInputException(text.startsWith("[Errno 2]") ? "FileNotFoundError"
          : text.startsWith("[Errno 13]") ? "PermissionError" : "OSError", text,
          "cannot read " + file + ": " + text);
    } catch (PythonJsonDecoder.DecodeError e) {
      throw new EvalInputException("json.decoder.JSONDecodeError", e.getMessage(),
          file + " is not valid JSON: " + e.getMessage());
    } catch (PythonJsonDecoder.EncodingError e) {
      throw new EvalInputException("UnicodeDecodeError", e.getMessage(), file + " is not UTF-8 text");
    }
  }
}
