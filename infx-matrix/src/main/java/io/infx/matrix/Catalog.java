package io.infx.matrix;

import io.infx.core.ErrorKind;
import io.infx.core.ImmutableViolation;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.bind.Bound;
import io.infx.core.bind.Constraints;
import io.infx.core.tree.MapNode;
import io.infx.core.tree.Node;
import io.infx.core.tree.ScalarKind;
import io.infx.core.tree.ScalarNode;
import io.infx.core.tree.Source;
import io.infx.core.tree.TreeLimits;
import io.infx.core.tree.Trees;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.MultiNodeMaster;
import io.infx.matrix.config.SingleNodeMaster;
import io.infx.matrix.internal.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The merged, validated master configs of one or more master files, in catalogue order (file order,
 * then key order within a file); this order drives row order.
 *
 * <p>Loading checks, in the reference's order: each file exists ({@code file} error) and holds a
 * mapping whose keys are strings without glob characters, no key repeats across files
 * ({@code config-load}, rules V2–V4); then every entry is bound and validated against the
 * single-node or multi-node schema chosen by its {@code multinode} flag ({@code config-validation},
 * V1, V5–V42). Every violation of a stage is reported at once, each with {@code file:line:column}.
 */
public final class Catalog {

  private final Map<String, MasterConfig> configs;

  private Catalog(Map<String, MasterConfig> configs) {
    this.configs = Collections.unmodifiableMap(configs);
  }

  /** Loads and validates master files, labelled as given. */
  public static Catalog load(Path... files) {
    List<Source> sources = new ArrayList<>();
    for (Path f : files) {
      sources.add(Source.file(f));
    }
    return load(sources);
  }

  /**
   * Loads and validates master configs from files or in-memory texts (e.g. another revision's
   * content), merged in the given order.
   *
   * @throws InfxException kind {@code file}: a file is missing or unreadable
   * @throws ValidationException kind {@code config-load} (file shape, keys, duplicates across files)
   *     or {@code config-validation} (schema and rules), listing every violation
   */
  public static Catalog load(List<Source> sources) {
    return load(sources, TreeLimits.DEFAULT);
  }

  /** As {@link #load(List)}, with explicit reader limits. */
  public static Catalog load(List<Source> sources, TreeLimits limits) {
    return load(sources, limits, List.of());
  }

  /**
   * As {@link #load(List)}, then every {@link ConfigRule} of {@code rules} on each config; their
   * violations are located like the built-in ones and reported with them.
   *
   * @throws ValidationException kind {@code config-validation} listing built-in and rule violations
   */
  public static Catalog load(List<Source> sources, List<? extends ConfigRule> rules) {
    return load(sources, TreeLimits.DEFAULT, rules);
  }

  /** As {@link #load(List, List)}, with explicit reader limits. */
  public static Catalog load(List<Source> sources, TreeLimits limits, List<? extends ConfigRule> rules) {
    java.util.Objects.requireNonNull(sources, "sources");
    java.util.Objects.requireNonNull(rules, "rules");
    Map<String, MapNode.Entry> merged = new LinkedHashMap<>();
    List<Violation> loadViolations = new ArrayList<>();
    for (Source source : sources) {
      if (!source.exists()) {
        throw new InfxException(ErrorKind.FILE, "Input file '" + source.label() + "' " + source.whyMissing() + ".");
      }
      Node root;
      try {
        root = Trees.readYaml(source, limits);
      } catch (ValidationException e) {
        throw new ValidationException(ErrorKind.CONFIG_LOAD, e.violations());
      }
      if (!(root instanceof MapNode map)) {
        loadViolations.add(Violation.builder()
            .ruleId("V2.file-shape")
            .location(root.location())
            .message("Config file '" + source.label() + "' must contain a dictionary")
            .actual(root.isNull() ? "an empty document" : "a " + root.typeName())
            .build());
        continue;
      }
      List<String> duplicates = new ArrayList<>();
      for (MapNode.Entry e : map.entries()) {
        ScalarNode key = e.keyNode();
        if (key.kind() != ScalarKind.STRING) {
          loadViolations.add(Violation.builder()
              .ruleId("V3.key-string")
              .location(key.location())
              .pointer(e.value().pointer())
              .message("Configuration key " + key.text() + " in '" + source.label() + "' must be a string")
              .build());
          continue;
        }
        String k = e.key();
        Optional<ImmutableViolation.Builder> badKey = keyViolation(k);
        if (badKey.isPresent()) {
          loadViolations.add(badKey.get().location(key.location()).pointer(e.value().pointer()).build());
          continue;
        }
        if (merged.containsKey(k)) {
          duplicates.add(k);
          continue;
        }
        merged.put(k, e);
      }
      if (!duplicates.isEmpty()) {
        loadViolations.add(Violation.builder()
            .ruleId("V4.duplicate-key")
            .location(map.location())
            .message("Duplicate configuration keys found in '" + source.label() + "': "
                + String.join(", ", new TreeSet<>(duplicates)))
            .build());
      }
    }
    if (!loadViolations.isEmpty()) {
      throw new ValidationException(ErrorKind.CONFIG_LOAD, loadViolations);
    }
    Map<String, MasterConfig> configs = new LinkedHashMap<>();
    List<Violation> violations = new ArrayList<>();
    for (Map.Entry<String, MapNode.Entry> e : merged.entrySet()) {
      Node value = e.getValue().value();
      Class<? extends MasterConfig> schema = SingleNodeMaster.class;
      if (value instanceof MapNode m && m.get("multinode")
          .filter(n -> n instanceof ScalarNode s && s.kind() == ScalarKind.BOOLEAN && Boolean.TRUE.equals(s.value()))
          .isPresent()) {
        schema = MultiNodeMaster.class;
      }
      Bound<? extends MasterConfig> bound = Schema.BINDER.bind(value, schema);
      violations.addAll(bound.violations());
      bound.value().ifPresent(c -> configs.put(e.getKey(), c));
      if (bound.value().isPresent()) {
        for (ConfigRule rule : rules) {
          for (Violation v : rule.check(e.getKey(), bound.value().get())) {
            violations.add(locate(e.getKey(), value, v));
          }
        }
      }
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(ErrorKind.CONFIG_VALIDATION, violations);
    }
    return new Catalog(configs);
  }

