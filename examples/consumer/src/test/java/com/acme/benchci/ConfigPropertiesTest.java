package com.acme.benchci;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.Sweep;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.SeqLen;
import io.infx.matrix.config.SingleNodeEntry;
import io.infx.testing.ConfigMutators;
import io.infx.testing.GeneratedConfig;
import io.infx.testing.InfxAssertions;
import io.infx.testing.InfxGenerators;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.AsString;
import org.quicktheories.core.Gen;
import org.quicktheories.core.Reporter;

/**
 * Property tests of this team's config with infx's test kit (infx-testing): QuickTheories
 * generators of valid configs for the team's runners.yaml (with shrinking), one-change variants of
 * the team's own master file, {@code InfxAssertions}, and the team's own rule
 * ({@link TpTimesEpFitsNode}) reported with {@code file:line:column} like a built-in one.
 */
class ConfigPropertiesTest {

  private static final TpTimesEpFitsNode RULE = new TpTimesEpFitsNode(TeamFiles.RUNNERS);

  /** Valid single-node configs (fixed-seq-len and AgentX blocks) for the team's fleet. */
  private static final Gen<GeneratedConfig> SINGLE_NODE_CONFIGS =
      InfxGenerators.masterConfigs(TeamFiles.RUNNERS, GeneratedConfig.NodeLayout.SINGLE_NODE);

  @Test
  void ourConfigPassesOurRuleAndEveryRowFitsOneNode() {
    Catalog catalog = Catalog.load(List.of(Source.file(TeamFiles.CONFIG_FILE)), List.of(RULE));
    Matrix matrix = Generator.fullSweep(catalog, TeamFiles.RUNNERS, FullSweepOptions.defaults());
    // 8b: tp 1 at conc 1 and 4; 70b: tp 8 at conc 4 and 16, tp 4 × ep 2 at conc 16
    InfxAssertions.assertThat(matrix).hasRowCount(5)
        .allRowsMatch(row -> row instanceof MatrixRow.OnOneNode n
            && n.tp() * n.ep() <= TeamFiles.gpusPerNode(row.runner()), "tp × ep fits one node of its runner");
  }

  @Test
  void theMasterFileTheFleetRunsIsTheConfigTheToolDeclares() {
    String declared = Sweep.of(BenchmarkGate.declaration()).runners(TeamFiles.RUNNERS).expand().toJson();
    String fromFile = Sweep.fromFiles(TeamFiles.CONFIG_FILE).runners(TeamFiles.RUNNERS)
        .configKeys(BenchmarkGate.declaration().key()).expand().toJson();
    assertEquals(declared, fromFile);
  }

  @Test
  void everyOneChangeVariantOfOurConfigExpandsOrIsCaughtByOurRule() throws IOException {
    Source ours = Source.text(TeamFiles.CONFIG_FILE.toString(), Files.readString(TeamFiles.CONFIG_FILE));
    Set<String> verdicts = new TreeSet<>();
    qt().withFixedSeed(18).withExamples(60).forAll(ConfigMutators.variantsOf(ours)).checkAssert(v -> {
      // the verdict, from the variant's typed entries and the node sizes read off runners.yaml by hand
      boolean fits = fitsOneNode(v.catalog());
      if (fits) {
        verdicts.add("fits");
        Matrix m = Generator.fullSweep(Catalog.load(List.of(v.source("bench-ci.yaml")), List.of(RULE)),
            TeamFiles.RUNNERS, FullSweepOptions.defaults());
        InfxAssertions.assertThat(m).isNotEmpty().allRowsSatisfy(row ->
            assertTrue(((MatrixRow.OnOneNode) row).tp() * ((MatrixRow.OnOneNode) row).ep() <= 8, v.description()));
      } else {
        verdicts.add("caught");
        ValidationException e = assertThrows(ValidationException.class,
            () -> Catalog.load(List.of(v.source("bench-ci.yaml")), List.of(RULE)), v.description());
        InfxAssertions.assertThat(e).hasKind(ErrorKind.CONFIG_VALIDATION).hasViolationCount(1)
            .hasViolation(TpTimesEpFitsNode.RULE_ID).withMessageContaining("exceeds the 8 GPUs per node of runner 'h100'");
        assertTrue(e.getMessage().startsWith("bench-ci.yaml:"), e.getMessage());
      }
    });
    // "double tp" of the 70b entries overfills a node; the other changes do not
    assertEquals(Set.of("caught", "fits"), verdicts);
  }

