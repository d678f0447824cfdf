package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.tree.Source;
import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.RunnerInventory;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * One test per master-config rule (spec §2.1–§2.7): each input breaks exactly one rule and must be
 * rejected with that rule's id, a located violation and the reference's wording.
 */
class ValidationRulesTest {

  private static final String SN_HEAD = """
      ex:
        image: "img:1"
        model: org/model
        model-prefix: mdl
        precision: fp8
        framework: sglang
        runner: h200
        multinode: false
      """;
  private static final String MN_HEAD = """
      ex:
        image: "img:2"
        model: org/model
        model-prefix: mdl
        precision: fp4
        framework: dynamo-trt
        runner: cluster:gb200-nv
        multinode: true
      """;
  private static final String AG_HEAD = """
      ex:
        image: "img:3"
        model: org/model
        model-prefix: mdl
        precision: fp4
        framework: vllm
        runner: cluster:b200-nscale
        multinode: false
      """;
  private static final String PF = "prefill: {num-worker: 1, tp: 4, ep: 4, dp-attn: true}";
  private static final String DC = "decode: {num-worker: 1, tp: 8, ep: 8, dp-attn: true}";

  private static String sn(String entry) {
    return SN_HEAD + "  scenarios:\n    fixed-seq-len:\n    - isl: 8192\n      osl: 1024\n      search-space:\n"
        + "      - " + entry + "\n";
  }

  private static String mn(String top, String entry) {
    return MN_HEAD + top + "  scenarios:\n    fixed-seq-len:\n    - isl: 8192\n      osl: 1024\n"
        + "      search-space:\n      - " + entry + "\n";
  }

  private static String ag(String block, String entry) {
    return AG_HEAD + "  scenarios:\n    agentic-coding:\n    - " + block + "search-space:\n      - " + entry + "\n";
  }