  /** A rule's violation with the config key prefixed to its pointer and, when absent, a location. */
  private static Violation locate(String key, Node config, Violation v) {
    io.infx.core.ImmutableViolation.Builder b = Violation.builder().from(v).pointer(io.infx.core.tree.Pointers.child("", key) + v.pointer());
    if (v.location().isEmpty()) {
      b.location(io.infx.core.tree.Pointers.resolveNearest(config, v.pointer()).location());
    }
    return b.build();
  }

  /**
   * The one home of the config-key rules, for loaded and in-code catalogues alike: {@code *} is
   * reserved for changelog patterns (V3, as the reference); {@code ?}, {@code [} and {@code ]} would
   * make {@code test-config} read the key as a pattern (Q-7, stricter than the reference). Any other
   * key is accepted, as the reference does (spaces, {@code !}, even the empty string).
   */
  static Optional<ImmutableViolation.Builder> keyViolation(String k) {
    if (k.indexOf('*') >= 0) {
      return Optional.of(Violation.builder()
          .ruleId("V3.key-wildcard")
          .message("Wildcard '*' is not allowed in master config keys: '" + k
              + "' (it is reserved for changelog patterns)"));
    }
    if (k.indexOf('?') >= 0 || k.indexOf('[') >= 0 || k.indexOf(']') >= 0) {
      return Optional.of(Violation.builder()
          .ruleId("Q7.key-glob")
          .message("Glob characters '?', '[' and ']' are not allowed in master config keys: '" + k
              + "' (test-config would read the key as a pattern)"));
    }
    return Optional.empty();
  }

  /**
   * A catalogue of configs built in code, in the map's order; validated like loaded ones.
   *
   * @throws ValidationException kind {@code config-validation} listing every violation
   */
  public static Catalog of(Map<String, ? extends MasterConfig> configs) {
    List<Violation> violations = new ArrayList<>();
    Map<String, MasterConfig> copy = new LinkedHashMap<>();
    for (Map.Entry<String, ? extends MasterConfig> e : configs.entrySet()) {
      String k = e.getKey();
      keyViolation(k).ifPresent(v -> violations.add(v.pointer(io.infx.core.tree.Pointers.child("", k)).build()));
      for (Violation v : Constraints.validateGraph(e.getValue())) {
        violations.add(Violation.builder().from(v).pointer(io.infx.core.tree.Pointers.child("", k) + v.pointer())
            .build());
      }
      copy.put(k, e.getValue());
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(ErrorKind.CONFIG_VALIDATION, violations);
    }
    return new Catalog(copy);
  }

  /** Key → config, in catalogue order. */
  public Map<String, MasterConfig> configs() {
    return configs;
  }

  /** Keys in catalogue order. */
  public List<String> keys() {
    return List.copyOf(configs.keySet());
  }

  public Optional<MasterConfig> get(String key) {
    return Optional.ofNullable(configs.get(key));
  }

  public int size() {
    return configs.size();
  }

  /** This catalogue followed by {@code other}'s configs; a key in both is an error. */
  public Catalog merge(Catalog other) {
    Map<String, MasterConfig> out = new LinkedHashMap<>(configs);
    List<String> dup = new ArrayList<>();
    for (Map.Entry<String, MasterConfig> e : other.configs.entrySet()) {
      if (out.putIfAbsent(e.getKey(), e.getValue()) != null) {
        dup.add(e.getKey());
      }
    }
    if (!dup.isEmpty()) {
      throw new ValidationException(ErrorKind.CONFIG_LOAD, List.of(Violation.of("V4.duplicate-key",
          "Duplicate configuration keys found: " + String.join(", ", new TreeSet<>(dup)))));
    }
    return new Catalog(out);
  }

  @Override
  public String toString() {
    return "Catalog" + configs.keySet();
  }
}
