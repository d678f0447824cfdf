package io.infx.matrix.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Jackson trees to the row's JSON-shaped Java values (Row, unmodifiable List, Integer, …). */
public final class JsonValues {

  private JsonValues() {}

  /**
   * The Java value of {@code n}: objects as {@link Row} (key order kept), arrays as unmodifiable
   * lists, integers as Integer when they fit in 32 bits (else Long or BigInteger, which the row
   * rules refuse), other numbers as Double, text, booleans, null.
   */
  public static Object toJava(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return null;
    }
    if (n.isObject()) {
      Row r = new Row();
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        var e = it.next();
        r.put(e.getKey(), toJava(e.getValue()));
      }
      return r;
    }
    if (n.isArray()) {
      List<Object> l = new ArrayList<>(n.size());
      n.forEach(x -> l.add(toJava(x)));
      return Collections.unmodifiableList(l);
    }
    if (n.isIntegralNumber()) {
      if (n.canConvertToInt()) {
        return n.intValue();
      }
      return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
    }
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    return n.asText();
  }
}
