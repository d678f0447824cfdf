package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.matrix.RowKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkRunPlanTest {

  @TempDir Path tmp;

  private RunPlan plan(ImmutableRunOptions.Builder b) {
    return BenchmarkRun.of(b.out(tmp.resolve("out")).build()).plan();
  }

  @Test
  void pointsAreNamedByTheReferenceResultFilenameOnTheLabelsFirstRunner() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 1024, 1024, "[4, 8, 8]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);

    RunPlan plan = plan(RunOptions.builder().addConfigFiles(cfg));

    // fleet spec §4: {EXP_NAME}_{PRECISION}_{FRAMEWORK}_tp{TP}-pp{PP}-dcp{DCP}-pcp{PCP}-ep{EP}-dpa{DPA}
    //   _disagg-{DISAGG}_spec-{SPEC}_conc{CONC}_{RUNNER_NAME}
    String base = "mdl_1k1k_fp8_sglang_tp8-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc";
    assertThat(plan.points()).extracting(PlannedPoint::resultFilename).containsExactly(
        base + "4_h200-cw_0", base + "8_h200-cw_0", base + "8_h200-cw_0");
    assertThat(plan.points()).extracting(PlannedPoint::action).containsExactly(
        PlannedPoint.Action.RUN, PlannedPoint.Action.RUN, PlannedPoint.Action.SKIP);
    assertThat(plan.points().get(2).note()).contains("duplicate row").contains("point 2");
    assertThat(plan.points().get(0).env().get("RUNNER_TYPE")).hasValue("h200");
    assertThat(plan.points().get(0).env().get("CONC")).hasValue("4");
    assertThat(plan.toTable()).contains("3 matrix rows → 3 points on adapter 'local': 2 to run, 0 resumed, 1 skipped");
    assertThat(tmp.resolve("out")).doesNotExist();       // planning writes nothing
  }

  @Test
  void runnerOverrideAndLabelsWithoutRunners() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "cluster:lab", 1024, 8192, "[2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);

    assertThat(plan(RunOptions.builder().addConfigFiles(cfg)).points().get(0).runner()).isEqualTo("lab_0");
    RunPlan overridden = plan(RunOptions.builder().addConfigFiles(cfg).runner("b200-nb_3"));
    assertThat(overridden.points().get(0).resultFilename())
        .isEqualTo("mdl_1024_8192_fp8_sglang_tp8-pp1-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc2_b200-nb_3");
  }

  @Test
  void filtersAreGenerateFilters() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml",
        TestConfigs.singleNode("a", "h200", 1024, 1024, "[1, 2, 4, 8]")
            + TestConfigs.singleNode("b", "h200", 8192, 1024, "[4]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);

    RunPlan bounded = plan(RunOptions.builder().addConfigFiles(cfg)
        .selection(Selection.parse(List.of("--max-conc", "2", "--seq-lens", "1k1k"))));
    assertThat(bounded.points()).extracting(p -> p.conc().get(0)).containsExactly(1, 2);

    RunPlan keyed = plan(RunOptions.builder().addConfigFiles(cfg)
        .selection(Selection.parse(List.of("--config-keys", "b"))));
    assertThat(keyed.points()).extracting(p -> ((io.infx.matrix.MatrixRow.FixedSeqLen) p.row()).isl()).containsExactly(8192);

    assertThatThrownBy(() -> Selection.parse(List.of("--max-conc", "x")))
        .isInstanceOf(UsageException.class).hasMessageContaining("--max-conc");
    assertThatThrownBy(() -> Selection.parse(List.of("--config-files", "x.yaml")))
        .isInstanceOf(UsageException.class).hasMessageContaining("not a filter");
    // a test-config filter without --config-keys, and the reverse, say which filters apply
    assertThatThrownBy(() -> Selection.parse(List.of("--conc", "4")))
        .isInstanceOf(UsageException.class).hasMessageContaining("unrecognized arguments: --conc 4")
        .hasMessageContaining("need --config-keys");
    assertThatThrownBy(() -> Selection.parse(List.of("--config-keys", "k", "--max-conc", "4")))
        .isInstanceOf(UsageException.class).hasMessageContaining("test-config filters apply");
  }

  @Test
  void rowsTheLocalAdapterCannotRunAreSkippedWithTheReason() {
    Path examples = TestConfigs.examples();
    RunPlan plan = plan(RunOptions.builder().addConfigFiles(examples.resolve("example-master.yaml")));

    for (PlannedPoint p : plan.points()) {
      RowKind kind = p.row().kind();
      if ((kind == RowKind.SINGLE_NODE || kind == RowKind.SINGLE_NODE_AGENTIC) && !p.row().evalOnly()) {
        assertThat(p.action()).as(p.resultFilename()).isEqualTo(PlannedPoint.Action.RUN);
      } else {
        assertThat(p.action()).as(p.resultFilename()).isEqualTo(PlannedPoint.Action.SKIP);
        assertThat(p.note()).isNotEmpty();
      }
    }
    assertThat(plan.points()).anyMatch(p -> p.row().kind() == RowKind.MULTI_NODE
        && p.note().startsWith("multi-node row"));
    assertThat(plan.points()).anyMatch(p -> p.action() == PlannedPoint.Action.RUN && p.agentic());
    assertThat(plan.points()).anyMatch(p -> p.action() == PlannedPoint.Action.RUN && !p.agentic());
  }

  @Test
  void invalidConfigsAreLocatedErrorsBeforeAnythingRuns() throws Exception {
    Path cfg = TestConfigs.write(tmp, "bad.yaml",
        TestConfigs.singleNode("k", "h200", 1024, 1024, "[4]").replace("  precision: fp8\n", "  precison: fp8\n"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);

    assertThatThrownBy(() -> plan(RunOptions.builder().addConfigFiles(cfg)))
        .isInstanceOf(InfxException.class).hasMessageContaining("bad.yaml:").hasMessageContaining("precison");
    assertThat(tmp.resolve("out")).doesNotExist();
  }

  @Test
  void unknownAdapterIsAUsageError() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 1024, 1024, "[4]"));
    assertThatThrownBy(() -> BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp)
        .adapter("k8s").build())).isInstanceOf(UsageException.class).hasMessageContaining("unknown adapter 'k8s'");
    assertThat(Files.exists(tmp.resolve("matrix.json"))).isFalse();
  }

  @Test
  void adapterOptionsAreCheckedBeforeAnythingRuns() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 1024, 1024, "[4]"));
    assertThatThrownBy(() -> BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp)
        .adapter("slurm").putAdapterOptions("slurm.partiton", "debug").build()))
        .isInstanceOf(UsageException.class).hasMessageContaining("unknown adapter option 'slurm.partiton'");
    assertThatThrownBy(() -> BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp)
        .putAdapterOptions("slurm.partition", "debug").build()))
        .isInstanceOf(UsageException.class).hasMessageContaining("not for adapter 'local'");
    assertThat(Files.exists(tmp.resolve("matrix.json"))).isFalse();
  }

  @Test
  void agentxRowsAreSkippedOffTheLocalAdapter() {
    RunPlan plan = plan(RunOptions.builder().addConfigFiles(TestConfigs.examples().resolve("example-master.yaml"))
        .selection(Selection.parse(List.of("--scenario-type", "agentic-coding", "--max-conc", "4")))
        .adapter("slurm"));
    assertThat(plan.points()).isNotEmpty().allSatisfy(p -> {
      assertThat(p.action()).isEqualTo(PlannedPoint.Action.SKIP);
      assertThat(p.note()).contains("local adapter only");
    });
  }

  @Test
  void aMissingRunnerFileNamesBothPlacesAndTheOption() throws Exception {
    Path cfg = TestConfigs.write(tmp.resolve("cfg"), "m.yaml", TestConfigs.singleNode("k", "h200", 1024, 1024, "[4]"));
    assertThatThrownBy(() -> plan(RunOptions.builder().addConfigFiles(cfg)))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining(cfg.resolveSibling("runners.yaml").toString())
        .hasMessageContaining("pass runnerConfig FILE");
  }
}
