package io.infx.matrix.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CanaryTest {

  static ObjectNode row(String name, int conc, boolean eval) {
    ObjectNode r = JsonNodeFactory.instance.objectNode();
    r.put("exp-name", name).put("conc", conc).put("run-eval", eval);
    return r;
  }

  static ObjectNode listRow(String name, int... conc) {
    ObjectNode r = JsonNodeFactory.instance.objectNode();
    r.put("exp-name", name);
    var a = r.putArray("conc");
    for (int c : conc) {
      a.add(c);
    }
    return r;
  }

  static ChangelogPlan plan(Map<String, List<ObjectNode>> sn, Map<String, List<ObjectNode>> mn) {
    return new ChangelogPlan(sn, mn, List.of(), List.of(), List.of(), List.of(),
        new ChangelogPlan.Metadata("b", "h", List.of()), Optional.empty());
  }

  @Test
  void picksTheLowestNonEvalSingleNodeCandidateAndRemovesIt() {
    Map<String, List<ObjectNode>> sn = new LinkedHashMap<>();
    sn.put("8k1k", List.of(row("a", 8, false), row("b", 2, true), row("c", 4, false)));
    sn.put("1k1k", List.of(row("d", 4, false)));
    sn.put("1024_8192", List.of(row("e", 1, false)));
    ChangelogPlan p = Canary.apply(plan(sn, Map.of()));
    // 1k1k is searched before 8k1k: d and c tie at 4, d comes first; b is an eval row
    assertThat(p.canary()).hasValueSatisfying(c -> assertThat(c).extracting(r -> r.get("exp-name")
        .asText()).containsExactly("d"));
    assertThat(p.singleNode().get("1k1k")).isEmpty();
    assertThat(p.singleNode().get("8k1k")).hasSize(3);
    assertThat(p.toJson().get("canary")).hasSize(1);
  }

  @Test
  void agenticRowsQualifyAndMultiNodeAgenticIsTheFallback() {
    Map<String, List<ObjectNode>> sn = new LinkedHashMap<>();
    sn.put("agentic", List.of(row("ag", 2, false)));
    sn.put("8k1k", List.of(row("f", 4, false)));
    assertThat(Canary.select(plan(sn, Map.of()))).map(r -> r.get("exp-name").asText())
        .contains("ag");
    Map<String, List<ObjectNode>> mn = new LinkedHashMap<>();
    mn.put("8k1k", List.of(listRow("fixed", 1)));
    mn.put("agentic", List.of(listRow("mag32", 32), listRow("mag8", 8)));
    ChangelogPlan p = Canary.apply(plan(Map.of(), mn));
    assertThat(p.canary().orElseThrow()).extracting(r -> r.get("exp-name").asText())
        .containsExactly("mag8");
    assertThat(p.multiNode().get("agentic")).extracting(r -> r.get("exp-name").asText())
        .containsExactly("mag32");
  }

  @Test
  void noCandidateMeansAnEmptyCanary() {
    Map<String, List<ObjectNode>> sn = Map.of("8k1k", List.of(row("x", 4, true)));
    ChangelogPlan p = Canary.apply(plan(sn, Map.of()));
    assertThat(p.canary()).contains(List.of());
    assertThat(p.singleNode().get("8k1k")).hasSize(1);
  }
}
