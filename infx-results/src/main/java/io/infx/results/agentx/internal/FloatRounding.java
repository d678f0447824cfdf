package io.infx.results.agentx.internal;

import io.infx.core.python.PythonNumbers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The reference's final pass over the aggregate: every finite float rounded half-even to 5
 * decimals; a rounded float with |x| ≥ 1 and no fractional part becomes an integer, smaller ones
 * keep their float form ({@code 0.0}). Integers, strings, nulls and non-finite floats are kept.
 */
public final class FloatRounding {

  private FloatRounding() {}

  /** Rounds every float in {@code node} in place and returns it. */
  public static JsonNode roundFloats(JsonNode node) {
    if (node instanceof ObjectNode o) {
      Iterator<Map.Entry<String, JsonNode>> it = o.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode v = e.getValue();
        if (v.isFloatingPointNumber()) {
          e.setValue(round(v.doubleValue()));
        } else {
          roundFloats(v);
        }
      }
    } else if (node instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        JsonNode v = a.get(i);
        if (v.isFloatingPointNumber()) {
          a.set(i, round(v.doubleValue()));
        } else {
          roundFloats(v);
        }
      }
    }
    return node;
  }

  static JsonNode round(double x) {
    if (!Double.isFinite(x)) {
      return JsonNodeFactory.instance.numberNode(x);
    }
    double r = PythonNumbers.round(x, 5);
    if (Math.abs(r) >= 1 && r == Math.rint(r) && Math.abs(r) < 9.2e18) {
      return JsonNodeFactory.instance.numberNode((long) r);
    }
    return JsonNodeFactory.instance.numberNode(r);
  }
}
