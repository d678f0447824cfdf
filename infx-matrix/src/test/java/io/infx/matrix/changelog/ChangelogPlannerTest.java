package io.infx.matrix.changelog;

import io.infx.matrix.ScenarioType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.matrix.changelog.ChangelogPlanner.Options;
import io.infx.matrix.EvalMode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChangelogPlannerTest {

  static final String CATALOGUE = """
      sn-a:
        image: img:1
        scenarios:
          fixed-seq-len: [{tp: 8, conc: [4, 8, 16]}, {tp: 4, conc: [8]}]
          agentic-coding: [{tp: 4, conc: [2, 32]}]
      sn-b:
        scenarios:
          fixed-seq-len: [{tp: 8, conc: [64]}, {tp: 8, isl: 1024, conc: [4]}]
      mn-a:
        multinode: true
        scenarios:
          fixed-seq-len: [{tp: 4, ep: 8, conc: [4, 64]}, {tp: 4, ep: 2, conc: [128, 8]}]
          agentic-coding: [{tp: 8, conc: [8, 32]}]
      """;

  static Revision revision(String name, String masters) {
    return new Revision(List.of(new ConfigText(name, masters)),
        new ConfigText("configs/runners.yaml", "labels: {}\n"));
  }

  final FakeBackend backend = new FakeBackend();
  final ChangelogPlanner planner = ChangelogPlanner.using(backend);
  final Revision head = revision("head", CATALOGUE);

  static ChangelogEntry entry(String... keys) {
    return ChangelogEntry.of(List.of(keys), "d", "XXX");
  }

  static ChangelogEntry with(ChangelogEntry e, boolean evalsOnly, boolean allEvals,
      boolean noEvals, boolean appendOnly, OptionalInt minEp, List<ScenarioType> scenarios) {
    return new ChangelogEntry(e.configKeys(), e.description(), e.prLink(), evalsOnly, allEvals,
        noEvals, appendOnly, minEp, Optional.ofNullable(scenarios), false);
  }

  ChangelogPlan plan(Options options, ChangelogEntry... entries) {
    return planner.plan(List.of(entries), "base", "head", head,
        () -> { throw new AssertionError("base revision read"); }, options);
  }

  static List<String> keys(JsonNode o) {
    List<String> out = new ArrayList<>();
    o.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void bucketsRowsAndWritesThemInSchemaOrder() {
    ChangelogPlan p = plan(Options.defaults(), entry("sn-*", "mn-a"));
    assertThat(p.singleNode().keySet()).containsExactly("8k1k", "agentic", "1k1k");
    assertThat(p.singleNode().get("8k1k")).extracting(r -> r.get("conc").intValue())
        .containsExactly(4, 8, 16, 8, 64);
    assertThat(p.multiNode().keySet()).containsExactly("8k1k", "agentic");
    ObjectNode sn = p.singleNode().get("8k1k").get(0);
    assertThat(keys(sn)).containsExactly("image", "model", "model-prefix", "precision",
        "framework", "spec-decoding", "runner", "isl", "osl", "require-power", "tp", "pp",
        "dcp-size", "pcp-size", "ep", "dp-attn", "conc", "max-model-len", "exp-name", "disagg",
        "run-eval", "eval-only", "recipe-fingerprint");
    ObjectNode mn = p.multiNode().get("8k1k").get(0);
    assertThat(keys(mn)).startsWith("image", "model").contains("node-count", "eval-all-concs")
        .endsWith("kv-p2p-transfer", "recipe-fingerprint");
    assertThat(keys(mn.get("prefill"))).containsExactly("num-worker", "tp", "pp", "dcp-size",
        "pcp-size", "ep", "dp-attn", "additional-settings");
    ObjectNode agentic = p.singleNode().get("agentic").get(0);
    assertThat(keys(agentic)).doesNotContain("run-eval", "eval-only", "isl");
    // one recipe, several concurrencies: one fingerprint
    assertThat(p.singleNode().get("8k1k").get(0).get("recipe-fingerprint"))
        .isEqualTo(p.singleNode().get("8k1k").get(2).get("recipe-fingerprint"))
        .isNotEqualTo(p.singleNode().get("8k1k").get(3).get("recipe-fingerprint"));
    assertThat(p.evals()).isNotEmpty().allSatisfy(r -> {
      assertThat(r.has("recipe-fingerprint")).isFalse();
      assertThat(r.get("eval-only").booleanValue()).isTrue();
    });
    assertThat(p.agenticEvals()).hasSize(1);
    assertThat(p.multinodeEvals()).singleElement()
        .satisfies(r -> assertThat(r.get("eval-conc").intValue()).isEqualTo(128));
    assertThat(p.multinodeAgenticEvals()).hasSize(1);
    JsonNode json = p.toJson();
    assertThat(keys(json)).containsExactly("single_node", "multi_node", "evals", "agentic_evals",
        "multinode_evals", "multinode_agentic_evals", "changelog_metadata");
    assertThat(json.at("/changelog_metadata/entries/0/config-keys/0").asText()).isEqualTo("sn-*");
  }

  /** Spec §6.4 example: all-evals entries are processed first; claims are per scenario. */
  @Test
  void allEvalsEntriesGoFirstAndClaimsArePerConfigAndScenario() {
    ChangelogEntry a = with(entry("sn-a"), false, false, false, false, OptionalInt.empty(),
        List.of(ScenarioType.FIXED_SEQ_LEN));
    ChangelogEntry b = with(entry("sn-a", "mn-a"), false, true, false, false,
        OptionalInt.empty(), null);
    plan(Options.defaults(), a, b);
    assertThat(backend.calls).extracting(FakeBackend.Call::keys, FakeBackend.Call::mode,
        FakeBackend.Call::scenarios).containsExactly(
        org.assertj.core.groups.Tuple.tuple(List.of("sn-a", "mn-a"), EvalMode.ALL,
            EnumSet.allOf(ScenarioType.class)),
        org.assertj.core.groups.Tuple.tuple(List.of("sn-a"), EvalMode.NONE,
            EnumSet.of(ScenarioType.FIXED_SEQ_LEN)));
  }

  @Test
  void claimsGroupConfigsByTheirNewlyClaimedScenarios() {
    ChangelogEntry first = with(entry("sn-a"), false, false, true, false, OptionalInt.empty(),
        List.of(ScenarioType.AGENTIC_CODING));
    plan(Options.defaults(), first, with(entry("sn-a", "sn-b"), false, false, true, false,
        OptionalInt.empty(), null));
    assertThat(backend.calls).extracting(FakeBackend.Call::keys, FakeBackend.Call::scenarios)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(List.of("sn-a"), EnumSet.of(ScenarioType.AGENTIC_CODING)),
            org.assertj.core.groups.Tuple.tuple(List.of("sn-a"), EnumSet.of(ScenarioType.FIXED_SEQ_LEN)),
            org.assertj.core.groups.Tuple.tuple(List.of("sn-b"), EnumSet.allOf(ScenarioType.class)));
  }

  @Test
  void evalsOnlySuppressesThroughputAndAllEvalsExpandsEvals() {
    ChangelogPlan p = plan(new Options(false, true, true, false), entry("sn-a"));
    assertThat(backend.calls).extracting(FakeBackend.Call::mode).containsExactly(EvalMode.ALL);
    assertThat(p.throughputRows()).isEmpty();
    // every fixed row is an eval row; the repeated conc-8 point is an app-identity duplicate
    assertThat(p.evals()).extracting(r -> r.get("conc").intValue()).containsExactly(4, 8, 16);
  }

  @Test
  void evalMinPrefillEpDropsNarrowMultiNodeEvals() {
    ChangelogPlan p = plan(Options.defaults(), with(entry("mn-a"), false, true, false, false,
        OptionalInt.of(4), null));
    assertThat(p.multinodeEvals()).extracting(r -> r.at("/prefill/ep").intValue())
        .containsExactly(8);
  }

  @Test
  void trimRunsOnThroughputOnlyBeforeFingerprints() {
    ChangelogPlan full = ChangelogPlanner.using(new FakeBackend()).plan(List.of(entry("sn-a")),
        "b", "h", head, () -> null, Options.defaults());
    ChangelogPlan p = plan(new Options(true, false, false, false), entry("sn-a"));
    assertThat(backend.trims).isEqualTo(1);
    assertThat(p.singleNode().get("8k1k")).extracting(r -> r.get("conc").intValue())
        .containsExactly(4, 8);
    assertThat(p.singleNode().get("8k1k").get(0).get("recipe-fingerprint"))
        .isEqualTo(full.singleNode().get("8k1k").get(0).get("recipe-fingerprint"));
    assertThat(p.evals()).isEqualTo(full.evals());
  }

  @Test
  void evalRowsAreDeduplicatedAcrossEntries() {
    ChangelogPlan p = plan(Options.defaults(), entry("sn-a"), with(entry("sn-a"), false, true,
        false, false, OptionalInt.empty(), null));
    assertThat(backend.dedupes).isEqualTo(1);
    assertThat(p.evals()).extracting(r -> r.get("conc").intValue()).doesNotHaveDuplicates();
  }

  @Test
  void noEvalsEntriesRejectEvalModifiers() {
    ChangelogEntry noEvals = with(entry("sn-a"), false, false, true, false, OptionalInt.empty(),
        null);
    assertThatThrownBy(() -> plan(new Options(false, true, false, false), noEvals))
        .hasMessageContaining("no-evals entries cannot use all-evals or evals-only modifiers");
    ChangelogPlan p = plan(Options.defaults(), noEvals);
    assertThat(p.evalRows()).isEmpty();
    assertThat(backend.calls).extracting(FakeBackend.Call::mode).containsOnly(EvalMode.NONE);
  }

  @Test
  void appendOnlyMayNotMixOrTakeModifiers() {
    ChangelogEntry ao = with(entry("sn-a"), false, false, false, true, OptionalInt.empty(), null);
    assertThatThrownBy(() -> plan(Options.defaults(), ao, entry("sn-b")))
        .hasMessageContaining(
            "append-only entries cannot share a sweep with regular changelog entries");
    assertThatThrownBy(() -> plan(new Options(false, false, true, false), ao))
        .hasMessageContaining("append-only sweeps cannot use all-evals or evals-only modifiers");
  }

  @Test
  void keysResolveExactlyOrByStarPatterns() {
    List<String> cat = List.of("dsr1-fp8-h200-sglang", "dsr1-fp8-h200-trt", "dsr1-fp4-b200-trt");
    assertThat(ChangelogPlanner.resolveKeys(List.of("dsr1-*-h200-*", "dsr1-fp8-h200-trt"), cat,
        "in master configs")).containsExactly("dsr1-fp8-h200-sglang", "dsr1-fp8-h200-trt");
    assertThatThrownBy(() -> ChangelogPlanner.resolveKeys(List.of("dsr1-fp8-h200-sglan?"), cat,
        "in master configs"))
        .hasMessageContaining("Config key 'dsr1-fp8-h200-sglan?' not found in master configs.");
    assertThatThrownBy(() -> ChangelogPlanner.resolveKeys(List.of("zz*"), cat, "in master configs"))
        .hasMessageContaining("No config keys matched the wildcard pattern 'zz*' in master configs.");
    assertThat(ChangelogPlanner.resolveKeys(List.of("*.5-*"), List.of("q3.5-a", "q305-a"), "x"))
        .containsExactly("q3.5-a");
  }

  @Test
  void invalidOutputRowsFailTheWholePlan() {
    MatrixBackend broken = new FakeBackend() {
      @Override
      public List<ObjectNode> expand(Catalogue c, Runners r, List<String> k, Set<ScenarioType> s,
          EvalMode m) {
        List<ObjectNode> rows = super.expand(c, r, k, s, m);
        rows.get(0).put("surprise", 1);
        return rows;
      }
    };
    assertThatThrownBy(() -> ChangelogPlanner.using(broken).plan(List.of(entry("sn-b")), "b", "h",
        head, () -> null, Options.defaults()))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("[changelog.output-row]")
        .hasMessageContaining("surprise: Extra inputs are not permitted");
  }

  @Test
  void retiredEntriesVerifyRemovalAndPlanNothing() {
    ChangelogEntry retire = new ChangelogEntry(List.of("gone-*"), List.of("d"), "XXX", false,
        false, false, false, OptionalInt.empty(), Optional.empty(), true);
    Revision base = revision("base", CATALOGUE + "gone-x:\n  scenarios: {}\n");
    Options allow = new Options(false, false, false, true);
    ChangelogPlan p = planner.plan(List.of(retire), "b", "h", head, () -> base, allow);
    assertThat(p.throughputRows()).isEmpty();
    assertThat(p.evalRows()).isEmpty();
    assertThat(p.metadata().entries()).containsExactly(retire);
    assertThat(backend.calls).isEmpty();
    assertThatThrownBy(() -> planner.plan(List.of(retire), "b", "h", base, () -> base, allow))
        .hasMessageContaining("still there: [gone-x]");
    assertThatThrownBy(() -> planner.plan(List.of(retire, entry("sn-a")), "b", "h", head,
        () -> base, allow)).hasMessageContaining("cannot share a change");
    assertThatThrownBy(() -> planner.plan(List.of(retire), "b", "h", head, () -> head, allow))
        .hasMessageContaining("No config keys matched the wildcard pattern 'gone-*' in the base");
    assertThatThrownBy(() -> planner.plan(List.of(retire), "b", "h", head, () -> base,
        Options.defaults())).hasMessageContaining("Extra inputs are not permitted");
  }

  @Test
  void emptyEntryListIsAnError() {
    assertThatThrownBy(() -> plan(Options.defaults()))
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("No valid YAML entries found in the changelog additions.");
  }

  /** Property: planning the same head twice gives the identical object. */
  @Test
  void planningTheSameHeadTwiceIsIdentical() {
    List<String> pool = List.of("sn-a", "sn-b", "mn-a", "sn-*", "*-a");
    qt().withExamples(150).forAll(
        lists().of(integers().between(0, pool.size() - 1)).ofSizeBetween(1, 4),
        integers().between(0, 63), booleans().all(), booleans().all())
        .checkAssert((picks, flags, trim, allEvals) -> {
          List<ChangelogEntry> entries = new ArrayList<>();
          Iterator<Integer> it = picks.iterator();
          int i = 0;
          while (it.hasNext()) {
            int bits = flags >> (i++ % 3);
            boolean noEvals = (bits & 4) != 0 && !allEvals;
            entries.add(with(entry(pool.get(it.next())), (bits & 1) != 0 && !noEvals,
                (bits & 2) != 0 && !noEvals, noEvals, false, OptionalInt.empty(),
                (bits & 8) != 0 ? List.of(ScenarioType.AGENTIC_CODING) : null));
          }
          Options o = new Options(trim, allEvals, false, false);
          String first = ChangelogPlanner.using(new FakeBackend())
              .plan(entries, "b", "h", head, () -> null, o).toJson().toString();
          String second = ChangelogPlanner.using(new FakeBackend())
              .plan(List.copyOf(entries), "b", "h", revision("head", CATALOGUE), () -> null, o)
              .toJson().toString();
          assertThat(second).isEqualTo(first);
        });
  }
}
