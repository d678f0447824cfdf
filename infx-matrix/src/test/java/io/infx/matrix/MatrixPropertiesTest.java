package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.infx.matrix.config.Concurrency;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** Properties of expansion over configs drawn from {@link ConfigSamples} (QuickTheories). */
class MatrixPropertiesTest {

  private static final RunnerInventory RUNNERS = ConfigSamples.runners();
  private static final EvalMode[] MODES = EvalMode.values();

  private static Catalog catalog(long seed) {
    return ConfigSamples.seeded(seed).catalog(6);
  }

  private static Catalog restrict(Catalog c, Predicate<Map.Entry<String, MasterConfig>> keep) {
    Map<String, MasterConfig> out = new LinkedHashMap<>();
    for (Map.Entry<String, MasterConfig> e : c.configs().entrySet()) {
      if (keep.test(e)) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return Catalog.of(out);
  }

  @Test
  void sampleConfigsAreValidAndExpansionIsDeterministic() {
    qt().withExamples(40).forAll(longs().all(), integers().between(0, MODES.length - 1))
        .checkAssert((seed, mode) -> {
          FullSweepOptions o = FullSweepOptions.builder().evalMode(MODES[mode]).build();
          String first = Generator.fullSweep(catalog(seed), RUNNERS, o).toJson();
          String again = Generator.fullSweep(catalog(seed), RUNNERS, o).toJson();
          assertThat(again).isEqualTo(first);
          // evals-only modes may legitimately select nothing (no 8k1k or agentic row)
          if (MODES[mode] != EvalMode.SUBSET && MODES[mode] != EvalMode.ALL) {
            assertThat(first).isNotEqualTo("[]");
          }
        });
  }

  @Test
  void everyEmittedRowPassesOutputValidation() {
    qt().withExamples(40).forAll(longs().all(), integers().between(0, MODES.length - 1), integers().between(0, 3))
        .checkAssert((seed, mode, variant) -> {
          ImmutableFullSweepOptions.Builder b = FullSweepOptions.builder().evalMode(MODES[mode]);
          if (variant == 1 && MODES[mode] != EvalMode.SMOKE) {
            b.trimConc(true);
          } else if (variant == 2) {
            b.minConc(8).maxConc(64).stepSize(3);
          } else if (variant == 3) {
            b.maxTp(4).maxEp(2);
          }
          Matrix m = Generator.fullSweep(catalog(seed), RUNNERS, b.build());
          assertThat(m.validate()).isEmpty();
          if (variant == 0 && MODES[mode] != EvalMode.SUBSET && MODES[mode] != EvalMode.ALL) {
            assertThat(m.size()).isPositive();
          }
        });
  }

  @Test
  void concurrencyValuesLieWithinTheBounds() {
    qt().withExamples(40).forAll(longs().all(), integers().between(1, 64), integers().between(0, 256))
        .checkAssert((seed, min, span) -> {
          int max = min + span;
          Matrix m = Generator.fullSweep(catalog(seed), RUNNERS,
              FullSweepOptions.builder().minConc(min).maxConc(max).evalMode(EvalMode.NONE).build());
          for (MatrixRow r : m) {
            assertThat(r.conc()).as(r.toJson()).allSatisfy(c -> assertThat(c).isBetween(min, max));
          }
        });
  }

  @Test
  void rangesFollowTheStepSequence() {
    qt().forAll(integers().between(1, 1000), integers().between(0, 5000), integers().between(2, 9))
        .checkAssert((start, span, step) -> {
          List<Integer> v = Concurrency.range(start, start + span, step);
          assertThat(v.get(0)).isEqualTo(start);
          assertThat(v.get(v.size() - 1)).isEqualTo(start + span);
          for (int i = 1; i < v.size(); i++) {
            assertThat(v.get(i)).isEqualTo(Math.min(v.get(i - 1) * step, start + span));
            assertThat(v.get(i)).isGreaterThan(v.get(i - 1));
          }
        });
  }

  @Test
  void filtersCommuteWithRestrictingTheCatalogue() {
    qt().withExamples(40).forAll(longs().all(), integers().between(0, 2), integers().between(0, 3))
        .checkAssert((seed, p, f) -> {
          Catalog c = catalog(seed);
          String precision = List.of("fp4", "fp8", "bf16").get(p);
          String framework = List.of("vllm", "sglang", "trt", "atom").get(f);
          String both = Generator.fullSweep(c, RUNNERS, FullSweepOptions.builder()
              .addPrecisions(precision).addFrameworks(framework).build()).toJson();
          String precisionFirst = Generator.fullSweep(restrict(c, e -> e.getValue().precision().equals(precision)),
              RUNNERS, FullSweepOptions.builder().addFrameworks(framework).build()).toJson();
          String frameworkFirst = Generator.fullSweep(restrict(c, e -> e.getValue().framework().equals(framework)),
              RUNNERS, FullSweepOptions.builder().addPrecisions(precision).build()).toJson();
          assertThat(precisionFirst).isEqualTo(both);
          assertThat(frameworkFirst).isEqualTo(both);
        });
  }

  @Test
  void modelPrefixAndRunnerTypeFiltersCommuteWithRestrictingTheCatalogue() {
    List<String> prefixes = List.of("dsr1", "qwen3.5", "glm5", "llama", "gptoss");
    List<String> labels = List.of("h100", "h200", "b200", "cluster:h100-a", "cluster:h200-b", "cluster:b200-c");
    qt().withExamples(40).forAll(longs().all(), integers().between(0, prefixes.size() - 1),
            integers().between(0, labels.size() - 1))
        .checkAssert((seed, p, l) -> {
          Catalog c = catalog(seed);
          String prefix = prefixes.get(p);
          String label = labels.get(l);
          String both = Generator.fullSweep(c, RUNNERS, FullSweepOptions.builder()
              .addModelPrefixes(prefix).addRunnerTypes(label).evalMode(EvalMode.NONE).build()).toJson();
          String prefixFirst = Generator.fullSweep(
              restrict(c, e -> e.getValue().modelPrefix().equals(prefix)), RUNNERS,
              FullSweepOptions.builder().addRunnerTypes(label).evalMode(EvalMode.NONE).build()).toJson();
          String labelFirst = Generator.fullSweep(
              restrict(c, e -> e.getValue().runner().equals(label)), RUNNERS,
              FullSweepOptions.builder().addModelPrefixes(prefix).evalMode(EvalMode.NONE).build()).toJson();
          assertThat(prefixFirst).isEqualTo(both);
          assertThat(labelFirst).isEqualTo(both);
        });
  }

  @Test
  void testConfigOverExactKeysEqualsFullSweepFilteredToThoseKeys() {
    qt().withExamples(40).forAll(longs().all(), integers().between(0, 63), integers().between(0, 1))
        .checkAssert((seed, mask, defaultEvals) -> {
          Catalog c = catalog(seed);
          List<String> keys = new ArrayList<>();
          for (int i = 0; i < c.keys().size(); i++) {
            if ((mask & (1 << i)) != 0) {
              keys.add(c.keys().get(i));
            }
          }
          if (keys.isEmpty()) {
            keys.add(c.keys().get(0));
          }
          EvalMode mode = defaultEvals == 1 ? EvalMode.DEFAULT : EvalMode.NONE;
          String tc = Generator.testConfig(c, RUNNERS,
              TestConfigOptions.builder().configKeys(keys).evalMode(mode).build()).toJson();
          String fs = Sweep.of(c).runners(RUNNERS).configKeys(keys.toArray(String[]::new)).evals(mode)
              .expand().toJson();
          assertThat(tc).isEqualTo(fs);
        });
  }

  @Test
  void sizedSamplesExpandToExactlyTheRequestedRows() {
    qt().withExamples(10).forAll(longs().all(), integers().between(1, 3000)).checkAssert((seed, rows) ->
        assertThat(Generator.fullSweep(ConfigSamples.sized(seed, rows), RUNNERS, FullSweepOptions.defaults()).size())
            .isEqualTo(rows));
  }
}
