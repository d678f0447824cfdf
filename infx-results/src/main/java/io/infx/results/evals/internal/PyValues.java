package io.infx.results.evals.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.python.PythonJson;
import io.infx.core.python.PythonRepr;
import io.infx.core.python.PythonNumbers;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Iterator;
import java.util.Map;

/**
 * Python semantics for parsed JSON values, as the reference eval scripts apply them: {@code str()},
 * truthiness, {@code ==}, ordering inside sort-key tuples, and the text of an {@code OSError}.
 */
public final class PyValues {

  private PyValues() {}

  /** Python truthiness: None, False, 0, 0.0, "" and empty containers are false. */
  public static boolean truthy(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return false;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    if (v.isNumber()) {
      return v.isIntegralNumber() ? v.bigIntegerValue().signum() != 0 : v.doubleValue() != 0.0;
    }
    if (v.isTextual()) {
      return !v.textValue().isEmpty();
    }
    return v.size() > 0;
  }

  /** Whether {@code v} is a Python {@code int} or {@code float} (bool included, as isinstance does). */
  public static boolean isNumber(JsonNode v) {
    return v != null && (v.isNumber() || v.isBoolean());
  }

  /** The numeric value of an int/float/bool JSON value. */
  public static double toDouble(JsonNode v) {
    return v.isBoolean() ? (v.booleanValue() ? 1 : 0) : v.doubleValue();
  }

  /** Python {@code a == b} for JSON values (1 == 1.0 == True; containers element-wise). */
  public static boolean equal(JsonNode a, JsonNode b) {
    boolean aNull = a == null || a.isNull();
    boolean bNull = b == null || b.isNull();
    if (aNull || bNull) {
      return aNull && bNull;
    }
    if (isNumber(a) && isNumber(b)) {
      if ((a.isIntegralNumber() || a.isBoolean()) && (b.isIntegralNumber() || b.isBoolean())) {
        return integer(a).equals(integer(b));
      }
      return toDouble(a) == toDouble(b);
    }
    if (a.isTextual() && b.isTextual()) {
      return a.textValue().equals(b.textValue());
    }
    if (a.isArray() && b.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!equal(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject() && b.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      Iterator<Map.Entry<String, JsonNode>> it = a.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!b.has(e.getKey()) || !equal(e.getValue(), b.get(e.getKey()))) {
          return false;
        }
      }
      return true;
    }
    return false;
  }

  private static java.math.BigInteger integer(JsonNode v) {
    return v.isBoolean() ? java.math.BigInteger.valueOf(v.booleanValue() ? 1 : 0) : v.bigIntegerValue();
  }

  /**
   * Python's {@code <} ordering for the scalar values that appear in sort keys: numbers (bool
   * included) numerically, strings by code point.
   *
   * @throws io.infx.results.evals.EvalInputException ({@code TypeError}) for values Python cannot order against each other
   */
  public static int compare(JsonNode a, JsonNode b) {
    if (isNumber(a) && isNumber(b)) {
      if ((a.isIntegralNumber() || a.isBoolean()) && (b.isIntegralNumber() || b.isBoolean())) {
        return integer(a).compareTo(integer(b));
      }
      return Double.compare(toDouble(a), toDouble(b));
    }
    if (a.isTextual() && b.isTextual()) {
      return PythonJson.CODE_POINT_ORDER.compare(a.textValue(), b.textValue());
    }
    throw new io.infx.results.evals.EvalInputException("TypeError", "'<' not supported between instances of '"
        + PythonNumbers.typeName(a) + "' and '" + PythonNumbers.typeName(b) + "'",
        "cannot order " + PythonRepr.repr(a) + " against " + PythonRepr.repr(b) + " in the table sort key");
  }

  /**
   * The text of the {@code OSError} Python raises for {@code open(path)}, e.g.
   * {@code [Errno 2] No such file or directory: 'meta_env.json'}.
   */
  public static String osError(IOException e, String pathAsGiven) {
    String quoted = PythonRepr.repr(pathAsGiven);
    if (e instanceof NoSuchFileException) {
      return "[Errno 2] No such file or directory: " + quoted;
    }
    if (e instanceof AccessDeniedException) {
      return "[Errno 13] Permission denied: " + quoted;
    }
    if (e instanceof NotDirectoryException) {
      return "[Errno 20] Not a directory: " + quoted;
    }
    if (String.valueOf(e.getMessage()).contains("Is a directory")
        || e instanceof FileSystemException fse && "Is a directory".equals(fse.getReason())) {
      return "[Errno 21] Is a directory: " + quoted;
    }
    String reason = e instanceof FileSystemException fse && fse.getReason() != null
        ? fse.getReason() : String.valueOf(e.getMessage());
    return "[Errno 5] " + reason + ": " + quoted;
  }
}
