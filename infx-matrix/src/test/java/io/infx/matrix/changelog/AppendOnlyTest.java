package io.infx.matrix.changelog;

import io.infx.matrix.ScenarioType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.matrix.changelog.ChangelogPlanner.Options;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class AppendOnlyTest {

  static ObjectNode sn(int tp, int conc, String image) {
    try {
      return (ObjectNode) Json.mapper().readTree("{\"image\":\"" + image + "\",\"model\":\"m\","
          + "\"model-prefix\":\"p\",\"precision\":\"fp8\",\"framework\":\"vllm\",\"runner\":\"h100\","
          + "\"isl\":8192,\"osl\":1024,\"tp\":" + tp + ",\"conc\":" + conc + ",\"ep\":1,"
          + "\"spec-decoding\":\"none\",\"exp-name\":\"p_8k1k\",\"disagg\":false}");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static ObjectNode mn(String conc) {
    try {
      return (ObjectNode) Json.mapper().readTree("{\"image\":\"i\",\"model\":\"m\","
          + "\"prefill\":{\"tp\":4},\"decode\":{\"tp\":8},\"conc\":" + conc + "}");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Spec §6.6 worked examples. */
  @Test
  void deltaKeepsOnlyNewPoints() {
    List<ObjectNode> base = List.of(sn(8, 4, "i"), sn(8, 8, "i"));
    assertThat(AppendOnly.delta(base, List.of(sn(8, 4, "i"), sn(8, 8, "i"), sn(8, 16, "i"))))
        .extracting(r -> r.get("conc").intValue()).containsExactly(16);
    assertThat(AppendOnly.delta(List.of(mn("[4, 8]")), List.of(mn("[4, 8, 16, 32]"))))
        .singleElement().satisfies(r -> assertThat(r.get("conc").toString()).isEqualTo("[16,32]"));
    // a new TP variant joins the existing series of the same image
    assertThat(AppendOnly.delta(base, List.of(sn(8, 4, "i"), sn(8, 8, "i"), sn(4, 4, "i"))))
        .extracting(r -> r.get("tp").intValue()).containsExactly(4);
  }

  @Test
  void deltaRejectsRemovalsChangesAndEmptyAdditions() {
    List<ObjectNode> base = List.of(sn(8, 4, "i"), sn(8, 8, "i"));
    assertThatThrownBy(() -> AppendOnly.delta(base, base))
        .hasMessageContaining("append-only did not add any generated points");
    assertThatThrownBy(() -> AppendOnly.delta(base, List.of(sn(8, 8, "i"), sn(8, 16, "i"))))
        .hasMessageContaining("append-only may not remove existing concurrency points: [4]");
    assertThatThrownBy(() -> AppendOnly.delta(base, List.of(sn(8, 4, "j"), sn(8, 8, "j"))))
        .hasMessageContaining("may not remove or modify existing generated recipes");
    assertThatThrownBy(() -> AppendOnly.delta(List.of(), List.of(sn(8, 4, "i"))))
        .hasMessageContaining("requires an existing curve in the base revision");
  }

  /** Corpus lacks this case: appended points that belong to no existing curve/series. */
  @Test
  void additionsMustJoinAnExistingSeriesWithItsImage() {
    List<ObjectNode> base = List.of(sn(8, 4, "i"));
    ObjectNode otherImage = sn(4, 4, "j");
    assertThatThrownBy(() -> AppendOnly.delta(base, List.of(sn(8, 4, "i"), otherImage)))
        .hasMessageContaining("append-only additions must belong to an existing visual curve "
            + "with one unchanged non-null image");
    ObjectNode newSeries = sn(8, 4, "i");
    newSeries.put("isl", 1024);
    assertThatThrownBy(() -> AppendOnly.delta(base, List.of(sn(8, 4, "i"), newSeries)))
        .hasMessageContaining("must belong to an existing visual curve");
  }

  static final String BASE = """
      sn-a:
        image: img:1
        scenarios:
          fixed-seq-len: [{tp: 8, conc: [4, 8]}]
          agentic-coding: [{tp: 4, conc: [2]}]
      sn-b:
        scenarios:
          fixed-seq-len: [{tp: 8, conc: [64]}]
      """;

  static ChangelogEntry appendOnly(List<ScenarioType> scenarios, String... keys) {
    return new ChangelogEntry(List.of(keys), List.of("d"), "XXX", false, false, false, true,
        OptionalInt.empty(), Optional.ofNullable(scenarios), false);
  }

  ChangelogPlan plan(String head, ChangelogEntry e) {
    return ChangelogPlanner.using(new FakeBackend()).plan(List.of(e), "base", "head",
        ChangelogPlannerTest.revision("head", head), () -> ChangelogPlannerTest.revision("base",
            BASE), Options.defaults());
  }

  @Test
  void plansOnlyTheAddedPointWithoutEvals() {
    ChangelogPlan p = plan(BASE.replace("conc: [4, 8]", "conc: [4, 8, 16]"),
        appendOnly(null, "sn-a"));
    assertThat(p.singleNode().get("8k1k")).extracting(r -> r.get("conc").intValue())
        .containsExactly(16);
    assertThat(p.evalRows()).isEmpty();
    assertThat(p.singleNode()).doesNotContainKey("agentic");
  }

  /** Corpus lacks this case: edits to configs the entry did not select. */
  @Test
  void editsToUnselectedConfigsAreRejected() {
    String head = BASE.replace("conc: [4, 8]", "conc: [4, 8, 16]").replace("[64]", "[32, 64]");
    assertThatThrownBy(() -> plan(head, appendOnly(null, "sn-a")))
        .hasMessageContaining("append-only PR changed configs not selected by its changelog "
            + "entry: ['sn-b']");
    assertThatThrownBy(() -> plan(head + "sn-new:\n  scenarios: {}\n", appendOnly(null, "sn-a")))
        .hasMessageContaining("['sn-b', 'sn-new']");
  }

  @Test
  void editsOutsideTheSelectedScenariosAreRejected() {
    String head = BASE.replace("conc: [4, 8]", "conc: [4, 8, 16]").replace("conc: [2]",
        "conc: [2, 4]");
    assertThatThrownBy(() -> plan(head, appendOnly(List.of(ScenarioType.FIXED_SEQ_LEN), "sn-a")))
        .hasMessageContaining("append-only changed a scenario outside its changelog scope: "
            + "'sn-a' / 'agentic-coding'");
    String image = BASE.replace("conc: [4, 8]", "conc: [4, 8, 16]").replace("img:1", "img:2");
    assertThatThrownBy(() -> plan(image, appendOnly(List.of(ScenarioType.FIXED_SEQ_LEN), "sn-a")))
        .hasMessageContaining("append-only changed config-wide fields");
    String dropped = BASE.replace("    agentic-coding: [{tp: 4, conc: [2]}]\n", "");
    assertThat(dropped).isNotEqualTo(BASE);
    assertThatThrownBy(() -> plan(dropped, appendOnly(null, "sn-a")))
        .hasMessageContaining("append-only added or removed a scenario in config 'sn-a'");
  }

  @Test
  void selectedConfigsMustExistInTheBase() {
    String head = BASE + "sn-c:\n  scenarios:\n    fixed-seq-len: [{tp: 8, conc: [4]}]\n";
    assertThatThrownBy(() -> plan(head, appendOnly(null, "sn-c")))
        .hasMessageContaining("append-only requires every selected config to exist in the base "
            + "revision; missing: ['sn-c']");
  }
}
