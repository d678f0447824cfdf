package io.infx.matrix.runners;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.InfxStyle;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.tree.ListNode;
import io.infx.core.tree.MapNode;
import io.infx.core.tree.Node;
import io.infx.core.tree.ScalarKind;
import io.infx.core.tree.ScalarNode;
import io.infx.core.tree.Source;
import io.infx.core.tree.Trees;
import io.infx.matrix.internal.Schema;
import java.nio.file.Path;
import io.infx.core.bind.Required;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import io.infx.core.python.PythonRepr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.immutables.value.Value;

/**
 * The runner file ({@code runners.yaml}): scheduling labels (label → concrete runner names, in
 * inventory order) and the {@code clusters} records that {@code cluster:<id>} labels name.
 *
 * <p>Rule V46: every cluster has a {@code cluster:<id>} label and every such label a record; every
 * runner listed anywhere belongs to exactly one {@code cluster:} label; a Slurm cluster that lists
 * {@code partitions} allows its default partition and gives each of its runners exactly one
 * {@code partition:<name>} label.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class RunnerInventory implements SelfChecking {

  /** Prefix of labels that name one exact fleet (cluster). */
  public static final String CLUSTER_PREFIX = "cluster:";

  /** Label → runner names (inventory order, duplicates kept). */
  @Required
  public abstract Map<String, List<String>> labels();

  @Required
  public abstract Map<String, Cluster> clusters();

  /** Loads and validates a runner file, labelled as given. */
  public static RunnerInventory load(Path file) {
    return load(Source.file(file));
  }

  /**
   * Loads and validates a runner file (or in-memory text).
   *
   * @throws InfxException kind {@code file} when the file is missing or unreadable
   * @throws ValidationException kind {@code runner-validation} listing every violation (V43–V46)
   */
  public static RunnerInventory load(Source source) {
    if (!source.exists()) {
      throw new InfxException(ErrorKind.FILE, "Runner config file '" + source.label() + "' " + source.whyMissing() + ".");
    }
    Node root;
    try {
      root = Trees.readYaml(source);
    } catch (ValidationException e) {
      throw new ValidationException(ErrorKind.RUNNER_VALIDATION, e.violations());
    }
    List<Violation> pre = new ArrayList<>();
    Optional<Node> labels = root instanceof MapNode m ? m.get("labels") : Optional.empty();
    if (labels.isEmpty() || !(labels.get() instanceof MapNode labelMap)) {
      throw new ValidationException(ErrorKind.RUNNER_VALIDATION, List.of(Violation.builder()
          .ruleId("V43.labels")
          .location(labels.map(Node::location).orElse(root.location()))
          .pointer("/labels")
          .message("Runner config must define a labels mapping")
          .build()));
    }
    for (MapNode.Entry e : labelMap.entries()) {
      Node v = e.value();
      String rule = "V44.label-list";
      if (!(v instanceof ListNode list)) {
        pre.add(Violation.builder().ruleId(rule).location(v.location()).pointer(v.pointer())
            .message("Runner config entry '" + e.key() + "' must be a list, got " + pythonType(v)).build());
      } else if (list.items().stream().anyMatch(i -> !(i instanceof ScalarNode s && s.kind() == ScalarKind.STRING))) {
        pre.add(Violation.builder().ruleId(rule).location(v.location()).pointer(v.pointer())
            .message("Runner config entry '" + e.key() + "' must contain only strings").build());
      } else if (list.size() == 0) {
        pre.add(Violation.builder().ruleId(rule).location(v.location()).pointer(v.pointer())
            .message("Runner config entry '" + e.key() + "' cannot be an empty list").build());
      }
    }
    if (!pre.isEmpty()) {
      throw new ValidationException(ErrorKind.RUNNER_VALIDATION, pre);
    }
    return Schema.BINDER.bind(root, RunnerInventory.class).orThrow(ErrorKind.RUNNER_VALIDATION);
  }

  private static String pythonType(Node n) {
    if (n instanceof MapNode) {
      return "dict";
    }
    if (n instanceof ListNode) {
      return "list";
    }
    return switch (((ScalarNode) n).kind()) {
      case STRING -> "str";
      case INTEGER -> "int";
      case FLOAT -> "float";
      case BOOLEAN -> "bool";
      case NULL -> "NoneType";
      case TIMESTAMP -> "date";
    };
  }

  /** The runner names of {@code label}; empty for an unknown label. */
  public List<String> runnersOf(String label) {
    return labels().getOrDefault(label, List.of());
  }

  /** The labels listing {@code runner}, in file order (e.g. its {@code cluster:} and {@code partition:} labels). */
  public List<String> labelsOf(String runner) {
    return labels().entrySet().stream().filter(e -> e.getValue().contains(runner)).map(Map.Entry::getKey).toList();
  }

  /** The cluster record a {@code cluster:<id>} label names. */
  public Optional<Cluster> clusterOf(String label) {
    if (!label.startsWith(CLUSTER_PREFIX)) {
      return Optional.empty();
    }
    return Optional.ofNullable(clusters().get(label.substring(CLUSTER_PREFIX.length())));
  }

  @Override
  public void check(Checks checks) {
    Map<String, List<String>> clusterLabels = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : labels().entrySet()) {
      if (e.getKey().startsWith(CLUSTER_PREFIX)) {
        clusterLabels.put(e.getKey().substring(CLUSTER_PREFIX.length()), e.getValue());
      }
    }
    Set<String> unlabeled = new TreeSet<>(clusters().keySet());
    unlabeled.removeAll(clusterLabels.keySet());
    if (!unlabeled.isEmpty()) {
      checks.fail("V46.cluster-labels", "clusters", "clusters without a cluster:<id> label: " + PythonRepr.repr(unlabeled));
      return;
    }
    Set<String> undefined = new TreeSet<>(clusterLabels.keySet());
    undefined.removeAll(clusters().keySet());
    if (!undefined.isEmpty()) {
      checks.fail("V46.cluster-labels", "labels",
          "cluster labels without a clusters entry: " + PythonRepr.repr(undefined));
      return;
    }
    Map<String, List<String>> owners = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : clusterLabels.entrySet()) {
      for (String runner : e.getValue()) {
        owners.computeIfAbsent(runner, k -> new ArrayList<>()).add(e.getKey());
      }
    }
    Map<String, List<String>> shared = new LinkedHashMap<>();
    owners.forEach((runner, ids) -> {
      if (ids.size() > 1) {
        shared.put(runner, ids);
      }
    });
    if (!shared.isEmpty()) {
      checks.fail("V46.runner-cluster", "labels", "runners listed under several clusters: " + PythonRepr.repr(shared));
      return;
    }
    Set<String> orphans = new TreeSet<>();
    for (List<String> runners : labels().values()) {
      for (String r : runners) {
        if (!owners.containsKey(r)) {
          orphans.add(r);
        }
      }
    }
    if (!orphans.isEmpty()) {
      checks.fail("V46.runner-cluster", "labels", "runners without a cluster:<id> label: " + PythonRepr.repr(orphans));
      return;
    }
    for (Map.Entry<String, Cluster> e : clusters().entrySet()) {
      Optional<SlurmSettings> slurm = e.getValue().slurm();
      if (slurm.isEmpty() || slurm.get().partitions().isEmpty()) {
        continue;
      }
      List<String> allowed = slurm.get().partitions();
      if (!allowed.contains(slurm.get().partition())) {
        checks.fail("V46.partition", "clusters/" + e.getKey() + "/slurm/partition",
            "cluster " + PythonRepr.repr(e.getKey()) + " default partition is not allowed");
        return;
      }
      for (String runner : clusterLabels.get(e.getKey())) {
        List<String> matches = new ArrayList<>();
        for (Map.Entry<String, List<String>> l : labels().entrySet()) {
          if (l.getKey().startsWith("partition:") && l.getValue().contains(runner)) {
            matches.add(l.getKey().substring("partition:".length()));
          }
        }
        if (matches.size() != 1 || !allowed.contains(matches.get(0))) {
          checks.fail("V46.partition", "labels", "runner " + PythonRepr.repr(runner)
              + " needs exactly one allowed partition label; found " + PythonRepr.repr(matches));
          return;
        }
      }
    }
  }

  /** The clusters sorted by id (for stable listings). */
  public Map<String, Cluster> clustersById() {
    return new TreeMap<>(clusters());
  }
}
