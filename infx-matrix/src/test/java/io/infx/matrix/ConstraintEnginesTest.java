package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import io.infx.core.Violation;
import io.infx.core.bind.Binder;
import io.infx.core.bind.Constraints;
import io.infx.core.tree.MapNode;
import io.infx.core.tree.ScalarNode;
import io.infx.core.tree.Trees;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.MultiNodeMaster;
import io.infx.matrix.config.SingleNodeMaster;
import io.infx.matrix.internal.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in constraint path and Hibernate Validator must report exactly the same violations
 * (rule ids, pointers, locations, messages, actual values) for every model type.
 */
class ConstraintEnginesTest {

  private static final Binder HIBERNATE = Schema.BINDER.withHibernateValidatorOnly();

  private static List<String> bind(Binder binder, String yaml) {
    MapNode root = (MapNode) Trees.parseYaml("m.yaml", yaml);
    List<String> out = new ArrayList<>();
    for (MapNode.Entry e : root.entries()) {
      boolean multi = e.value() instanceof MapNode m && m.get("multinode")
          .filter(n -> n instanceof ScalarNode s && Boolean.TRUE.equals(s.value())).isPresent();
      Class<? extends MasterConfig> type = multi ? MultiNodeMaster.class : SingleNodeMaster.class;
      binder.bind(e.value(), type).violations().forEach(v -> out.add(v.render()));
    }
    return out;
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("io.infx.matrix.ValidationRulesTest#rules")
  void everyRuleCaseGivesTheSameViolationsOnBothEngines(String yaml, String ruleId, String fragment) {
    List<String> fast = bind(Schema.BINDER, yaml);
    assertThat(fast).isNotEmpty();
    assertThat(bind(HIBERNATE, yaml)).isEqualTo(fast);
  }

  @Test
  void runnerFileConstraintsAgreeOnBothEngines() {
    String yaml = Fixtures.RUNNERS.replace("slurm: {partition: batch, exclusive: false}",
        "slurm: {partition: batch, exclusive: false, cpus-per-task: 0, partitions: ['-bad'], "
            + "srt-slurm: {network-interface: '', default-time-limit: '6h', power-telemetry: "
            + "{dcgm-port: 70000, cpu-source: acpi}}}");
    io.infx.core.tree.Node root = Trees.parseYaml("runners.yaml", yaml);
    List<String> fast = Schema.BINDER.bind(root, io.infx.matrix.runners.RunnerInventory.class).violations()
        .stream().map(Violation::render).toList();
    List<String> hv = HIBERNATE.bind(root, io.infx.matrix.runners.RunnerInventory.class).violations()
        .stream().map(Violation::render).toList();
    assertThat(fast).hasSize(5).anySatisfy(v -> assertThat(v).contains("String should match pattern '^\\d+:\\d{2}:\\d{2}$'"));
    assertThat(hv).isEqualTo(fast);
  }

  @Test
  void sampleConfigsAndBrokenCopiesAgreeOnBothEngines() {
    qt().withExamples(30).forAll(longs().all(), integers().between(0, 5)).checkAssert((seed, breakage) -> {
      Catalog c = ConfigSamples.seeded(seed).catalog(3);
      for (MasterConfig m : c.configs().values()) {
        Object broken = breakage == 0 ? m : Breakages.apply(m, breakage);
        assertThat(graph(broken, true)).isEqualTo(graph(broken, false));
      }
    });
  }

  private static List<String> graph(Object root, boolean hibernateOnly) {
    return Constraints.validateGraph(root, hibernateOnly).stream().map(Violation::render).toList();
  }

  /** Copies of sample configs with one constraint broken. */
  static final class Breakages {
    private Breakages() {}

    static Object apply(MasterConfig m, int kind) {
      if (m instanceof SingleNodeMaster s && !s.fixedSeqLen().isEmpty()) {
        var block = s.fixedSeqLen().get(0);
        var entry = io.infx.matrix.config.ImmutableSingleNodeEntry.copyOf(block.searchSpace().get(0));
        var bad = switch (kind) {
          case 1 -> entry.withPp(0);
          case 2 -> entry.withDcpSize(3).withTp(8);
          case 3 -> entry.withSrtRecipe("");
          case 4 -> entry.withConcList(List.of(0, -4));
          default -> entry.withRouter(io.infx.matrix.config.Component.of("r", "image:x"));
        };
        return bad;
      }
      if (m instanceof MultiNodeMaster mm) {
        var copy = io.infx.matrix.config.ImmutableMultiNodeMaster.copyOf(mm);
        return kind % 2 == 0 ? copy.withKvP2pTransfer("") : copy.withRunner("plain-label");
      }
      return m;
    }

  }

}
