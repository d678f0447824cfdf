package io.infx.matrix.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.matrix.changelog.internal.YamlTree;
import org.junit.jupiter.api.Test;

/** Issue 11: bad input to {@code infx plan} that was accepted silently or reported without a place. */
class HostileChangelogTest {

  private static final String ENTRY = "- config-keys:\n    - a\n  description:\n    - d\n"
      + "  pr-link: https://github.com/o/r/pull/1\n";

  @Test
  void aKeyRepeatedInAnAppendedEntryIsRefusedWithItsLocation() {
    assertThatThrownBy(() -> ChangelogEntries.parse(ENTRY + "  description:\n    - again\n",
        "perf-changelog.yaml", l -> l + 100, false))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.violations()).extracting(Violation::message)
              .anyMatch(m -> m.contains("description"));
          assertThat(e.getMessage()).contains("perf-changelog.yaml:106:");
        });
  }

  @Test
  void aBinaryChangelogIsNamedAsSuchInsteadOfNoAdditions() {
    String diff = "diff --git a/perf-changelog.yaml b/perf-changelog.yaml\nindex 1..2 100644\n"
        + "Binary files a/perf-changelog.yaml and b/perf-changelog.yaml differ\n";
    assertThatThrownBy(() -> ChangelogDiff.fromUnifiedDiff(diff, "perf-changelog.yaml"))
        .isInstanceOf(InfxException.class).hasMessageContaining("[changelog.binary]")
        .hasMessageNotContaining("No additions");
  }

  @Test
  void aYamlReaderLimitIsLocated() {
    StringBuilder y = new StringBuilder("a: &a [x]\nb: [");
    for (int i = 0; i < 60; i++) {
      y.append(i == 0 ? "" : ", ").append("*a");
    }
    y.append("]\n");
    assertThatThrownBy(() -> YamlTree.parse(y.toString(), "perf-changelog.yaml", l -> l,
        YamlTree.Duplicates.REJECT, ErrorKind.CHANGELOG))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("perf-changelog.yaml:2:");
  }
}
