package io.infx.matrix.changelog;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The planner's output (reference {@code ChangelogMatrixEntry}, spec §6.7): the throughput rows
 * bucketed by node kind and sequence family, the eval rows by kind, and the changelog metadata.
 * Rows are in planner form: schema field order, defaults written out, each throughput row with
 * its {@code recipe-fingerprint}.
 *
 * <p>Bucket maps keep their keys in order of first use ({@code 1k1k}, {@code 8k1k},
 * {@code <isl>_<osl>} or {@code agentic}). Rows are JSON objects; treat them as read-only.
 *
 * @param singleNode single-node throughput rows per family ({@code agentic} for AgentX rows)
 * @param multiNode multi-node throughput rows per family ({@code agentic} for AgentX rows)
 * @param evals single-node fixed-sequence eval rows
 * @param agenticEvals single-node AgentX eval rows
 * @param multinodeEvals multi-node fixed-sequence eval rows
 * @param multinodeAgenticEvals multi-node AgentX eval rows
 * @param metadata refs as given and the added entries
 * @param canary with {@code --canary}: the selected canary row (an empty list when none
 *     qualified); absent otherwise
 */
public record ChangelogPlan(
    Map<String, List<ObjectNode>> singleNode,
    Map<String, List<ObjectNode>> multiNode,
    List<ObjectNode> evals,
    List<ObjectNode> agenticEvals,
    List<ObjectNode> multinodeEvals,
    List<ObjectNode> multinodeAgenticEvals,
    Metadata metadata,
    Optional<List<ObjectNode>> canary) {

  /**
   * {@code changelog_metadata}.
   *
   * @param baseRef the base ref as passed
   * @param headRef the head ref as passed
   * @param entries the added entries, in file order
   */
  public record Metadata(String baseRef, String headRef, List<ChangelogEntry> entries) {
    public Metadata {
      Objects.requireNonNull(baseRef, "baseRef");
      Objects.requireNonNull(headRef, "headRef");
      entries = List.copyOf(entries);
    }

    /** JSON form: {@code {base_ref, head_ref, entries}}. */
    public ObjectNode toJson() {
      ObjectNode o = JsonNodeFactory.instance.objectNode();
      o.put("base_ref", baseRef);
      o.put("head_ref", headRef);
      ArrayNode arr = o.putArray("entries");
      entries.forEach(e -> arr.add(e.toJson()));
      return o;
    }
  }

  public ChangelogPlan {
    singleNode = freeze(singleNode);
    multiNode = freeze(multiNode);
    evals = List.copyOf(evals);
    agenticEvals = List.copyOf(agenticEvals);
    multinodeEvals = List.copyOf(multinodeEvals);
    multinodeAgenticEvals = List.copyOf(multinodeAgenticEvals);
    Objects.requireNonNull(metadata, "metadata");
    canary = canary.map(List::copyOf);
  }

  private static Map<String, List<ObjectNode>> freeze(Map<String, List<ObjectNode>> m) {
    Map<String, List<ObjectNode>> copy = new LinkedHashMap<>();
    m.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    return Collections.unmodifiableMap(copy);
  }

  /** A plan with no rows at all (metadata only), as retirement-only deltas produce. */
  public static ChangelogPlan metadataOnly(Metadata metadata) {
    return new ChangelogPlan(Map.of(), Map.of(), List.of(), List.of(), List.of(), List.of(),
        metadata, Optional.empty());
  }

  /** Every throughput row, bucket by bucket ({@code single_node} then {@code multi_node}). */
  public List<ObjectNode> throughputRows() {
    List<ObjectNode> all = new ArrayList<>();
    singleNode.values().forEach(all::addAll);
    multiNode.values().forEach(all::addAll);
    return all;
  }

  /** Every eval row, bucket by bucket. */
  public List<ObjectNode> evalRows() {
    List<ObjectNode> all = new ArrayList<>(evals);
    all.addAll(agenticEvals);
    all.addAll(multinodeEvals);
    all.addAll(multinodeAgenticEvals);
    return all;
  }

  /**
   * The JSON object the command prints: {@code single_node}, {@code multi_node}, {@code evals},
   * {@code agentic_evals}, {@code multinode_evals}, {@code multinode_agentic_evals},
   * {@code changelog_metadata}, then {@code canary} when selected.
   */
  public ObjectNode toJson() {
    JsonNodeFactory f = JsonNodeFactory.instance;
    ObjectNode o = f.objectNode();
    o.set("single_node", buckets(singleNode));
    o.set("multi_node", buckets(multiNode));
    o.set("evals", rows(evals));
    o.set("agentic_evals", rows(agenticEvals));
    o.set("multinode_evals", rows(multinodeEvals));
    o.set("multinode_agentic_evals", rows(multinodeAgenticEvals));
    o.set("changelog_metadata", metadata.toJson());
    canary.ifPresent(c -> o.set("canary", rows(c)));
    return o;
  }

  private static ObjectNode buckets(Map<String, List<ObjectNode>> m) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    m.forEach((k, v) -> o.set(k, rows(v)));
    return o;
  }

  private static ArrayNode rows(List<ObjectNode> rows) {
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    rows.forEach(r -> a.add(r.deepCopy()));
    return a;
  }
}
