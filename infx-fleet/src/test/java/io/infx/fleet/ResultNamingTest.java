package io.infx.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.infx.core.InfxException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ResultNamingTest {

  // Expected compactions below were computed with an independent Python rendering of the newer
  // reference rule (hashlib.sha256(utf8).hexdigest()[:20], byte cut, errors='ignore' decode).

  @Test
  void compactLeavesShortComponentsAlone() {
    assertThat(ResultNaming.compact("dsr1_1k1k", 9)).isEqualTo("dsr1_1k1k");
  }

  @Test
  void compactNeverCutsInsideAMultiByteCharacter() {
    // 25-byte budget: 4 bytes of identity = "ab" + the first byte of '€' → the partial euro is dropped.
    assertThat(ResultNaming.compact("ab€cd€ef€gh€ij€kl€mn€op€qr€st€uv€", 25))
        .isEqualTo("ab-7ae770fa1a3c9dc6d9bc");
  }

  @Test
  void compactRejectsBudgetsWithoutRoomForTheHash() {
    assertThatThrownBy(() -> ResultNaming.compact("ééééé", 9))
        .isInstanceOf(InfxException.class).hasMessageContaining("9-byte budget");
  }

  @Test
  void componentsMayNotHoldPathSeparators() {
    assertThatThrownBy(() -> ResultNaming.compact("a/b", 100)).isInstanceOf(InfxException.class)
        .hasMessageContaining("path separator");
    assertThatThrownBy(() -> ResultNaming.compact("", 100)).isInstanceOf(InfxException.class);
  }

  @Test
  void compactPointNameKeepsTheNumericTailReadable() {
    String stem = "dsr1_8k1k_fp8_sglang-disagg_prefill-tp8-pp1-dcp1-pcp1-ep8-dptrue-nw2_decode-tp8-pp1-dcp1-pcp1-ep8-d-1eadf5f99293b9581107";
    String config = "dsr1-isl8192-osl1024-" + "x".repeat(150);
    String name = ResultNaming.pointFilename(stem, config, 1024, 24, OptionalInt.of(16), OptionalInt.of(8),
        FingerprintPolicy.COMPACT_SHA256);
    assertThat(name).isEqualTo(stem + "_dsr1-isl8192-osl1024-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
        + "-7afe939f902e962fda07_conc1024_gpus_24_ctx_16_gen_8.json");
    assertThat(("power_validation_" + name + ".tmp")
        .getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
    // The legacy rule has no budget.
    assertThat(ResultNaming.pointFilename("S", config, 8, 16, OptionalInt.empty(), OptionalInt.empty(),
        FingerprintPolicy.LEGACY_PREFIX16)).isEqualTo("S_" + config + "_conc8_gpus_16.json");
  }

  @Test
  void agenticPointNames() {
    assertThat(ResultNaming.agenticPointFilename("RF", 16)).isEqualTo("RF_conc16.json");
  }

  @Test
  void legacyFingerprintKeepsSixteenCharactersAndNoBudget() {
    String base = "x".repeat(300);
    assertThat(ResultNaming.withFingerprint(base, "0123456789abcdef0123", FingerprintPolicy.LEGACY_PREFIX16))
        .isEqualTo(base + "_recipe-0123456789abcdef");
    assertThat(ResultNaming.withFingerprint(base, "", FingerprintPolicy.LEGACY_PREFIX16)).isEqualTo(base);
  }

  @Test
  void compactIsBoundedPrefixPreservingAndIdentityOnShortInputs() {
    // Strings of 1-, 2-, 3- and 4-byte UTF-8 characters.
    String[] alphabet = {"a", "_", "-", "9", "\u00e9", "\u20ac", "\uD834\uDD1E"};
    qt().forAll(lists().of(integers().between(0, alphabet.length - 1)).ofSizeBetween(1, 200)
            .map(l -> l.stream().map(i -> alphabet[i]).collect(java.util.stream.Collectors.joining())),
            integers().between(21, 300))
        .checkAssert((s, budget) -> {
          String c = ResultNaming.compact(s, budget);
          int len = s.getBytes(StandardCharsets.UTF_8).length;
          if (len <= budget) {
            assertThat(c).isEqualTo(s);
          } else {
            assertThat(c.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(budget);
            assertThat(c).matches("(?s).*-[0-9a-f]{20}");
            assertThat(s).startsWith(c.substring(0, c.length() - 21));
            // Deterministic: same input, same name.
            assertThat(ResultNaming.compact(s, budget)).isEqualTo(c);
          }
        });
  }
}