  static Stream<Arguments> rules() {
    return Stream.of(
        Arguments.of(SN_HEAD + "  gpu-count: 8\n" + sn("{tp: 8, conc-list: [4]}").substring(SN_HEAD.length()),
            "V1.unknown-key", "Extra inputs are not permitted: unknown key 'gpu-count'"),
        Arguments.of(sn("{tp: 8, dp_attn: true, conc-list: [4]}"), "V1.unknown-key",
            "write 'dp-attn' instead of 'dp_attn'"),
        Arguments.of(sn("{tp: 8, dp_attn: true, dp-attn: false, conc-list: [4]}"), "V1.unknown-key",
            "it repeats 'dp-attn' in snake_case"),
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("  image: \"img:1\"\n", ""), "V5.field-required",
            "Field required: 'image' is missing"),
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("  multinode: false\n", ""), "V5.field-required",
            "Field required: 'multinode' is missing"),
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("multinode: false", "multinode: false\n  disagg: true"),
            "V6.single-node-disagg", "Input should be False"),
        Arguments.of(SN_HEAD + "  scenarios: {}\n", "V7.scenario-required",
            "At least one scenario type must be specified"),
        Arguments.of(SN_HEAD + "  scenarios:\n    fixed-seq-len: []\n", "V7.scenario-required",
            "At least one scenario type must be specified"),
        Arguments.of(SN_HEAD + "  scenarios:\n    chat: []\n", "V1.unknown-key", "unknown key 'chat'"),
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("    - isl: 8192\n", "    -\n"), "V5.field-required",
            "'isl' is missing"),
        Arguments.of(sn("{tp: 8, conc-list: [4], conc-start: 1, conc-end: 4}"), "V9.conc-form",
            "Cannot specify both 'conc-list' list and 'conc-start'/'conc-end'"),
        Arguments.of(sn("{tp: 8, conc-start: 4}"), "V9.conc-form",
            "Must specify either 'conc-list' list or both 'conc-start' and 'conc-end'"),
        Arguments.of(sn("{tp: 8, conc-start: 0, conc-end: 4}"), "V10.conc-positive",
            "Input 'conc-start' and 'conc-end' must be greater than 0."),
        Arguments.of(sn("{tp: 8, conc-start: 64, conc-end: 4}"), "V11.conc-order",
            "'conc-start' (64) must be <= 'conc-end' (4)."),
        Arguments.of(sn("{tp: 8, conc-list: [4, -1]}"), "V12.conc-list-positive",
            "Input 'conc-list' entries must be greater than 0."),
        Arguments.of(sn("{tp: 8, pp: 0, conc-list: [4]}"), "V13.positive-size", "Input should be greater than 0"),
        Arguments.of(sn("{tp: 8, pcp-size: -2, conc-list: [4]}"), "V13.positive-size",
            "Input should be greater than 0"),
        Arguments.of(sn("{tp: 8, pp: \"2\", conc-list: [4]}"), "Q2.strict-type", "Input should be a valid integer"),
        Arguments.of(sn("{tp: 8.0, conc-list: [4]}"), "Q2.strict-type", "Input should be a valid integer"),
        Arguments.of(sn("{tp: 8, dcp-size: 3, conc-list: [4]}"), "V14.dcp-divides-tp",
            "'tp' (8) must be divisible by 'dcp-size' (3)"),
        Arguments.of(sn("{tp: 8, spec-decoding: eagle, conc-list: [4]}"), "V15.spec-decoding",
            "Input should be 'mtp', 'draft_model' or 'none'"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n",
            "{conc-list: [4], prefill: {num-worker: 1, tp: 4, dp-attn: true}, " + DC + "}"),
            "V5.field-required", "'ep' is missing"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n", "{conc-list: [4], " + PF + "}"),
            "V17.multinode-topology", "Multinode search-space entries must specify either worker or both prefill and decode"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n",
            "{conc-list: [4], prefill: {num-worker: 1, tp: 4, ep: 4, dp-attn: true, hardware: b200}, " + DC + "}"),
            "V18.hardware-pair", "'hardware' must be specified for both 'prefill' and 'decode', or neither"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n",
            "{conc-list: [4], prefill: {num-worker: 1, tp: 4, ep: 4, dp-attn: true, hardware: ''}, "
                + "decode: {num-worker: 1, tp: 8, ep: 8, dp-attn: true, hardware: ''}}"),
            "V18.hardware-name", "String should have at least 1 character"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n",
            "{conc-list: [4], prefill: {num-worker: 1, tp: 4, ep: 4, dp-attn: true, "
                + "additional-settings: [\"CONFIG_FILE=r.yaml\"]}, " + DC + "}"),
            "V19.recipe-setting", "Recipe selection belongs in srt-recipe/eval-srt-recipe"),
        Arguments.of(ag("dram-utilization: 0.5\n      ", "{tp: 4, kv-offloading: none, conc-list: [1]}")
            .replace("cluster:b200-nscale", "b200"), "V20.agentic-cluster-runner",
            "Agentic master configs must use a 'cluster:<name>' runner"),
        Arguments.of(ag("", "{kv-offloading: none, conc-list: [1]}"), "V21.agentic-shape",
            "Agentic search-space entries must specify exactly one of tp, worker, or both prefill and decode"),
        Arguments.of(ag("", "{tp: 4, conc-list: [1]}"), "V22.agentic-offload-mode",
            "Single-node agentic search-space entries must specify kv-offloading"),
        Arguments.of(ag("", "{tp: 4, kv-offloading: ssd, conc-list: [1]}"), "V24.kv-offloading",
            "Input should be 'none' or 'dram'"),
        Arguments.of(ag("", "{tp: 4, kv-offloading: none, kv-offload-backend: {name: x}, conc-list: [1]}"),
            "V26.backend-without-offload", "kv-offload-backend can only be set when kv-offloading is not 'none'"),
        Arguments.of(ag("dram-utilization: 0.5\n      ", "{tp: 4, kv-offloading: dram, conc-list: [1]}"),
            "V27.backend-required", "kv-offload-backend is required when kv-offloading is 'dram'"),
        Arguments.of(ag("dram-utilization: 1.5\n      ", "{tp: 4, kv-offloading: none, conc-list: [1]}"),
            "V28.utilization-range", "Input should be less than or equal to 1"),
        Arguments.of(ag("dram-utilization: 0\n      ", "{tp: 4, kv-offloading: none, conc-list: [1]}"),
            "V28.utilization-range", "Input should be greater than 0"),
        Arguments.of(ag("", "{tp: 4, kv-offloading: dram, kv-offload-backend: {name: x}, conc-list: [1]}"),
            "V29.dram-needs-utilization", "kv-offloading='dram' requires dram-utilization"),
        Arguments.of(ag("trace-source: weka\n      ", "{tp: 4, kv-offloading: none, conc-list: [1]}"),
            "V1.unknown-key", "unknown key 'trace-source'"),
        Arguments.of(ag("", "{tp: 4, kv-offloading: none, duration: 60, conc-list: [1]}"),
            "V1.unknown-key", "unknown key 'duration'"),
        Arguments.of(sn("{tp: 8, router: {name: r}, conc-list: [4]}"), "V5.field-required", "'version' is missing"),
        Arguments.of(sn("{tp: 8, router: {name: r, version: 1.0}, conc-list: [4]}"), "Q2.strict-type",
            "Input should be a valid string"),
        Arguments.of(sn("{tp: 8, router: {name: r, version: \"image:lmsysorg/sglang:v0.5\"}, conc-list: [4]}"),
            "V32.image-version", "not an image reference"),
        Arguments.of(ag("", "{tp: 4, kv-offloading: dram, kv-offload-backend: {name: ''}, conc-list: [1]}"),
            "V33.backend", "String should have at least 1 character"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: ''\n", "{conc-list: [4], " + PF + ", " + DC + "}"),
            "V34.transfer-name", "String should have at least 1 character"),
        Arguments.of(sn("{tp: 8, router: {name: r, version: '1'}, conc-list: [4]}")
            .replace("multinode: false", "multinode: false\n  router: {name: r, version: '1'}"),
            "V35.component-scope", "router must be declared either at the top level or in search-space entries, not both"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n",
            "{conc-list: [4], kv-p2p-transfer: mooncake, " + PF + ", " + DC + "}"),
            "V35.component-scope", "kv-p2p-transfer must be declared either at the top level or in search-space entries"),
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("multinode: false", "multinode: false\n  kv-p2p-transfer: nixl"),
            "V1.unknown-key", "unknown key 'kv-p2p-transfer'"),
        // issue 11: model-prefix feeds exp-name and RESULT_FILENAME, so '../x' escaped --out
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("model-prefix: mdl", "model-prefix: ../../escape"),
            "infx.file-name-part", "must not contain '/'"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n", "{conc-list: [4], " + PF + ", " + DC + "}")
            .replace("framework: dynamo-trt", "framework: a\\\\b"),
            "infx.file-name-part", "must not contain '/'"),
        Arguments.of(ag("", "{tp: 4, kv-offloading: none, kv-p2p-transfer: nixl, conc-list: [1]}"),
            "V36.transfer-multinode-only", "kv-p2p-transfer is only valid when multinode=true"),
        Arguments.of(mn("  disagg: true\n", "{conc-list: [4], " + PF + ", " + DC + "}"),
            "V37.disagg-transfer", "disagg=true requires kv-p2p-transfer at the top level or in every search-space entry"),
        Arguments.of(ag("", "{kv-offloading: none, conc-list: [1], num-nodes: 1, worker: {tp: 4, ep: 1, dp-attn: false}}"),
            "V38.single-node-scope", "Single-node search-space entries must specify tp topology"),
        Arguments.of(mn("  disagg: true\n  kv-p2p-transfer: nixl\n",
            "{conc-list: [4], num-nodes: 2, worker: {tp: 8, ep: 8, dp-attn: true}}"),
            "V39.disagg-scope", "disagg=true requires prefill and decode and rejects worker and num-nodes"),
        Arguments.of(mn("  disagg: false\n", "{conc-list: [4], worker: {tp: 8, ep: 8, dp-attn: true}}"),
            "V40.aggregate-scope", "disagg=false requires num-nodes in every search-space entry"),
        Arguments.of(mn("  disagg: false\n", "{conc-list: [4], num-nodes: 0, worker: {tp: 8, ep: 8, dp-attn: true}}"),
            "V13.positive-size", "Input should be greater than 0"),
        Arguments.of(sn("{tp: 8, conc-list: [4]}").replace("osl: 1024", "osl: 1024\n      require-power: 1"),
            "Q2.strict-type", "Input should be a valid boolean"),
        Arguments.of(sn("{tp: 8, srt-recipe: '', conc-list: [4]}"), "V42.recipe-selector",
            "String should have at least 1 character"));
  }

  @ParameterizedTest(name = "{1}: {2}")
  @MethodSource("rules")
  void eachRuleIsReportedWithItsIdLocationAndWording(String yaml, String ruleId, String fragment) {
    assertThatThrownBy(() -> Fixtures.catalog(yaml))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG_VALIDATION);
          assertThat(e.violations()).anySatisfy(v -> {
            assertThat(v.ruleId()).isEqualTo(ruleId);
            assertThat(v.message()).contains(fragment);
            assertThat(v.location()).isPresent();
            assertThat(v.pointer()).startsWith("/ex");
          });
        });
  }

  @Test
  void everyViolationOfEveryConfigIsReportedAtOnce() {
    String two = sn("{tp: 8, pp: 0, conc-list: [4]}") + sn("{tp: 8, dcp-size: 3, conc-list: [0]}").replace("ex:", "ex2:");
    assertThatThrownBy(() -> Fixtures.catalog(two))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(v -> v.ruleId())
            .containsExactlyInAnyOrder("V13.positive-size", "V14.dcp-divides-tp", "V12.conc-list-positive"));
  }

  @Test
  void fileLevelRulesNameTheFile() {
    assertThatThrownBy(() -> Catalog.load(List.of(Source.text("a.yaml", "- x\n"))))
        .hasMessageContaining("Config file 'a.yaml' must contain a dictionary")
        .isInstanceOfSatisfying(InfxException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG_LOAD));
    assertThatThrownBy(() -> Catalog.load(List.of(Source.text("a.yaml", "12345: {}\n"))))
        .hasMessageContaining("Configuration key 12345 in 'a.yaml' must be a string");
    assertThatThrownBy(() -> Catalog.load(List.of(Source.text("a.yaml", "a-*-b: {}\n"))))
        .hasMessageContaining("Wildcard '*' is not allowed in master config keys: 'a-*-b'");
    assertThatThrownBy(() -> Catalog.load(List.of(Source.text("a.yaml", "a-?-b: {}\n"))))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isEqualTo("Q7.key-glob"));
    String one = sn("{tp: 8, conc-list: [4]}");
    assertThatThrownBy(() -> Catalog.load(List.of(Source.text("a.yaml", one), Source.text("b.yaml", one))))
        .hasMessageContaining("Duplicate configuration keys found in 'b.yaml': ex");
    assertThatThrownBy(() -> Catalog.load(List.of(Source.text("a.yaml", "a: 1\na: 2\n"))))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.violations().get(0).ruleId()).isEqualTo("yaml.duplicate-key"));
  }

  static Stream<Arguments> runnerRules() {
    String labels = "labels:\n  h100: [h100-a_00]\n  cluster:h100-a: [h100-a_00]\n";
    String cluster = "clusters:\n  h100-a:\n    gpus-per-node: 8\n    arch: x86_64\n    scheduler: slurm\n"
        + "    slurm: {partition: main, exclusive: false, volumes: {hf: {path: /data/hf}}}\n";
    return Stream.of(
        Arguments.of(cluster, "V43.labels", "Runner config must define a labels mapping"),
        Arguments.of("labels:\n  h100: h100-a_00\n" + cluster, "V44.label-list", "Runner config entry 'h100' must be a list, got str"),
        Arguments.of("labels:\n  h100: []\n" + cluster, "V44.label-list", "Runner config entry 'h100' cannot be an empty list"),
        Arguments.of("labels:\n  h100: [1]\n" + cluster, "V44.label-list", "must contain only strings"),
        Arguments.of("labels:\n  h100: [h100-a_00]\n" + cluster, "V46.cluster-labels", "clusters without a cluster:<id> label: ['h100-a']"),
        Arguments.of(labels + "  cluster:zz: [zz_0]\n" + cluster, "V46.cluster-labels", "cluster labels without a clusters entry: ['zz']"),
        Arguments.of(labels + "  h200: [h200-z_09]\n" + cluster, "V46.runner-cluster", "runners without a cluster:<id> label: ['h200-z_09']"),
        Arguments.of(labels + cluster.replace("gpus-per-node: 8", "gpus-per-node: 0"), "V46.node-facts", "Input should be greater than 0"),
        Arguments.of(labels + cluster.replace("x86_64", "riscv64"), "Q2.strict-type", "Input should be 'x86_64' or 'aarch64'"),
        Arguments.of(labels + cluster.replace("scheduler: slurm", "scheduler: kubernetes"), "V46.scheduler",
            "scheduler must be one of ['slurm'], got 'kubernetes'"),
        Arguments.of(labels + cluster.replace("    slurm: {partition: main, exclusive: false, volumes: {hf: {path: /data/hf}}}\n", ""),
            "V46.scheduler", "scheduler 'slurm' needs its 'slurm' record"),
        Arguments.of(labels + cluster + "    env: {NCCL_IB_HCA: 'a,b'}\n", "V46.env", "env values cannot contain ','"),
        Arguments.of(labels + cluster + "    models: {entries: {Tiny: {root: scratch, dir: Tiny}}}\n", "V46.model-volume",
            "model entry 'Tiny' uses unknown volume 'scratch'"),
        Arguments.of(labels + cluster.replace("/data/hf", "data/hf"), "V46.cluster-path", "cluster path must be absolute"),
        Arguments.of(labels + cluster.replace("partition: main,", "partition: main, partitions: [b1],"), "V46.partition",
            "cluster 'h100-a' default partition is not allowed"),
        Arguments.of(labels + cluster.replace("exclusive: false", "exclusive: false, srun-args: [-x]"), "V46.long-option",
            "expected a long option"),
        Arguments.of(labels + cluster.replace("exclusive: false", "exclusive: false, gres: 'gpu:8'"), "V46.gres",
            "gres must contain the {gpus} placeholder"),
        // infx extension: adapter (shape here, registration in infx-fleet)
        Arguments.of(labels + cluster + "    adapter: 'my adapter'\n", "V46.adapter-name",
            "adapter must be an adapter id (a letter or digit, then letters, digits, '.', '_' or '-'), got 'my adapter'"),
        Arguments.of(labels + cluster + "    adapter: 7\n", "Q2.strict-type", "Input should be a valid string"),
        Arguments.of(labels + cluster.replace("    scheduler: slurm\n", "    adapter: acme\n"), "V46.scheduler",
            "a 'slurm' record needs scheduler 'slurm'"),
        Arguments.of(labels + ADAPTER_ONLY.replace("adapter: acme", "adapter: null"), "V46.scheduler",
            "a cluster needs a scheduler or an adapter"),
        Arguments.of(labels + ADAPTER_ONLY + "    models: {entries: {Tiny: {root: hf, dir: Tiny}}}\n", "V46.model-volume",
            "model entry 'Tiny' uses unknown volume 'hf'"));
  }

  /** A cluster launched by an adapter of its own: no scheduler, no scheduler record. */
  static final String ADAPTER_ONLY = "clusters:\n  h100-a:\n    gpus-per-node: 8\n    arch: x86_64\n    adapter: acme\n";

  @Test
  void aClusterMayNameAnAdapterWithOrWithoutAScheduler() {
    String labels = "labels:\n  h100: [h100-a_00]\n  cluster:h100-a: [h100-a_00]\n";
    RunnerInventory only = RunnerInventory.load(Source.text("runners.yaml", labels + ADAPTER_ONLY));
    Cluster c = only.clusterOf("cluster:h100-a").orElseThrow();
    assertThat(c.adapter()).contains("acme");
    assertThat(c.scheduler()).isEmpty();
    // the value's own place (line 8 = the adapter line, column 14 = after "    adapter: ")
    assertThat(c.adapterOrigin().orElseThrow().location()).isEqualTo(new io.infx.core.Location("runners.yaml", 8, 14));
    assertThat(c.adapterOrigin().orElseThrow().pointer()).isEqualTo("/clusters/h100-a/adapter");

    String withSlurm = labels + "clusters:\n  h100-a:\n    gpus-per-node: 8\n    arch: x86_64\n    scheduler: slurm\n"
        + "    adapter: my-slurm.v2\n    slurm: {partition: main, exclusive: false, volumes: {hf: {path: /data/hf}}}\n";
    Cluster both = RunnerInventory.load(Source.text("runners.yaml", withSlurm)).clusterOf("cluster:h100-a").orElseThrow();
    assertThat(both.adapter()).contains("my-slurm.v2");
    assertThat(both.scheduler()).contains("slurm");
    assertThat(both.slurm()).isPresent();
  }

  @Test
  void withoutAdapterAMissingSchedulerIsTheReferencesFieldRequired() {
    String yaml = "labels:\n  h100: [h100-a_00]\n  cluster:h100-a: [h100-a_00]\n"
        + "clusters:\n  h100-a:\n    gpus-per-node: zero\n    arch: x86_64\n";
    assertThatThrownBy(() -> RunnerInventory.load(Source.text("runners.yaml", yaml)))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          // both in one pass, as pydantic reports them: the bad field and the missing one
          assertThat(e.violations()).extracting(v -> v.ruleId() + " " + v.message()).containsExactly(
              "V5.field-required Field required: 'scheduler' is missing",
              "Q2.strict-type Input should be a valid integer");
          assertThat(e.violations().get(0).pointer()).isEqualTo("/clusters/h100-a/scheduler");
        });
    String nullScheduler = yaml.replace("zero", "8") + "    scheduler: null\n";
    assertThatThrownBy(() -> RunnerInventory.load(Source.text("runners.yaml", nullScheduler)))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.violations())
            .extracting(v -> v.ruleId() + " " + v.message()).containsExactly("Q2.strict-type Input should be a valid string"));
  }

  @ParameterizedTest(name = "{1}: {2}")
  @MethodSource("runnerRules")
  void eachRunnerFileRuleIsReported(String yaml, String ruleId, String fragment) {
    assertThatThrownBy(() -> RunnerInventory.load(Source.text("runners.yaml", yaml)))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.kind()).isEqualTo(ErrorKind.RUNNER_VALIDATION);
          assertThat(e.violations()).anySatisfy(v -> {
            assertThat(v.ruleId()).isEqualTo(ruleId);
            assertThat(v.message()).contains(fragment);
            assertThat(v.location()).isPresent();
          });
        });
  }

  @Test
  void theFixtureRunnerFileIsValid() {
    RunnerInventory r = Fixtures.runners();
    assertThat(r.runnersOf("h200")).containsExactly("h200-cw_00", "h200-cw_01", "h200-nb_0");
    assertThat(r.clusterOf("cluster:gb200-nv").orElseThrow().gpusPerNode()).isEqualTo(4);
    assertThat(r.clusterOf("h200")).isEmpty();
  }
}
