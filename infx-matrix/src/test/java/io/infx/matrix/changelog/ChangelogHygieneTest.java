package io.infx.matrix.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ChangelogHygieneTest {

  static final ChangelogHygiene H = ChangelogHygiene.reference();
  static final String URL = "https://github.com/SemiAnalysisAI/InferenceX/pull/";

  static String entry(String key, String link) {
    return "- config-keys:\n    - " + key + "\n  description:\n    - d\n  pr-link: " + link + "\n";
  }

  static final String BASE = entry("a", URL + "1") + "\n" + entry("b", URL + "2");

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String rule(Runnable r) {
    try {
      r.run();
    } catch (ValidationException e) {
      return e.violations().stream().map(Violation::ruleId).findFirst().orElseThrow();
    }
    throw new AssertionError("accepted");
  }

  @Test
  void aCleanAppendPasses() {
    ChangelogHygiene.Change c = H.check(b(BASE), b(BASE + "\n" + entry("c", "XXX")), "cl",
        OptionalInt.of(7));
    assertThat(c.additions()).hasSize(1);
    assertThat(c.corrections()).isZero();
    assertThat(H.check(b(BASE), b(BASE + "\n" + entry("c", URL + "3")), "cl", OptionalInt.empty())
        .additions()).hasSize(1);
  }

  @Test
  void fileInvariants() {
    assertThat(rule(() -> H.checkFile(b(BASE.strip()), "f"))).isEqualTo("changelog.hygiene.final-newline");
    assertThat(rule(() -> H.checkFile(b(BASE.replace("\n", "\r\n")), "f")))
        .isEqualTo("changelog.hygiene.cr");
    assertThat(rule(() -> H.checkFile(b(BASE.replace("    - d", "\t- d")), "f")))
        .isEqualTo("changelog.hygiene.tab");
    assertThat(rule(() -> H.checkFile(new byte[] {'-', ' ', (byte) 0xff, '\n'}, "f")))
        .isEqualTo("changelog.hygiene.utf8");
    assertThat(rule(() -> H.checkFile(b("a: 1\n"), "f"))).isEqualTo("changelog.hygiene.root");
    assertThat(rule(() -> H.checkFile(b(BASE + "  pr-link: again\n"), "f")))
        .isEqualTo("yaml.duplicate-key");
    assertThat(rule(() -> H.checkFile(b("-   config-keys: [a]\n    description: [d]\n"
        + "    pr-link: x\n"), "f"))).isEqualTo("changelog.hygiene.entry-count");
    assertThat(rule(() -> H.checkFile(b(BASE + "  bogus: 1\n"), "f")))
        .isEqualTo("changelog.hygiene.entry");
  }

  @Test
  void historyIsImmutableExceptCanonicalLinkCorrections() {
    String corrected = BASE.replace("pull/2", "pull/22");
    assertThat(H.check(b(BASE), b(corrected), "cl", OptionalInt.empty()).corrections()).isEqualTo(1);
    assertThat(rule(() -> H.check(b(BASE), b(BASE.replace("- d\n  pr-link: " + URL + "2",
        "- e\n  pr-link: " + URL + "2")), "cl", OptionalInt.empty())))
        .isEqualTo("changelog.hygiene.immutable");
    assertThat(rule(() -> H.check(b(BASE), b(BASE.replace(URL + "2", "XXX")), "cl",
        OptionalInt.empty()))).isEqualTo("changelog.hygiene.correction-link");
    assertThat(rule(() -> H.check(b(BASE), b(corrected + "\n" + entry("c", "XXX")), "cl",
        OptionalInt.of(3)))).isEqualTo("changelog.hygiene.mixed");
    assertThat(rule(() -> H.check(b(BASE), b(entry("a", URL + "1")), "cl", OptionalInt.empty())))
        .isEqualTo("changelog.hygiene.deleted");
    assertThat(rule(() -> H.check(b(BASE), b(BASE.replace("pr-link: " + URL + "2",
        "pr-link: '" + URL + "2'")), "cl", OptionalInt.empty())))
        .isEqualTo("changelog.hygiene.no-change");
  }

  @Test
  void prLinksOfNewEntries() {
    assertThat(rule(() -> H.checkAddedPrLink("XXX", OptionalInt.empty())))
        .isEqualTo("changelog.hygiene.pr-link");
    H.checkAddedPrLink(URL + "XXX", OptionalInt.of(5));
    H.checkAddedPrLink(URL + "5", OptionalInt.of(5));
    assertThat(rule(() -> H.checkAddedPrLink(URL + "6", OptionalInt.of(5))))
        .isEqualTo("changelog.hygiene.pr-link");
    ChangelogHygiene.forRepository("me/fork").checkAddedPrLink("https://github.com/me/fork/pull/1",
        OptionalInt.empty());
  }

  @Test
  void byteLayoutOfAppends() {
    String added = entry("c", "XXX");
    assertThat(rule(() -> H.checkByteLayout(b(BASE), b(BASE + added), 1, 0)))
        .isEqualTo("changelog.hygiene.separator");
    assertThat(rule(() -> H.checkByteLayout(b(BASE), b(BASE + "\n" + added + "\n"), 1, 0)))
        .isEqualTo("changelog.hygiene.trailing-blank");
    assertThat(rule(() -> H.checkByteLayout(b(BASE), b(BASE + "\n" + added + "\n\n"
        + entry("d", "XXX")), 2, 0))).isEqualTo("changelog.hygiene.separator");
    assertThat(rule(() -> H.checkByteLayout(b(BASE), b(" " + BASE + "\n" + added), 1, 0)))
        .isEqualTo("changelog.hygiene.history-bytes");
    H.checkByteLayout(b(BASE + "\n"), b(BASE + "\n" + added), 1, 0);
    H.checkByteLayout(b(BASE), b(BASE + "\n" + added + "\n" + entry("d", "XXX")), 2, 0);
    assertThat(rule(() -> H.checkByteLayout(b(BASE), b(BASE.replace("    - d", "    - e")), 0, 1)))
        .isEqualTo("changelog.hygiene.correction-lines");
    assertThat(rule(() -> H.checkByteLayout(b(BASE), b(BASE + "\n"), 0, 0)))
        .isEqualTo("changelog.hygiene.no-change");
  }
}
