package io.infx.matrix.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.strings;

import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.matrix.changelog.internal.LineDiff;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChangelogDiffTest {

  private static final String BASE = "- config-keys:\n    - a\n  description:\n    - d\n"
      + "  pr-link: XXX\n";
  private static final String ADDED = "- config-keys:\n    - b\n  description:\n    - e\n"
      + "  pr-link: XXX\n";

  @Test
  void appendedLinesAreTheNewEntriesWithHeadLineNumbers() {
    ChangelogDiff d = ChangelogDiff.between(BASE, BASE + "\n" + ADDED, "perf-changelog.yaml");
    assertThat(d.added()).extracting(DiffLine::number).containsExactly(6, 7, 8, 9, 10, 11);
    assertThat(d.addedText()).isEqualTo("\n" + ADDED.substring(0, ADDED.length() - 1));
    List<ChangelogEntry> entries = d.entries(false);
    assertThat(entries).singleElement().extracting(ChangelogEntry::configKeys)
        .isEqualTo(List.of("b"));
  }

  @Test
  void anEditedLineIsADeletion() {
    String head = BASE.replace("- d", "- changed") + ADDED;
    assertThatThrownBy(() -> ChangelogDiff.between(BASE, head, "perf-changelog.yaml"))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("[changelog.deletion]")
        .hasMessageContaining("Deletions are not allowed in perf-changelog.yaml. Only additions "
            + "to the changelog are permitted. Found deleted line:     - d")
        .hasMessageContaining("perf-changelog.yaml (base):4:1");
  }

  @Test
  void removingBlankLinesIsTolerated() {
    ChangelogDiff d = ChangelogDiff.between(BASE + "\n  \n", BASE + ADDED, "f");
    assertThat(d.entries(false)).hasSize(1);
  }

  @Test
  void aLastLineWithoutNewlineReappearsAsDeleted() {
    String base = BASE.substring(0, BASE.length() - 1); // no trailing newline
    assertThatThrownBy(() -> ChangelogDiff.between(base, BASE + ADDED, "f"))
        .hasMessageContaining("Found deleted line:   pr-link: XXX");
  }

  @Test
  void noAdditionsIsAnError() {
    assertThatThrownBy(() -> ChangelogDiff.between(BASE, BASE + "\n\n", "f").entries(false))
        .isInstanceOf(InfxException.class)
        .hasMessageContaining("No additions found in the changelog file.");
  }

  @Test
  void entryErrorsPointIntoTheHeadFile() {
    ChangelogDiff d = ChangelogDiff.between(BASE, BASE + "\n" + ADDED + "  bogus: 1\n", "cl.yaml");
    assertThatThrownBy(() -> d.entries(false)).hasMessageContaining("cl.yaml:12:3");
  }

  @Test
  void readsGitUnifiedDiffOnlyInsideHunks() {
    String diff = "diff --git a/base:f b/head:f\nindex 1..2 100644\n--- a/base:f\n+++ b/head:f\n"
        + "@@ -4,2 +4,4 @@\n     - d\n   pr-link: XXX\n+++not a header\n+--also added\n"
        + "\\ No newline at end of file\n";
    ChangelogDiff d = ChangelogDiff.fromUnifiedDiff(diff, "f");
    assertThat(d.added()).containsExactly(new DiffLine(6, "++not a header"),
        new DiffLine(7, "--also added"));
    String deleting = "--- a\n+++ b\n@@ -1,2 +1,1 @@\n--- was a yaml document marker\n"
        + " kept\n";
    assertThatThrownBy(() -> ChangelogDiff.fromUnifiedDiff(deleting, "f"))
        .hasMessageContaining("Found deleted line: -- was a yaml document marker");
  }

  /** Property: whatever the history, appending lines yields exactly those lines as additions. */
  @Test
  void appendingIsAlwaysSeenAsExactlyTheAppendedLines() {
    qt().withExamples(300).forAll(
        lists().of(strings().betweenCodePoints('a', 'c').ofLengthBetween(0, 2)).ofSizeBetween(0, 12),
        lists().of(strings().betweenCodePoints('a', 'c').ofLengthBetween(0, 2)).ofSizeBetween(1, 6))
        .checkAssert((history, appended) -> {
          String base = join(history);
          String head = base + join(appended);
          LineDiff.Result r = LineDiff.diff(base, head);
          assertThat(r.removed()).isEmpty();
          List<String> texts = new ArrayList<>();
          r.added().forEach(l -> texts.add(l.text()));
          assertThat(texts).containsExactlyElementsOf(appended);
        });
  }

  /** Property: the diff is a valid edit script (old minus removed = new minus added). */
  @Test
  void diffIsAConsistentEditScript() {
    qt().withExamples(300).forAll(
        lists().of(integers().between(0, 3)).ofSizeBetween(0, 15),
        lists().of(integers().between(0, 3)).ofSizeBetween(0, 15))
        .checkAssert((a, b) -> {
          List<String> x = a.stream().map(i -> "l" + i).toList();
          List<String> y = b.stream().map(i -> "l" + i).toList();
          LineDiff.Result r = LineDiff.diff(join(x), join(y));
          List<String> keptX = kept(x, r.removed());
          List<String> keptY = kept(y, r.added());
          assertThat(keptX).isEqualTo(keptY);
          assertThat(r.removed().size() + r.added().size())
              .isEqualTo(x.size() + y.size() - 2 * lcs(x, y));
        });
  }

  private static List<String> kept(List<String> lines, List<DiffLine> dropped) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      int n = i + 1;
      if (dropped.stream().noneMatch(l -> l.number() == n)) {
        out.add(lines.get(i));
      }
    }
    return out;
  }

  private static int lcs(List<String> x, List<String> y) {
    int[][] t = new int[x.size() + 1][y.size() + 1];
    for (int i = 1; i <= x.size(); i++) {
      for (int j = 1; j <= y.size(); j++) {
        t[i][j] = x.get(i - 1).equals(y.get(j - 1)) ? t[i - 1][j - 1] + 1
            : Math.max(t[i - 1][j], t[i][j - 1]);
      }
    }
    return t[x.size()][y.size()];
  }

  private static String join(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    lines.forEach(l -> sb.append(l).append('\n'));
    return sb.toString();
  }
}
