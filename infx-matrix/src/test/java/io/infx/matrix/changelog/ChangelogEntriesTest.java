package io.infx.matrix.changelog;

import io.infx.matrix.ScenarioType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChangelogEntriesTest {

  private static List<ChangelogEntry> parse(String yaml) {
    return ChangelogEntries.parse(yaml, "perf-changelog.yaml", l -> l, false);
  }

  private static ValidationException rejected(String yaml) {
    return rejected(yaml, false);
  }

  private static ValidationException rejected(String yaml, boolean allowRetired) {
    try {
      ChangelogEntries.parse(yaml, "perf-changelog.yaml", l -> l, allowRetired);
    } catch (ValidationException e) {
      return e;
    }
    throw new AssertionError("accepted: " + yaml);
  }

  private static final String OK = "- config-keys:\n    - a\n  description:\n    - d\n"
      + "  pr-link: XXX\n";

  @Test
  void parsesAnEntryWithDefaultsAndSerializesInSchemaOrder() {
    List<ChangelogEntry> entries = parse(OK + "  scenario-type: [agentic-coding]\n"
        + "  eval-min-prefill-ep: 8\n");
    assertThat(entries).hasSize(1);
    ChangelogEntry e = entries.get(0);
    assertThat(e.configKeys()).containsExactly("a");
    assertThat(e.scenarioType()).contains(List.of(ScenarioType.AGENTIC_CODING));
    assertThat(e.toJson().toString()).isEqualTo("{\"config-keys\":[\"a\"],\"description\":[\"d\"],"
        + "\"pr-link\":\"XXX\",\"evals-only\":false,\"all-evals\":false,\"no-evals\":false,"
        + "\"append-only\":false,\"eval-min-prefill-ep\":8,\"scenario-type\":[\"agentic-coding\"]}");
  }

  @Test
  void unknownFieldsAreExtraInputs() {
    ValidationException e = rejected(OK + "  retired: true\n");
    assertThat(e.getMessage()).contains("Extra inputs are not permitted")
        .contains("perf-changelog.yaml:6:3").contains("--allow-retired");
    assertThat(e.violations()).extracting(Violation::ruleId)
        .containsExactly("changelog.entry.extra-field");
    assertThat(rejected(OK + "  conc-list: [1]\n").getMessage()).contains("conc-list");
  }

  @Test
  void retiredIsAcceptedOnlyWhenAllowedAndAlone() {
    List<ChangelogEntry> e = ChangelogEntries.parse(OK + "  retired: true\n", "f", l -> l, true);
    assertThat(e.get(0).retired()).isTrue();
    assertThat(e.get(0).toJson().get("retired").booleanValue()).isTrue();
    assertThat(rejected(OK + "  retired: true\n  all-evals: true\n", true).violations())
        .extracting(Violation::ruleId).containsExactly("changelog.retired.fields");
  }

  @Test
  void requiredFieldsAreNamed() {
    ValidationException e = rejected("- description: [d]\n");
    assertThat(e.violations()).extracting(Violation::message)
        .containsExactly("config-keys: Field required", "pr-link: Field required");
  }

  @Test
  void descriptionAndScenarioTypeMustBeLists() {
    assertThat(rejected("- config-keys: [a]\n  description: just text\n  pr-link: x\n")
        .violations()).extracting(Violation::pointer).containsExactly("/0/description");
    assertThat(rejected(OK + "  scenario-type: agentic-coding\n").violations())
        .extracting(Violation::pointer).containsExactly("/0/scenario-type");
    assertThat(rejected(OK + "  scenario-type: [agentic]\n").getMessage())
        .contains("'fixed-seq-len' or 'agentic-coding'");
    assertThat(rejected(OK + "  scenario-type: []\n").getMessage()).contains("at least one");
  }

  @Test
  void emptyListsAndWrongTypesAreRejected() {
    assertThat(rejected("- config-keys: []\n  description: [d]\n  pr-link: x\n").getMessage())
        .contains("config-keys must have at least 1 item");
    assertThat(rejected("- config-keys: [1]\n  description: [d]\n  pr-link: x\n").getMessage())
        .contains("config-keys items must be strings").contains("an integer (1)");
    assertThat(rejected("- config-keys: [a]\n  description: [d]\n  pr-link: 5\n").getMessage())
        .contains("pr-link must be a string");
    assertThat(rejected(OK + "  evals-only: \"true\"\n").getMessage())
        .contains("evals-only must be a boolean");
    assertThat(rejected(OK + "  eval-min-prefill-ep: 0\n").getMessage())
        .contains("greater than or equal to 1");
    assertThat(rejected(OK + "  eval-min-prefill-ep: 1.5\n").getMessage())
        .contains("eval-min-prefill-ep must be an integer");
    assertThat(rejected("- config-keys: [a]\n  description: [2026-01-01]\n  pr-link: x\n")
        .getMessage()).contains("timestamp");
  }

  @Test
  void yaml11BooleansCount() {
    assertThat(parse(OK + "  evals-only: yes\n").get(0).evalsOnly()).isTrue();
  }

  @Test
  void appendOnlyAndNoEvalsExcludeEvalSelection() {
    assertThat(rejected(OK + "  append-only: true\n  evals-only: true\n").violations())
        .extracting(Violation::message)
        .containsExactly("append-only cannot be combined with eval selection fields");
    assertThat(rejected(OK + "  no-evals: true\n  eval-min-prefill-ep: 2\n").violations())
        .extracting(Violation::message)
        .containsExactly("no-evals cannot be combined with eval selection fields");
    assertThat(parse(OK + "  evals-only: true\n  all-evals: true\n").get(0).allEvals()).isTrue();
  }

  @Test
  void everyBrokenEntryIsReportedAtOnce() {
    ValidationException e = rejected("- config-keys: [a]\n  description: [d]\n"
        + "- config-keys: [b]\n  description: [d]\n  pr-link: x\n  bogus: 1\n");
    assertThat(e.violations()).hasSize(2);
    assertThat(e.violations().get(1).location()).map(Object::toString)
        .contains("perf-changelog.yaml:6:3");
  }

  @Test
  void locationsFollowTheLineMapping() {
    ValidationException e;
    try {
      ChangelogEntries.parse(OK + "  bogus: 1\n", "perf-changelog.yaml", l -> l + 100, false);
      throw new AssertionError("accepted");
    } catch (ValidationException ex) {
      e = ex;
    }
    assertThat(e.getMessage()).contains("perf-changelog.yaml:106:3");
  }

  @Test
  void emptyOrNonListTextIsNotAChangelog() {
    assertThatThrownBy(() -> parse("# only a comment\n")).isInstanceOf(InfxException.class)
        .hasMessageContaining("No valid YAML entries found in the changelog additions.");
    assertThat(rejected("config-keys: [a]\n").getMessage()).contains("a YAML list of entries");
    assertThat(rejected("- just a string\n").getMessage()).contains("must be a mapping");
    assertThat(rejected("- config-keys: [a\n").violations()).extracting(Violation::ruleId)
        .containsExactly("yaml.syntax");
  }

  @Test
  void scenariosDefaultToBoth() {
    assertThat(ChangelogEntry.of(List.of("k"), "d", "x").scenarios())
        .containsExactly(ScenarioType.FIXED_SEQ_LEN, ScenarioType.AGENTIC_CODING);
    assertThat(ChangelogEntry.of(List.of("k"), "d", "x").scenarioType()).isEqualTo(Optional.empty());
  }
}
