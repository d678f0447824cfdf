package io.infx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

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
}
