package io.infx.results.evals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.python.PythonJsonDecoder;
import io.infx.core.tree.PythonYaml;
import io.infx.core.tree.TreeLimits;
import io.infx.results.evals.internal.PyValues;
import io.infx.core.python.PythonNumbers;
import io.infx.core.python.PythonRepr;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Minimum eval scores per task, with optional per-model overrides — the reference's
 * {@code utils/evals/thresholds.yaml}:
 *
 * <pre>
 * default:            # task → minimum score (fraction)
 *   gsm8k: 0.9
 * models:             # model prefix → task → minimum score
 *   dsr1: {gsm8k: 0.91}
 * </pre>
 *
 * A mapping with neither {@code default} nor {@code models} is the legacy flat form (the whole
 * mapping is the default). A task's threshold resolves most specific first:
 * {@code models.<prefix>.<task>} → {@code default.<task>} → the caller's fallback
 * ({@code --min-score}).
 */
public final class EvalThresholds {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Raw {@code default} and {@code models} values (a present-but-null entry stays null, as in Python). */
  private final JsonNode defaults;
  private final JsonNode models;

  private EvalThresholds(JsonNode defaults, JsonNode models) {
    this.defaults = defaults;
    this.models = models;
  }

  /**
   * A resolved threshold: the value as configured (a YAML/JSON number, or the float of
   * {@code --min-score}) and where it came from: {@code models.<prefix>}, {@code default} or
   * {@code min-score}.
   */
  public record Threshold(JsonNode value, String source) {
    public Threshold {
      Objects.requireNonNull(value, "value");
      Objects.requireNonNull(source, "source");
    }

    /** The {@code --min-score} fallback (a Python float). */
    public static Threshold minScore(double value) {
      return new Threshold(NODES.numberNode(value), "min-score");
    }

    /** The value as Python's {@code str()} prints it: {@code 0.9}, {@code 1} (int), {@code 1.0}. */
    public String display() {
      return PythonRepr.str(value);
    }

    /** The value as a number, or empty when the configuration holds something else. */
    public java.util.OptionalDouble numeric() {
      return PyValues.isNumber(value) ? java.util.OptionalDouble.of(PyValues.toDouble(value))
          : java.util.OptionalDouble.empty();
    }
  }

  /** Why a thresholds file could not be used; {@link #getMessage()} is the reference's text. */
  public static final class LoadException extends InfxException {
    private static final long serialVersionUID = 1L;

    LoadException(String message) {
      super(ErrorKind.THRESHOLDS, message);
    }
  }

