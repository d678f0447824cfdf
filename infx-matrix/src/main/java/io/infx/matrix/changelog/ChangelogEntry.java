package io.infx.matrix.changelog;

import io.infx.matrix.ScenarioType;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * One validated {@code perf-changelog.yaml} entry (reference {@code ChangelogEntry}; spec §6.1,
 * rules V62–V64). Build it with {@link ChangelogEntries#parse} from YAML, or directly for tests
 * and tools.
 *
 * @param configKeys exact master-config keys or {@code *} patterns (at least one)
 * @param description human notes (at least one)
 * @param prLink the PR URL, or the {@code XXX} placeholder on a PR
 * @param evalsOnly run this entry's eval subset only, no throughput
 * @param allEvals run every eligible eval for these configs, no throughput
 * @param noEvals throughput only
 * @param appendOnly run only points added relative to the base revision
 * @param evalMinPrefillEp drop multi-node eval rows whose {@code prefill.ep} is below this
 * @param scenarioType restrict the entry to these scenarios; empty means both
 * @param retired seed 003's retirement marker; only accepted with the planner's
 *     {@code --allow-retired} option
 */
public record ChangelogEntry(
    List<String> configKeys,
    List<String> description,
    String prLink,
    boolean evalsOnly,
    boolean allEvals,
    boolean noEvals,
    boolean appendOnly,
    OptionalInt evalMinPrefillEp,
    Optional<List<ScenarioType>> scenarioType,
    boolean retired) {

  public ChangelogEntry {
    configKeys = List.copyOf(configKeys);
    description = List.copyOf(description);
    Objects.requireNonNull(prLink, "prLink");
    Objects.requireNonNull(evalMinPrefillEp, "evalMinPrefillEp");
    scenarioType = scenarioType.map(List::copyOf);
    if (configKeys.isEmpty() || description.isEmpty()) {
      throw new IllegalArgumentException("config-keys and description need at least one item");
    }
  }

  /** A plain entry: these keys, one description line, a PR link, every flag at its default. */
  public static ChangelogEntry of(List<String> configKeys, String description, String prLink) {
    return new ChangelogEntry(configKeys, List.of(description), prLink, false, false, false, false,
        OptionalInt.empty(), Optional.empty(), false);
  }

  /** The scenarios this entry covers: its {@code scenario-type}, or both. */
  public Set<ScenarioType> scenarios() {
    return scenarioType.map(l -> l.isEmpty() ? EnumSet.noneOf(ScenarioType.class)
        : EnumSet.copyOf(l)).orElse(EnumSet.allOf(ScenarioType.class));
  }

  /**
   * The entry as the planner's {@code changelog_metadata} shows it: schema order, defaults
   * written out ({@code evals-only}, {@code all-evals}, {@code no-evals}, {@code append-only}),
   * absent optional fields omitted; {@code retired} appears only when set.
   */
  public ObjectNode toJson() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    configKeys.forEach(o.putArray("config-keys")::add);
    description.forEach(o.putArray("description")::add);
    o.put("pr-link", prLink);
    o.put("evals-only", evalsOnly);
    o.put("all-evals", allEvals);
    o.put("no-evals", noEvals);
    o.put("append-only", appendOnly);
    evalMinPrefillEp.ifPresent(v -> o.put("eval-min-prefill-ep", v));
    scenarioType.ifPresent(l -> {
      var arr = o.putArray("scenario-type");
      l.forEach(t -> arr.add(t.wire()));
    });
    if (retired) {
      o.put("retired", true);
    }
    return o;
  }
}
