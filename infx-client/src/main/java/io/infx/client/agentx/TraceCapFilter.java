package io.infx.client.agentx;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The per-request context cap InferenceX applies when it builds a capped corpus (the "256k"
 * variants; spec {@code agentx.md} §2.3, conformance case 18):
 *
 * <ul>
 *   <li>every request (top-level or inside a subagent) with {@code in + out > cap} is dropped
 *       ({@code in + out == cap} is kept);
 *   <li>a subagent is dropped only when all its inner requests are; a partially filtered subagent
 *       gets {@code t} = its first surviving inner {@code t}, {@code duration_ms} =
 *       round((latest surviving {@code t + api_time} − that {@code t}) · 1000) and
 *       {@code total_tokens} = Σ(in + out) of the survivors;
 *   <li>if anything was dropped, every surviving timestamp is shifted by one constant so that the
 *       earliest survivor starts at 0 (recorded overlaps are preserved);
 *   <li>a trace with no drops is returned unchanged; a trace with no survivor is omitted.
 * </ul>
 *
 * <p>Works on the JSON object so that every other field (including ones infx does not model, such
 * as {@code totals}) passes through untouched.
 */
public final class TraceCapFilter {

  /** The cap of InferenceX's {@code *_256k} corpora: 256 000 tokens of input + output. */
  public static final long CAP_256K = 256_000;

  private TraceCapFilter() {}

  /**
   * Applies the cap to one trace object.
   *
   * @param trace a Weka trace object (not modified)
   * @param capTokens the largest {@code in + out} a request may have
   * @return the filtered copy, or empty when no request survives
   */
  public static Optional<ObjectNode> filter(ObjectNode trace, long capTokens) {
    JsonNode requests = trace.get("requests");
    if (requests == null || !requests.isArray()) {
      return Optional.of(trace.deepCopy());
    }
    Survivors s = filterEntries((ArrayNode) requests, capTokens);
    if (s.entries.isEmpty()) {
      return Optional.empty();
    }
    ObjectNode out = trace.deepCopy();
    if (!s.dropped) {
      return Optional.of(out);
    }
    double shift = earliest(s.entries, Double.POSITIVE_INFINITY);
    shift(s.entries, shift);
    out.set("requests", s.entries);
    return Optional.of(out);
  }

  private record Survivors(ArrayNode entries, boolean dropped) {}

  private static Survivors filterEntries(ArrayNode entries, long cap) {
    ArrayNode kept = JsonNodeFactory.instance.arrayNode();
    boolean dropped = false;
    for (JsonNode e : entries) {
      if (isSubagent(e)) {
        JsonNode inner = e.get("requests");
        if (inner == null || !inner.isArray()) {
          kept.add(e.deepCopy());
          continue;
        }
        Survivors s = filterEntries((ArrayNode) inner, cap);
        if (s.entries.isEmpty()) {
          dropped = true;
          continue;
        }
        ObjectNode copy = ((ObjectNode) e).deepCopy();
        copy.set("requests", s.entries);
        if (s.dropped) {
          dropped = true;
          double first = s.entries.get(0).path("t").asDouble();
          copy.put("t", first);
          copy.put("duration_ms", Math.round(Math.rint((latestEnd(s.entries, first) - first) * 1000.0)));
          copy.put("total_tokens", tokens(s.entries));
        }
        kept.add(copy);
      } else if (inPlusOut(e) > cap) {
        dropped = true;
      } else {
        kept.add(e.deepCopy());
      }
    }
    return new Survivors(kept, dropped);
  }

  private static boolean isSubagent(JsonNode e) {
    return "subagent".equals(e.path("type").asText(null));
  }

  private static long inPlusOut(JsonNode r) {
    return count(r, "in", "input_length") + count(r, "out", "output_length");
  }

  private static long count(JsonNode r, String name, String alias) {
    JsonNode v = r.get(name);
    if (v == null || v.isNull()) {
      v = r.get(alias);
    }
    return v == null || !v.isNumber() ? 0 : v.asLong();
  }

  private static double latestEnd(ArrayNode entries, double floor) {
    double end = floor;
    for (JsonNode e : entries) {
      if (isSubagent(e) && e.path("requests").isArray()) {
        end = latestEnd((ArrayNode) e.get("requests"), end);
      } else {
        end = Math.max(end, e.path("t").asDouble() + e.path("api_time").asDouble(0.0));
      }
    }
    return end;
  }

  private static long tokens(ArrayNode entries) {
    long total = 0;
    for (JsonNode e : entries) {
      total += isSubagent(e) && e.path("requests").isArray() ? tokens((ArrayNode) e.get("requests")) : inPlusOut(e);
    }
    return total;
  }

  private static double earliest(ArrayNode entries, double min) {
    for (JsonNode e : entries) {
      if (e.path("t").isNumber()) {
        min = Math.min(min, e.get("t").asDouble());
      }
      if (isSubagent(e) && e.path("requests").isArray()) {
        min = earliest((ArrayNode) e.get("requests"), min);
      }
    }
    return min;
  }

  private static void shift(ArrayNode entries, double by) {
    for (JsonNode e : entries) {
      if (e.path("t").isNumber()) {
        ((ObjectNode) e).put("t", e.get("t").asDouble() - by);
      }
      if (isSubagent(e) && e.path("requests").isArray()) {
        shift((ArrayNode) e.get("requests"), by);
      }
    }
  }
}
