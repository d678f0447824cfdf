package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.ValidationException;
import io.infx.matrix.runners.RunnerInventory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The expansion behaviours of spec §4 and §10, each on a small fixture with independently derived
 * expectations (worked by hand from the rules, not copied from the implementation).
 */
class ExpansionTest {

  private final RunnerInventory runners = Fixtures.runners();

  private Matrix fullSweep(Catalog c, FullSweepOptions o) {
    return Generator.fullSweep(c, runners, o);
  }

  private static ImmutableFullSweepOptions.Builder sweep() {
    return FullSweepOptions.builder();
  }

  private static List<Object> column(Matrix m, String key) {
    return m.rows().stream().map(r -> r.fields().get(key)).toList();
  }

  @Test
  void singleNodeRowHasTheReferenceKeysOrderAndDefaults() {
    Matrix m = fullSweep(Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-list: [4]}")), sweep().build());
    assertThat(m.toJson()).isEqualTo("[{\"image\": \"img:1\", \"model\": \"org/model\", \"model-prefix\": \"mdl\", "
        + "\"precision\": \"fp8\", \"framework\": \"sglang\", \"runner\": \"h200\", \"isl\": 1024, \"osl\": 1024, "
        + "\"tp\": 8, \"pp\": 1, \"dcp-size\": 1, \"pcp-size\": 1, \"conc\": 4, \"max-model-len\": 2304, \"ep\": 1, "
        + "\"dp-attn\": false, \"spec-decoding\": \"none\", \"exp-name\": \"mdl_1k1k\", \"disagg\": false, "
        + "\"run-eval\": false}]");
    assertThat(m.get(0).kind()).isEqualTo(RowKind.SINGLE_NODE);
    assertThat(m.validate()).isEmpty();
  }

