package io.infx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.quicktheories.QuickTheory.qt;

import io.infx.core.Location;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.config.KvOffloading;
import io.infx.testing.GeneratedConfig.Disaggregated;
import io.infx.testing.GeneratedConfig.Entry;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.config.SingleNodeEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigMutatorsTest {

  /** A team's own file: two entries, the first with ep and dp-attn, the second a conc range. */
  static final Source ACME = Source.text("acme.yaml", """
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
            - {tp: 2, ep: 2, dp-attn: true, conc-list: [4, 8]}
            - {tp: 4, conc-start: 1, conc-end: 16}
      """);

  static SingleNodeEntry entry(Catalog c, int i) {
    return (SingleNodeEntry) c.configs().values().iterator().next().allEntries().get(i);
  }

  @Test
  void theVariantsAreOneChangeEachInDocumentOrder() {
    List<ConfigVariant> all = ConfigMutators.allVariants(ACME);
    String e0 = "acme-fp8-h100-vllm /scenarios/fixed-seq-len/0/search-space/0: ";
    String e1 = "acme-fp8-h100-vllm /scenarios/fixed-seq-len/0/search-space/1: ";
    assertThat(all).extracting(ConfigVariant::description).containsExactly(
        e0 + "double tp", e0 + "double conc", e0 + "drop ep", e0 + "drop dp-attn",
        e1 + "double tp", e1 + "double conc");

    Catalog original = Catalog.load(List.of(ACME));
    Catalog doubledTp = all.get(0).catalog();
    assertThat(entry(doubledTp, 0).tp()).isEqualTo(4);
    assertThat(entry(doubledTp, 1)).isEqualTo(entry(original, 1));
    assertThat(entry(all.get(1).catalog(), 0).concList()).contains(List.of(8, 16));
    assertThat(entry(all.get(2).catalog(), 0).ep()).isEmpty();
    assertThat(entry(all.get(2).catalog(), 0).dpAttn()).isEqualTo(entry(original, 0).dpAttn());
    assertThat(entry(all.get(5).catalog(), 1).concEnd()).contains(32);
  }

  @Test
  void everyVariantOfAValidFileStillValidatesAndExpands() {
    qt().withFixedSeed(1).withExamples(30).forAll(ConfigMutators.variantsOf(ACME)).checkAssert(v -> {
      Matrix m = Generator.fullSweep(v.catalog(), InfxGeneratorsTest.RUNNERS, FullSweepOptions.defaults());
      InfxAssertions.assertThat(m).isNotEmpty().allRowsSatisfy(row -> assertThat(row.runner()).isEqualTo("h100"));
    });
  }

  @Test
  void aFileWithoutEntriesHasNoVariants() {
    Source empty = Source.text("x.yaml", "a: {image: x}\n");
    assertThat(ConfigMutators.allVariants(empty)).isEmpty();
    assertThatThrownBy(() -> ConfigMutators.variantsOf(empty)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no search-space entry to vary");
  }

  static final Pattern ENTRY = Pattern.compile("^\\S+ /scenarios/(\\S+)/(\\d+)/search-space/(\\d+): (.+)$");
  static final Pattern BLOCK = Pattern.compile("^\\S+ /scenarios/(\\S+)/(\\d+): (.+)$");

  /**
   * The rule a variant of a generated config breaks, from the typed config alone (generated
   * configs write no router or dcp-size): empty when the variant is still valid.
   */
  static Optional<String> brokenRule(GeneratedConfig c, String description) {
    Matcher m = ENTRY.matcher(description);
    if (m.matches()) {
      boolean agentic = m.group(1).equals("agentic-coding");
      Entry e = (agentic ? c.agenticBlocks().get(Integer.parseInt(m.group(2))).searchSpace()
          : c.blocks().get(Integer.parseInt(m.group(2))).searchSpace()).get(Integer.parseInt(m.group(3)));
      boolean dram = e.kvOffload().map(kv -> kv.mode() == KvOffloading.DRAM).orElse(false);
      return switch (m.group(4)) {
        case "drop prefill", "drop decode" -> Optional.of(agentic ? "V21.agentic-shape" : "V17.multinode-topology");
        case "drop num-nodes" -> Optional.of("V40.aggregate-scope");
        case "drop kv-offload-backend" -> Optional.of("V27.backend-required");
        case "drop kv-offloading" -> e instanceof GeneratedConfig.OnOneNode ? Optional.of("V22.agentic-offload-mode")
            : dram ? Optional.of("V25.backend-needs-mode") : Optional.empty();
        default -> Optional.empty(); // doubled sizes and optional keys load (node fit is a generation rule)
      };
    }
    Matcher b = BLOCK.matcher(description);
    if (b.matches()) { // drop dram-utilization
      boolean dram = c.agenticBlocks().get(Integer.parseInt(b.group(2))).searchSpace().stream()
          .anyMatch(e -> e.kvOffload().map(kv -> kv.mode() == KvOffloading.DRAM).orElse(false));
      return dram ? Optional.of("V29.dram-needs-utilization") : Optional.empty();
    }
    return description.endsWith(": drop kv-p2p-transfer") ? Optional.of("V37.disagg-transfer") : Optional.empty();
  }

  /** The text from a location (1-based line and column) to the end of its line. */
  static String textAt(String yaml, Location l) {
    String line = yaml.lines().toList().get(l.line() - 1);
    return line.substring(l.column() - 1);
  }

  @Test
  void variantsOfGeneratedConfigsLoadOrFailLocatedAtWhatTheyChanged() {
    Map<String, Integer> broken = new TreeMap<>();
    qt().withFixedSeed(21).withExamples(60).forAll(InfxGenerators.masterConfigs(InfxGeneratorsTest.RUNNERS))
        .checkAssert(c -> {
          List<ConfigVariant> variants = ConfigMutators.allVariants(c.source("gen.yaml"));
          assertThat(variants).as("every entry has a conc to double").isNotEmpty();
          for (ConfigVariant v : variants) {
            ValidationException e = catchThrowableOfType(ValidationException.class, v::catalog);
            Optional<String> rule = brokenRule(c, v.description());
            if (rule.isEmpty()) {
              assertThat(e).as(v.description() + "\n" + v.yaml()).isNull();
              continue;
            }
            broken.merge(rule.get(), 1, Integer::sum);
            InfxAssertions.assertThat(e).as(v.description()).hasViolation(rule.get());
            for (Violation violation : e.violations()) {
              assertThat(violation.pointer()).as(v.description()).startsWith("/" + c.key());
              Location l = violation.location().orElseThrow();
              assertThat(l.source()).isEqualTo("variant.yaml");
              // the location points at the key the pointer names, or at the first key of the entry
              String last = violation.pointer().substring(violation.pointer().lastIndexOf('/') + 1);
              String at = textAt(v.yaml(), l);
              if (last.matches("\\d+")) {
                assertThat(at).as(v.description() + " at " + l).matches("^[a-z-]+:.*");
              } else {
                // the key itself, its scalar value (same line, after the key), or the first key of its
                // mapping value (the line under the key)
                List<String> lines = v.yaml().lines().toList();
                String before = lines.get(l.line() - 1).substring(0, l.column() - 1).strip();
                assertThat(at.startsWith(last + ":") || before.endsWith(last + ":")
                    || lines.get(l.line() - 2).strip().equals(last + ":"))
                    .as(v.description() + " at " + l + ": " + at).isTrue();
              }
            }
          }
        });
    assertThat(broken).containsOnlyKeys("V17.multinode-topology", "V21.agentic-shape", "V22.agentic-offload-mode",
        "V25.backend-needs-mode", "V27.backend-required", "V29.dram-needs-utilization", "V37.disagg-transfer",
        "V40.aggregate-scope");
  }

  @Test
  void aMultiNodeVariantNamesTheWorkerItChanged() {
    GeneratedConfig c = new GeneratedConfig("p-fp8-h100-dynamo-sglang", "img:1", "org/m", "p", "fp8",
        "dynamo-sglang", "h100", GeneratedConfig.NodeLayout.DISAGGREGATED, Optional.of("nixl"),
        List.of(new GeneratedConfig.Block(8192, 1024, List.of(new Disaggregated(new GeneratedConfig.WorkerPool(1, 4, 4, true),
            new GeneratedConfig.WorkerPool(2, 8, 1, false), Optional.empty(), Optional.empty(),
            GeneratedConfig.Conc.list(List.of(4, 64)))))), List.of());
    String e0 = "p-fp8-h100-dynamo-sglang /scenarios/fixed-seq-len/0/search-space/0: ";
    List<ConfigVariant> all = ConfigMutators.allVariants(c.source("p.yaml"));
    assertThat(all).extracting(ConfigVariant::description).containsExactly(
        "p-fp8-h100-dynamo-sglang: drop kv-p2p-transfer",
        e0 + "double prefill tp", e0 + "double prefill num-worker", e0 + "double decode tp",
        e0 + "double decode num-worker", e0 + "double conc", e0 + "drop prefill", e0 + "drop decode");
    io.infx.matrix.config.MultiNodeEntry doubled = (io.infx.matrix.config.MultiNodeEntry) all.get(4).catalog()
        .configs().values().iterator().next().allEntries().get(0);
    assertThat(doubled.decode().orElseThrow().numWorker()).isEqualTo(4);
    assertThat(doubled.prefill().orElseThrow().numWorker()).isEqualTo(1);
    // dropping decode breaks V17, located at the entry's first key in the variant's text
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> all.get(7).catalog());
    int[] entry = InfxAssertionsTest.position(all.get(7).yaml(), "prefill:");
    InfxAssertions.assertThat(e).hasViolation("V17.multinode-topology").at("variant.yaml", entry[0], entry[1]);
  }
}
