package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.python.PythonRepr;

/**
 * Reading loosely typed JSON values the way the reference aggregator (Python) reads them:
 * truthiness, lenient numbers, {@code str()} of a value.
 */
public final class JsonValues {

  private JsonValues() {}

  /** Python truthiness: null, false, 0, "", {} and [] are false; everything else true. */
  public static boolean truthy(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return false;
    }
    return switch (n.getNodeType()) {
      case BOOLEAN -> n.booleanValue();
      case NUMBER -> n.isIntegralNumber() ? n.bigIntegerValue().signum() != 0 : n.doubleValue() != 0.0;
      case STRING -> !n.textValue().isEmpty();
      case OBJECT, ARRAY -> n.size() > 0;
      default -> true;
    };
  }

  /**
   * A finite number from a JSON number or a numeric string; {@code null} for anything else
   * (booleans, null, objects, NaN, infinities).
   */
  public static Double toFloat(JsonNode n) {
    if (n == null) {
      return null;
    }
    double v;
    if (n.isNumber()) {
      v = n.doubleValue();
    } else if (n.isTextual()) {
      try {
        v = Double.parseDouble(n.textValue().strip());
      } catch (NumberFormatException e) {
        return null;
      }
    } else {
      return null;
    }
    return Double.isFinite(v) ? v : null;
  }

  /** An integer (floats truncated toward zero, as Python's {@code int()}); {@code null} if none. */
  public static Long toInt(JsonNode n) {
    if (n == null) {
      return null;
    }
    if (n.isIntegralNumber() && n.canConvertToLong()) {
      return n.longValue();
    }
    if (n.isTextual()) {
      try {
        return Long.parseLong(n.textValue().strip());
      } catch (NumberFormatException e) {
        // fall through to the float reading below
      }
    }
    Double f = toFloat(n);
    return f == null ? null : (long) f.doubleValue();
  }

  /** The object member {@code key} of {@code n}, or {@code null} when {@code n} is no object. */
  public static JsonNode member(JsonNode n, String key) {
    return n != null && n.isObject() ? n.get(key) : null;
  }

  /** A metric value stored either as {@code {"value": x}} or as a bare {@code x}. */
  public static JsonNode metricValue(JsonNode metric) {
    return metric != null && metric.isObject() ? metric.get("value") : metric;
  }

  /** Python's {@code str()} of a JSON value (used for error categories and label values). */
  public static String pyStr(JsonNode n) {
    return PythonRepr.str(n);
  }
}