  @Test
  void aViolationOfOurRuleNamesTheFileLineAndColumnOfTheEntry() throws IOException {
    String text = Files.readString(TeamFiles.CONFIG_FILE).replace("{tp: 4, ep: 2,", "{tp: 4, ep: 4,");
    ValidationException e = assertThrows(ValidationException.class,
        () -> Catalog.load(List.of(Source.text("config/bench-ci.yaml", text)), List.of(RULE)));
    int[] ep = TeamFiles.position(text, "{tp: 4, ep: 4", "4, conc-list");
    InfxAssertions.assertThat(e).hasViolationCount(1).hasViolation(TpTimesEpFitsNode.RULE_ID)
        .withMessageContaining("tp × ep = 4 × 4 = 16 exceeds the 8 GPUs per node of runner 'h100'")
        .at("config/bench-ci.yaml", ep[0], ep[1]);
    assertEquals("config/bench-ci.yaml:" + ep[0] + ":" + ep[1] + ": [acme.tp-ep-fits-node] "
        + "/acme70b-fp8-h100-vllm/scenarios/fixed-seq-len/0/search-space/1/ep: "
        + "tp × ep = 4 × 4 = 16 exceeds the 8 GPUs per node of runner 'h100'", e.getMessage());
  }

  @Test
  void generatedConfigsForOurFleetAreFlaggedExactlyWhenTheyOverfillANode() {
    qt().withFixedSeed(7).withExamples(150).forAll(SINGLE_NODE_CONFIGS).checkAssert(c -> {
      int gpus = TeamFiles.gpusPerNode(c.runner());
      boolean overfills = c.entries().stream().map(GeneratedConfig.OnOneNode.class::cast)
          .anyMatch(en -> en.tp() * en.ep().orElse(1) > gpus);
      if (overfills) {
        InfxAssertions.assertThat(assertThrows(ValidationException.class, () -> c.catalog(List.of(RULE))))
            .hasViolation(TpTimesEpFitsNode.RULE_ID).withMessageContaining("exceeds the " + gpus + " GPUs per node");
      } else {
        Matrix m = Generator.fullSweep(c.catalog(List.of(RULE)), TeamFiles.RUNNERS, FullSweepOptions.defaults());
        InfxAssertions.assertThat(m).isNotEmpty().allRowsSatisfy(row -> assertEquals(c.runner(), row.runner()));
      }
    });
  }

  @Test
  void aCounterexampleIsShrunkToTheSmallestConfigThatBreaksOurRule() {
    // A false property, on purpose: "no single-node config for our fleet breaks our rule". QuickTheories
    // finds a counterexample and shrinks it: the smallest is one fixed-seq-len block with one entry
    // whose ep = tp overfills the node (4 × 4 > 8; tp 2 × ep 2 fits even the 4-GPU nodes), on the
    // first label, at concurrency 1.
    AtomicReference<Object> smallest = new AtomicReference<>();
    Reporter capture = new Reporter() {
      @Override
      public void falisification(long seed, int examples, Object value, Throwable cause, List<Object> history,
          AsString<Object> toString) {
        smallest.set(value);
      }

      @Override
      public void falisification(long seed, int examples, Object value, List<Object> history,
          AsString<Object> toString) {
        smallest.set(value);
      }

      @Override
      public void valuesExhausted(int examples) {}
    };
    qt().withFixedSeed(18).withExamples(300).withShrinkCycles(10_000).withReporter(capture)
        .forAll(SINGLE_NODE_CONFIGS)
        .check(c -> RULE.check(c.key(), c.catalog().configs().get(c.key())).isEmpty());

    GeneratedConfig c = (GeneratedConfig) smallest.get();
    assertNotNull(c, "a counterexample was found");
    assertEquals(1, c.blocks().size(), c.toString());
    assertEquals(1, c.entries().size(), c.toString());
    GeneratedConfig.OnOneNode e = (GeneratedConfig.OnOneNode) c.entries().get(0);
    assertTrue(c.agenticEntries().isEmpty(), c.toString());
    assertEquals(4, e.tp(), c.toString());
    assertEquals(4, e.ep().orElseThrow(), c.toString());
    assertEquals(List.of(1), e.concList(), c.toString());
    assertEquals("h100", c.runner(), c.toString());
  }

  /** True when every single-node entry of every config has tp × ep ≤ its runner's GPUs per node. */
  private static boolean fitsOneNode(Catalog catalog) {
    for (MasterConfig config : catalog.configs().values()) {
      int gpus = TeamFiles.gpusPerNode(config.runner());
      for (SeqLen block : config.fixedSeqLen()) {
        for (Object entry : block.searchSpace()) {
          if (entry instanceof SingleNodeEntry e && e.tp() * e.ep().orElse(1) > gpus) {
            return false;
          }
        }
      }
      if (!config.agenticCoding().isEmpty()) {
        throw new IllegalStateException("bench-ci.yaml has no agentic-coding blocks; this check would miss them");
      }
    }
    return true;
  }
}
