package io.infx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.quicktheories.QuickTheory.qt;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.ConfigRule;
import io.infx.matrix.config.SingleNodeEntry;
import io.infx.matrix.config.SeqLen;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A team's own rule, tp × ep ≤ the runner's GPUs per node, reported like a built-in one. */
class ConfigRuleTest {

  static ConfigRule tpTimesEpFitsNode(RunnerInventory runners) {
    return (key, config) -> {
      int gpus = InfxGenerators.gpusPerNode(runners, config.runner());
      List<Violation> out = new ArrayList<>();
      for (int b = 0; b < config.fixedSeqLen().size(); b++) {
        SeqLen block = config.fixedSeqLen().get(b);
        for (int i = 0; i < block.searchSpace().size(); i++) {
          if (!(block.searchSpace().get(i) instanceof SingleNodeEntry e)) {
            continue;
          }
          int ep = e.ep().orElse(1);
          if (e.tp() * ep > gpus) {
            out.add(ConfigRule.at("acme.tp-ep-fits-node",
                "/scenarios/fixed-seq-len/" + b + "/search-space/" + i + "/ep",
                "tp × ep = " + e.tp() * ep + " exceeds the " + gpus + " GPUs per node of '" + config.runner() + "'"));
          }
        }
      }
      return out;
    };
  }

  static final String ACME = """
      acme-fp8-h100-vllm:
        image: "img:1"
        model: org/model
        model-prefix: acme
        precision: fp8
        framework: vllm
        runner: h100
        multinode: false
        scenarios:
          fixed-seq-len:
          - isl: 1024
            osl: 1024
            search-space:
            - {tp: 8, ep: 1, conc-list: [4]}
            - {tp: 4, ep: 4, conc-list: [4]}
      """;

  @Test
  void aTeamRuleViolationCarriesFileLineColumnAndItsRuleId() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Catalog.load(
        List.of(Source.text("acme.yaml", ACME)), List.of(tpTimesEpFitsNode(InfxGeneratorsTest.RUNNERS))));
    int[] ep = InfxAssertionsTest.position(ACME, "4, conc-list");
    InfxAssertions.assertThat(e).hasKind(ErrorKind.CONFIG_VALIDATION).hasViolationCount(1)
        .hasViolation("acme.tp-ep-fits-node").withMessageContaining("tp × ep = 16 exceeds the 8 GPUs")
        .at("acme.yaml", ep[0], ep[1]);
    assertThat(e.violations().get(0).pointer())
        .isEqualTo("/acme-fp8-h100-vllm/scenarios/fixed-seq-len/0/search-space/1/ep");
    assertThat(e.getMessage()).startsWith("acme.yaml:15:21: [acme.tp-ep-fits-node]");
  }

  @Test
  void aPointerToAnAbsentKeyIsLocatedAtItsNearestAncestor() {
    // the first entry writes no ep: the rule's pointer .../0/ep resolves to the entry's mapping
    String noEp = ACME.replace("{tp: 8, ep: 1, conc-list: [4]}", "{tp: 16, conc-list: [4]}")
        .replace("{tp: 4, ep: 4, conc-list: [4]}", "{tp: 4, ep: 1, conc-list: [4]}");
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Catalog.load(
        List.of(Source.text("acme.yaml", noEp)), List.of(tpTimesEpFitsNode(InfxGeneratorsTest.RUNNERS))));
    int[] entry = InfxAssertionsTest.position(noEp, "{tp: 16");
    InfxAssertions.assertThat(e).hasViolation("acme.tp-ep-fits-node").at("acme.yaml", entry[0], entry[1]);
  }

  @Test
  void rulesRunBesideBuiltInRulesAndAllViolationsAreReportedTogether() {
    // a second file whose config breaks a built-in rule (conc 0); the team rule runs on configs that
    // bind, so acme.yaml's tp × ep violation is reported in the same error
    String other = ACME.replace("acme-fp8-h100-vllm", "other-fp8-h100-vllm")
        .replace("{tp: 8, ep: 1, conc-list: [4]}", "{tp: 8, ep: 1, conc-list: [0]}")
        .replace("{tp: 4, ep: 4, conc-list: [4]}", "{tp: 4, ep: 1, conc-list: [4]}");
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Catalog.load(
        List.of(Source.text("acme.yaml", ACME), Source.text("other.yaml", other)),
        List.of(tpTimesEpFitsNode(InfxGeneratorsTest.RUNNERS))));
    InfxAssertions.assertThat(e).hasViolationCount(2)
        .hasViolation("V12.conc-list-positive").at("other.yaml", 14, 36)
        .hasViolation("acme.tp-ep-fits-node").at("acme.yaml", 15, 21);
  }

  @Test
  void generatedConfigsWithEpAtMostOneAlwaysPassTheTeamRule() {
    ConfigRule rule = tpTimesEpFitsNode(InfxGeneratorsTest.RUNNERS);
    // the rule looks at single-node fixed-seq-len entries; agentic blocks and other topologies pass it
    qt().withFixedSeed(5).withExamples(100).forAll(InfxGenerators.masterConfigs(InfxGeneratorsTest.RUNNERS))
        .checkAssert(c -> {
          boolean fits = c.fixedEntries().stream().allMatch(en -> !(en instanceof GeneratedConfig.OnOneNode o)
              || o.tp() * o.ep().orElse(1) <= InfxGenerators.gpusPerNode(InfxGeneratorsTest.RUNNERS, c.runner()));
          ValidationException e = catchThrowableOfType(ValidationException.class, () -> c.catalog(List.of(rule)));
          if (fits) {
            assertThat(e).isNull();
          } else {
            InfxAssertions.assertThat(e).hasViolation("acme.tp-ep-fits-node");
          }
        });
  }
}