  /**
   * The text of InferenceX's {@code utils/evals/thresholds.yaml} (snapshot of August 2026, the
   * one the conformance corpus uses): gsm8k 0.90, gpqa_diamond_cot_n_shot 0.30, swebench_lite
   * 0.50 by default, per-model gsm8k overrides (dsr1 0.91, glm5 0.94, …).
   */
  public static String referenceText() {
    try (var in = EvalThresholds.class.getResourceAsStream("thresholds.yaml")) {
      if (in == null) {
        throw new IllegalStateException("thresholds.yaml missing from the infx-results jar");
      }
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** No thresholds: every task falls back to the caller's minimum. */
  public static EvalThresholds none() {
    return new EvalThresholds(NODES.objectNode(), NODES.objectNode());
  }

  /** Thresholds from values: task → minimum, and model prefix → task → minimum. */
  public static EvalThresholds of(Map<String, Double> defaults, Map<String, Map<String, Double>> perModel) {
    ObjectNode d = NODES.objectNode();
    defaults.forEach(d::put);
    ObjectNode m = NODES.objectNode();
    perModel.forEach((prefix, tasks) -> {
      ObjectNode t = m.putObject(prefix);
      tasks.forEach(t::put);
    });
    return new EvalThresholds(d, m);
  }

  /**
   * Loads a YAML or JSON thresholds file as the reference's {@code load_config} does: the text read
   * as Python's {@code open().read()} (UTF-8, universal newlines), parsed with PyYAML's
   * {@code yaml.safe_load} ({@link PythonYaml}; JSON is YAML), so duplicate keys keep the last
   * value and only string keys can match a task or a model prefix.
   *
   * @param file the file to read
   * @param shownAs the path as the user gave it, for messages
   * @throws LoadException with the reference's reason (what its {@code main} prints after
   *     {@code could not load thresholds from <path>: }): the {@code OSError} text
   *     ({@code [Errno 2] No such file or directory: '…'}), the {@code UnicodeDecodeError} text,
   *     {@code invalid YAML: } and PyYAML's whole (multi-line) message, a {@code ValueError} the
   *     safe constructor raises ({@code invalid literal for int() with base 10: 'x'}), or
   *     {@code thresholds config must be a mapping}
   * @throws EvalInputException where PyYAML raises an error the reference does not catch (a
   *     {@code KeyError} for {@code !!bool maybe}, …): the reference stops with a traceback
   */
  public static EvalThresholds load(Path file, String shownAs) {
    String text;
    try {
      if (Files.isDirectory(file)) {
        throw new IOException("Is a directory");
      }
      text = PythonJsonDecoder.readText(file);
    } catch (IOException e) {
      throw new LoadException(PyValues.osError(e, shownAs));
    } catch (PythonJsonDecoder.EncodingError e) {
      throw new LoadException(e.getMessage());
    }
    Object root;
    try {
      root = PythonYaml.safeLoad(text);
    } catch (PythonYaml.LoadError e) {
      if (e.isYamlError()) {
        throw new LoadException("invalid YAML: " + e.pythonMessage());
      }
      if (e.pythonType().equals("ValueError")) {
        throw new LoadException(e.pythonMessage());
      }
      throw new EvalInputException(e.pythonType(), e.pythonMessage(), shownAs
          + ": PyYAML cannot construct a value of this thresholds file (the reference stops with "
          + e.pythonType() + ": " + e.pythonMessage() + ")");
    } catch (InfxException e) {
      throw new LoadException("invalid YAML: " + e.getMessage());
    }
    if (!(root instanceof Map<?, ?> map)) {
      throw new LoadException("thresholds config must be a mapping");
    }
    ObjectNode cfg = (ObjectNode) toJson(map, 0, new int[] {0});
    if (!cfg.has("default") && !cfg.has("models")) {
      return new EvalThresholds(cfg, NODES.objectNode());
    }
    return new EvalThresholds(cfg.has("default") ? cfg.get("default") : NODES.objectNode(),
        cfg.has("models") ? cfg.get("models") : NODES.objectNode());
  }

  /**
   * Whether {@code prefix} has a {@code models} entry.
   *
   * @throws EvalInputException when {@code models} is not a mapping (the reference crashes)
   */
  public boolean hasModel(String prefix) {
    return contains(models, prefix, "models");
  }

  /**
   * The threshold for {@code task}: {@code models.<prefix>.<task>}, else {@code default.<task>},
   * else {@code fallback}.
   *
   * @throws EvalInputException when {@code default}, {@code models} or a model entry is not a
   *     mapping (the reference crashes with a {@code TypeError}/{@code AttributeError})
   */
  public Threshold resolve(Optional<String> prefix, String task, Threshold fallback) {
    if (prefix.isPresent() && !prefix.get().isEmpty()) {
      if (!models.isObject()) {
        throw new EvalInputException("AttributeError", "'" + PythonNumbers.typeName(models)
            + "' object has no attribute 'get'", "thresholds: \"models\" must be a mapping, got "
            + PythonRepr.repr(models));
      }
      JsonNode entry = models.has(prefix.get()) ? models.get(prefix.get()) : NODES.objectNode();
      if (contains(entry, task, "models." + prefix.get())) {
        return new Threshold(entry.get(task), "models." + prefix.get());
      }
    }
    if (contains(defaults, task, "default")) {
      return new Threshold(defaults.get(task), "default");
    }
    return fallback;
  }

  private static boolean contains(JsonNode mapping, String key, String where) {
    if (mapping.isObject()) {
      return mapping.has(key);
    }
    throw new EvalInputException("TypeError", "argument of type '" + PythonNumbers.typeName(mapping)
        + "' is not iterable", "thresholds: \"" + where + "\" must be a mapping, got "
        + PythonRepr.repr(mapping));
  }

  /**
   * A {@code safe_load} value as JSON. Only string keys are kept: every lookup the reference makes
   * ({@code "default"}, {@code "models"}, a task, a model prefix) is by string, so a key such as
   * {@code 1} or {@code true} can never match and leaving it out changes nothing.
   */
  private static JsonNode toJson(Object value, int depth, int[] values) {
    // Aliases are shared objects: a recursive one never ends, an alias bomb expands exponentially.
    if (depth > TreeLimits.DEFAULT.maxDepth()) {
      throw new LoadException("invalid YAML: the document nests deeper than " + TreeLimits.DEFAULT.maxDepth()
          + " levels (a recursive alias?)");
    }
    if (++values[0] > TreeLimits.DEFAULT.maxNodes()) {
      throw new LoadException("invalid YAML: the document expands to more than " + TreeLimits.DEFAULT.maxNodes()
          + " values (an alias bomb?)");
    }
    if (value == null) {
      return NODES.nullNode();
    }
    if (value instanceof Map<?, ?> m) {
      ObjectNode o = NODES.objectNode();
      m.forEach((k, v) -> {
        if (k instanceof String key) {
          o.set(key, toJson(v, depth + 1, values));
        }
      });
      return o;
    }
    if (value instanceof Collection<?> c) {
      var a = NODES.arrayNode();
      c.forEach(item -> a.add(toJson(item, depth + 1, values)));
      return a;
    }
    if (value instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (value instanceof BigInteger i) {
      return NODES.numberNode(i);
    }
    if (value instanceof Double d) {
      return NODES.numberNode(d);
    }
    if (value instanceof PythonYaml.Timestamp ts) {
      return NODES.textNode(ts.text());
    }
    if (value instanceof PythonYaml.Binary b) {
      return NODES.textNode(b.base64());
    }
    return NODES.textNode(String.valueOf(value));
  }
}