  @Test
  void rangesExpandGeometricallyAndAlwaysIncludeTheEnd() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-start: 4, conc-end: 100}",
        "{tp: 4, conc-start: 16, conc-end: 16}"));
    assertThat(column(fullSweep(c, sweep().build()), "conc")).containsExactly(4, 8, 16, 32, 64, 100, 16);
    assertThat(column(fullSweep(c, sweep().stepSize(3).build()), "conc")).containsExactly(4, 12, 36, 100, 16);
  }

  @Test
  void singleNodeRangesAreClampedBeforeExpansionSoTheGridShifts() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-start: 4, conc-end: 64}"));
    assertThat(column(fullSweep(c, sweep().minConc(5).maxConc(20).build()), "conc")).containsExactly(5, 10, 20);
    // a cap below the range start runs one point at the cap
    assertThat(column(fullSweep(c, sweep().maxConc(3).build()), "conc")).containsExactly(3);
    // a minimum above the range skips the entry
    assertThat(fullSweep(c, sweep().minConc(65).build()).isEmpty()).isTrue();
  }

  @Test
  void listsAreFilteredAndAnEmptiedListRunsAtTheCap() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-list: [16, 48, 8]}"));
    assertThat(column(fullSweep(c, sweep().maxConc(20).build()), "conc")).containsExactly(16, 8);
    assertThat(column(fullSweep(c, sweep().maxConc(4).build()), "conc")).containsExactly(4);
    assertThat(column(fullSweep(c, sweep().minConc(100).build()), "conc")).isEmpty();
    assertThat(fullSweep(c, sweep().maxConc(-1).build()).isEmpty()).isTrue();
  }

  @Test
  void tpCapSkipsAndEpCapClamps() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, ep: 8, conc-list: [4]}",
        "{tp: 4, ep: 4, conc-list: [4]}", "{tp: 2, conc-list: [4]}"));
    assertThat(column(fullSweep(c, sweep().maxTp(4).build()), "tp")).containsExactly(4, 2);
    assertThat(column(fullSweep(c, sweep().maxEp(2).build()), "ep")).containsExactly(2, 2, 1);
    assertThat(fullSweep(c, sweep().maxTp(0).build()).isEmpty()).isTrue();
  }

  @Test
  void defaultEvalsPickTheHighestAndUpperMedianEligibleConcurrencyPerGroup() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(8192, "{tp: 8, conc-start: 4, conc-end: 64}",
        "{tp: 4, conc-list: [16, 48, 8]}"));
    Matrix m = fullSweep(c, sweep().build());
    // group concurrencies >= 16: {16, 32, 48, 64} -> targets {64, S[2] = 48}
    List<String> picked = m.rows().stream().filter(MatrixRow::runEval)
        .map(r -> "tp" + ((MatrixRow.OnOneNode) r).tp() + "@" + r.conc().get(0)).toList();
    assertThat(picked).containsExactly("tp8@64", "tp4@48");
    assertThat(m.evalRows().get(0).fields()).containsEntry("eval-framework", "lm-eval").containsEntry("eval-suite", "");
    Matrix only = fullSweep(c, sweep().evalMode(EvalMode.SUBSET).build());
    assertThat(only.rows()).allSatisfy(r -> assertThat(r.evalOnly()).isTrue()).hasSize(2);
    assertThat(fullSweep(c, sweep().evalMode(EvalMode.NONE).build()).evalRows().isEmpty()).isTrue();
  }

  @Test
  void multiNodeRowsCarryTheWholeListAndWorkerDefaults() {
    Matrix m = fullSweep(Fixtures.catalog(Fixtures.MULTI_NODE), sweep().build());
    assertThat(m.size()).isEqualTo(2);
    MatrixRow first = m.get(0);
    assertThat(first.kind()).isEqualTo(RowKind.MULTI_NODE);
    assertThat(first.conc()).containsExactly(4, 64);
    assertThat(first.fields().get("prefill")).isEqualTo(Map.of("num-worker", 1, "tp", 4, "ep", 4, "dp-attn", true,
        "pp", 1, "dcp-size", 1, "pcp-size", 1));
    assertThat(((Map<?, ?>) first.fields().get("prefill")).keySet().stream().map(Object::toString).toList())
        .containsExactly("num-worker", "tp", "ep", "dp-attn", "pp", "dcp-size", "pcp-size");
    assertThat(first.fields()).containsEntry("max-model-len", 9472).containsEntry("exp-name", "mdl_8k1k")
        .containsEntry("kv-p2p-transfer", "nixl").containsEntry("run-eval", false);
    // node-count: prefill 4 GPUs over an 8-GPU family node = 1, decode 8 = 1
    assertThat(first.fields()).containsEntry("node-count", 2);
    // eval at the highest eligible concurrency of the topology: [128, 8] -> 128
    MatrixRow second = m.get(1);
    assertThat(second.conc()).containsExactly(128, 8);
    assertThat(second.fields()).containsEntry("run-eval", true).containsEntry("eval-conc", 128);
    List<String> keys = List.copyOf(second.fields().keySet());
    assertThat(keys.subList(keys.size() - 3, keys.size())).containsExactly("eval-framework", "eval-suite", "eval-conc");
  }

  @Test
  void allEvalsMergesOneTopologyIntoOneBatchedEvalRow() {
    Matrix m = fullSweep(Fixtures.catalog(Fixtures.MULTI_NODE), sweep().evalMode(EvalMode.ALL).build());
    assertThat(m.size()).isEqualTo(1);
    MatrixRow row = m.get(0);
    assertThat(row.conc()).containsExactly(4, 8, 64, 128);
    assertThat(row.fields()).containsEntry("run-eval", true).containsEntry("eval-all-concs", true)
        .containsEntry("eval-only", true).doesNotContainKey("eval-conc");
  }

  @Test
  void trimAndSmokeKeepTheMinimumConcurrencyOfEachShape() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(8192, "{tp: 8, conc-start: 4, conc-end: 64}",
        "{tp: 4, conc-list: [16, 48, 8]}"));
    Matrix trimmed = fullSweep(c, sweep().trimConc(true).build());
    assertThat(trimmed.rows()).extracting(r -> ((MatrixRow.OnOneNode) r).tp() + "@" + r.conc().get(0) + ":" + r.runEval())
        .containsExactly("8@4:true", "4@8:true");
    Matrix smoke = fullSweep(c, sweep().evalMode(EvalMode.SMOKE).build());
    assertThat(smoke.rows()).extracting(r -> ((MatrixRow.OnOneNode) r).tp() + "@" + r.conc().get(0) + ":" + r.evalOnly())
        .containsExactly("8@4:false", "4@8:false", "8@64:true", "4@48:true");
    Matrix mn = fullSweep(Fixtures.catalog(Fixtures.MULTI_NODE), sweep().trimConc(true).build());
    assertThat(mn.rows()).extracting(MatrixRow::conc).containsExactly(List.of(4));
    assertThat(mn.get(0).fields()).containsEntry("run-eval", true).containsEntry("eval-conc", 4);
  }

  @Test
  void testConfigResolvesKeysAndGlobs() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-list: [4]}").replace("ex-sn", "ex-sn"));
    assertThat(Generator.testConfig(c, runners, TestConfigOptions.of("ex-s?")).size()).isEqualTo(1);
    assertThat(Generator.testConfig(c, runners, TestConfigOptions.of("ex-[rs]?")).size()).isEqualTo(1);
    // only arguments with * or ? are patterns: a bracket alone is part of an exact key
    assertThatThrownBy(() -> Generator.testConfig(c, runners, TestConfigOptions.of("ex-[rs]n")))
        .hasMessageContaining("Config key(s) not found: ex-[rs]n");
    assertThatThrownBy(() -> Generator.testConfig(c, runners, TestConfigOptions.of("zz*")))
        .isInstanceOfSatisfying(InfxException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.SELECTION);
          assertThat(e.getMessage()).contains("Pattern 'zz*' matched no config keys.").contains("Available keys: ex-sn");
        });
    assertThatThrownBy(() -> Generator.testConfig(c, runners, TestConfigOptions.of("ex-s")))
        .hasMessageContaining("Config key(s) not found: ex-s");
  }

  @Test
  void runnerNodeFilterDiffersBetweenCommands() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-list: [4]}"));
    assertThat(column(fullSweep(c, sweep().runnerNodeFilter("cw").build()), "runner"))
        .containsExactly("h200-cw_00", "h200-cw_01");
    assertThat(column(fullSweep(c, sweep().runnerNodeFilter("h200").build()), "runner"))
        .containsExactly("h200-cw_00", "h200-cw_01", "h200-nb_0");
    Matrix tc = Generator.testConfig(c, runners, TestConfigOptions.builder().addConfigKeys("ex-sn")
        .runnerNodeFilter("h200").build());
    assertThat(column(tc, "runner")).containsExactly("h200", "h200-cw_00", "h200-cw_01", "h200-nb_0");
    assertThat(fullSweep(c, sweep().runnerNodeFilter("zzz").build()).isEmpty()).isTrue();
  }

  @Test
  void unknownRunnerTypesAreASelectionError() {
    Catalog c = Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-list: [4]}"));
    assertThatThrownBy(() -> fullSweep(c, sweep().addRunnerTypes("h999").build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.SELECTION);
          assertThat(e.violations().get(0).ruleId()).isEqualTo("V51.runner-type");
          assertThat(e.getMessage()).contains("Invalid runner type(s): {'h999'}. Valid runner types are: b200-multinode, ");
        });
  }

  @Test
  void singleNodeAgenticRowsHaveDramBudgetsAndTopologyNames() {
    Matrix m = Generator.testConfig(Fixtures.catalog(Fixtures.AGENTIC), runners,
        TestConfigOptions.builder().addConfigKeys("ex-ag").evalMode(EvalMode.NONE).build());
    assertThat(m.rows()).extracting(MatrixRow::expName).containsExactly("mdl_tp4_conc2_kvdram-lmcache",
        "mdl_tp4_conc32_kvdram-lmcache", "mdl_tp8_conc16_kvnone_spec-mtp");
    // floor(2,063,920 MiB × 1,048,576 × 0.8 × 4 / 8 / 1e9) = 865
    assertThat(column(m, "total-cpu-dram-gb")).containsExactly(865, 865, 0);
    assertThat(column(m, "duration")).containsExactly(3600, 3600, 3600);
    assertThat(m.get(0).fields()).doesNotContainKeys("isl", "osl", "max-model-len", "disagg", "run-eval")
        .containsEntry("kv-offload-backend", Map.of("name", "lmcache", "version", "0.3.9"))
        .containsEntry("scenario-type", "agentic-coding");
    Matrix evals = Generator.testConfig(Fixtures.catalog(Fixtures.AGENTIC), runners,
        TestConfigOptions.builder().addConfigKeys("ex-ag").evalMode(EvalMode.SUBSET).build());
    // GSM8K groups split by spec-decoding (newest reference): one pick per group, the highest conc
    assertThat(evals.rows()).extracting(MatrixRow::expName)
        .containsExactly("mdl_tp4_conc32_kvdram-lmcache", "mdl_tp8_conc16_kvnone_spec-mtp");
  }

  @Test
  void multiNodeAgenticRowsAreOnePerConcurrencyWithPrefillBasedBudgets() {
    String yaml = """
        ex-mnag:
          image: i
          model: m
          model-prefix: p
          precision: fp4
          framework: dynamo-sglang
          runner: cluster:gb200-nv
          multinode: true
          disagg: true
          kv-p2p-transfer: nixl
          scenarios:
            agentic-coding:
            - dram-utilization: 0.5
              search-space:
              - conc-list: [8, 32]
                kv-offloading: dram
                kv-offload-backend: {name: hicache}
                prefill: {num-worker: 2, tp: TP, ep: 4, dp-attn: true}
                decode: {num-worker: 1, tp: 8, ep: 8, dp-attn: true}
        """;
    Matrix m = Generator.testConfig(Fixtures.catalog(yaml.replace("TP", "4")), runners,
        TestConfigOptions.builder().addConfigKeys("ex-mnag").evalMode(EvalMode.NONE).build());
    assertThat(m.rows()).extracting(MatrixRow::expName).containsExactly(
        "p_p2x4ep4dpa_d1x8ep8dpa_conc8_kvdram-hicache", "p_p2x4ep4dpa_d1x8ep8dpa_conc32_kvdram-hicache");
    assertThat(column(m, "conc")).containsExactly(List.of(8), List.of(32));
    // floor(860,160 × 1,048,576 × 0.5 × 4 / 4 / 1e9) = 450
    assertThat(column(m, "total-cpu-dram-gb")).containsExactly(450, 450);
    // prefill 2 × 4 GPUs on 4-GPU nodes = 2, decode 8 = 2
    assertThat(column(m, "node-count")).containsExactly(4, 4);
    assertThatThrownBy(() -> Generator.testConfig(Fixtures.catalog(yaml.replace("TP", "3")), runners,
        TestConfigOptions.of("ex-mnag"))).hasMessageContaining("does not divide gpus-per-node=4 evenly");
    assertThatThrownBy(() -> Generator.testConfig(Fixtures.catalog(yaml.replace("TP", "6")), runners,
        TestConfigOptions.of("ex-mnag"))).hasMessageContaining("spans multiple nodes but is not a multiple of gpus-per-node=4");
    assertThat(Generator.testConfig(Fixtures.catalog(yaml.replace("TP", "8")), runners,
        TestConfigOptions.builder().addConfigKeys("ex-mnag").evalMode(EvalMode.NONE).build()).size()).isEqualTo(2);
  }

  @Test
  void dramBudgetCapsAvailableMemoryAtThreeTerabytesAndUsesExactDecimals() {
    String yaml = Fixtures.AGENTIC.replace("cluster:b200-nscale", "cluster:mi355x-amds")
        .replace("0.8", "0.086");
    Matrix m = Generator.testConfig(Fixtures.catalog(yaml), runners,
        TestConfigOptions.builder().addConfigKeys("ex-ag").evalMode(EvalMode.NONE).concs(List.of(2)).build());
    // min(3,095,781, 2,861,022) × 1,048,576 × 0.086 × 4 / 8 / 1e9 = 128.9… -> 128
    assertThat(column(m, "total-cpu-dram-gb")).containsExactly(128);
  }

  @Test
  void dramOffloadNeedsRunnerFacts() {
    String yaml = Fixtures.AGENTIC.replace("cluster:b200-nscale", "cluster:h200-cw");
    assertThatThrownBy(() -> Generator.testConfig(Fixtures.catalog(yaml), runners, TestConfigOptions.of("ex-ag")))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.GENERATION);
          assertThat(e.violations().get(0).ruleId()).isEqualTo("V55.runner-hardware");
          assertThat(e.violations().get(0).location()).isPresent();
          assertThat(e.getMessage()).contains("requires 'available-cpu-dram-mib' in runner hardware metadata");
        });
  }

  @Test
  void expNamesMustEachMatchExactlyOneRow() {
    Catalog c = Fixtures.catalog(Fixtures.AGENTIC);
    Matrix one = Generator.testConfig(c, runners, TestConfigOptions.builder().addConfigKeys("ex-ag")
        .addExpNames("mdl_tp8_conc16_kvnone_spec-mtp").evalMode(EvalMode.NONE).build());
    assertThat(one.size()).isEqualTo(1);
    assertThatThrownBy(() -> Generator.testConfig(c, runners, TestConfigOptions.builder().addConfigKeys("ex-ag")
        .addExpNames("nope").build())).isInstanceOf(UsageException.class)
        .hasMessageContaining("Experiment name(s) not found: nope");
  }

  @Test
  void requirePowerOnlyOn8k1k() {
    String yaml = Fixtures.singleNode(1024, "{tp: 8, conc-list: [4]}").replace("osl: 1024", "osl: 1024\n      require-power: true");
    assertThatThrownBy(() -> fullSweep(Fixtures.catalog(yaml), sweep().build()))
        .hasMessageContaining("require-power rollout supports only fixed-sequence 8192/1024");
    Matrix m = fullSweep(Fixtures.catalog(yaml.replace("isl: 1024", "isl: 8192")), sweep().build());
    assertThat(m.get(0).fields()).containsEntry("require-power", true);
    List<String> keys = List.copyOf(m.get(0).fields().keySet());
    assertThat(keys.indexOf("require-power")).isEqualTo(keys.indexOf("osl") + 1);
    Matrix evals = fullSweep(Fixtures.catalog(yaml.replace("isl: 1024", "isl: 8192").replace("[4]", "[16]")),
        sweep().evalMode(EvalMode.SUBSET).build());
    assertThat(evals.get(0).fields()).doesNotContainKey("require-power");
  }

  @Test
  void schemaFormOrdersFieldsAndWritesDefaults() {
    MatrixRow row = fullSweep(Fixtures.catalog(Fixtures.MULTI_NODE), sweep().build()).get(0);
    Map<String, Object> s = row.schemaForm();
    assertThat(List.copyOf(s.keySet()).subList(0, 3)).containsExactly("image", "model", "model-prefix");
    assertThat(s).containsEntry("eval-only", false).containsEntry("eval-all-concs", false).containsEntry("require-power", false);
    assertThat(((Map<?, ?>) s.get("prefill")).get("additional-settings")).isEqualTo(List.of());
  }

  @Test
  void aRowBuiltFromFieldsIsCheckedAgainstItsSchema() {
    assertThatThrownBy(() -> MatrixRow.of(Map.of("tp", 8)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("[V61.image] image: Field required");
    // a generated row round-trips through its fields
    Matrix m = fullSweep(Fixtures.catalog(Fixtures.singleNode(1024, "{tp: 8, conc-list: [4]}")), sweep().build());
    MatrixRow first = m.rows().get(0);
    assertThat(MatrixRow.of(first.fields()).toJson()).isEqualTo(first.toJson());
  }
}
