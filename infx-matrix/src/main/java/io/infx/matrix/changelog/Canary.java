package io.infx.matrix.changelog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Canary selection (seed 003): the lowest-concurrency non-eval candidate among single-node
 * fixed-sequence {@code 1k1k} and {@code 8k1k} rows and single-node AgentX rows, falling back to
 * multi-node AgentX rows; it is removed from the remaining matrix so it runs exactly once, first.
 * When nothing qualifies there is no canary and fan-out proceeds without one.
 *
 * <p>Candidates are taken in bucket order ({@code 1k1k}, {@code 8k1k}, {@code agentic}); ties on
 * concurrency go to the first candidate, and the first equal row is the one removed, as the
 * reference workflow's {@code jq min_by}/{@code index} selection does. A multi-node row's
 * concurrency is the minimum of its {@code conc} list.
 */
public final class Canary {

  private static final List<String> SINGLE_NODE_FAMILIES = List.of("1k1k", "8k1k", "agentic");

  private Canary() {}

  /** The canary row of {@code plan}, if any qualifies. */
  public static Optional<ObjectNode> select(ChangelogPlan plan) {
    Optional<ObjectNode> best = lowest(candidates(plan.singleNode(), SINGLE_NODE_FAMILIES));
    if (best.isPresent()) {
      return best;
    }
    return lowest(candidates(plan.multiNode(), List.of("agentic")));
  }

  /**
   * {@code plan} with the canary selected: the row moves from its bucket to
   * {@link ChangelogPlan#canary()} (an empty list when none qualifies).
   */
  public static ChangelogPlan apply(ChangelogPlan plan) {
    Optional<ObjectNode> canary = select(plan);
    if (canary.isEmpty()) {
      return new ChangelogPlan(plan.singleNode(), plan.multiNode(), plan.evals(),
          plan.agenticEvals(), plan.multinodeEvals(), plan.multinodeAgenticEvals(),
          plan.metadata(), Optional.of(List.of()));
    }
    ObjectNode row = canary.get();
    return new ChangelogPlan(removeFirst(plan.singleNode(), row),
        removeFirst(plan.multiNode(), row), plan.evals(), plan.agenticEvals(),
        plan.multinodeEvals(), plan.multinodeAgenticEvals(), plan.metadata(),
        Optional.of(List.of(row)));
  }

  private static List<ObjectNode> candidates(Map<String, List<ObjectNode>> buckets,
      List<String> families) {
    List<ObjectNode> out = new ArrayList<>();
    for (String f : families) {
      for (ObjectNode row : buckets.getOrDefault(f, List.of())) {
        if (!isTrue(row.get("run-eval")) && !isTrue(row.get("eval-only"))) {
          out.add(row);
        }
      }
    }
    return out;
  }

  private static Optional<ObjectNode> lowest(List<ObjectNode> rows) {
    ObjectNode best = null;
    long bestConc = Long.MAX_VALUE;
    for (ObjectNode row : rows) {
      long c = conc(row.get("conc"));
      if (best == null || c < bestConc) {
        best = row;
        bestConc = c;
      }
    }
    return Optional.ofNullable(best);
  }

  private static long conc(JsonNode conc) {
    if (conc == null) {
      return Long.MAX_VALUE;
    }
    if (conc.isIntegralNumber()) {
      return conc.longValue();
    }
    long min = Long.MAX_VALUE;
    for (JsonNode v : conc) {
      min = Math.min(min, v.asLong(Long.MAX_VALUE));
    }
    return min;
  }

  private static boolean isTrue(JsonNode n) {
    return n != null && n.isBoolean() && n.booleanValue();
  }

  /** Removes the first row equal to {@code row}, only from the first bucket that holds one. */
  private static Map<String, List<ObjectNode>> removeFirst(Map<String, List<ObjectNode>> buckets,
      ObjectNode row) {
    Map<String, List<ObjectNode>> out = new LinkedHashMap<>();
    boolean removed = false;
    for (Map.Entry<String, List<ObjectNode>> e : buckets.entrySet()) {
      List<ObjectNode> rows = new ArrayList<>(e.getValue());
      if (!removed) {
        for (int i = 0; i < rows.size(); i++) {
          if (rows.get(i).equals(row)) {
            rows.remove(i);
            removed = true;
            break;
          }
        }
      }
      out.put(e.getKey(), rows);
    }
    return out;
  }
}
