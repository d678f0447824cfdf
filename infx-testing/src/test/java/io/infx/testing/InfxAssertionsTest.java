package io.infx.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.RowKind;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class InfxAssertionsTest {

  /** Line 14, column 21 holds {@code pp: 0} (V13.positive-size); counted by hand below. */
  static final String BROKEN = """
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
            - {tp: 8, pp: 0, conc-list: [4]}
      """;

  static ValidationException broken() {
    return catchThrowableOfType(ValidationException.class,
        () -> Catalog.load(List.of(Source.text("acme.yaml", BROKEN))));
  }

  /** Line and 1-based column of the first occurrence of {@code needle} in {@code text}. */
  static int[] position(String text, String needle) {
    int at = text.indexOf(needle);
    String before = text.substring(0, at);
    int line = (int) before.chars().filter(ch -> ch == '\n').count() + 1;
    return new int[] {line, at - (before.lastIndexOf('\n') + 1) + 1};
  }

  @Test
  void hasViolationAtPassesForTheLocatedBuiltInRule() {
    int[] tp = position(BROKEN, "0, conc-list");
    assertThat(tp).containsExactly(14, 21);
    InfxAssertions.assertThat(broken()).hasKind(ErrorKind.CONFIG_VALIDATION).hasViolationCount(1)
        .hasViolation("V13.positive-size").at("acme.yaml", tp[0], tp[1])
        .hasNoViolation("V1.unknown-key");
  }

  @Test
  void hasViolationFailsNamingTheRuleAndListingWhatTheErrorHas() {
    assertThatThrownBy(() -> InfxAssertions.assertThat(broken()).hasViolation("V11.conc-order"))
        .isInstanceOf(AssertionError.class)
        .hasMessage(String.format("%nExpecting validation error to have a violation of rule:%n  \"V11.conc-order\"%n"
            + "but its rules were:%n  [V13.positive-size]%nviolations:%n  " + broken().violations().get(0).render()));
  }

  @Test
  void atFailsSayingWhichPartOfTheLocationDiffers() {
    assertThatThrownBy(() -> InfxAssertions.assertThat(broken()).hasViolation("V13.positive-size").at("acme.yaml", 14, 20))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting a violation of rule \"V13.positive-size\" at:\n  acme.yaml:14:20")
        .hasMessageContaining("acme.yaml:14:21: [V13.positive-size]")
        .hasMessageEndingWith("(column differs)");
    assertThatThrownBy(() -> InfxAssertions.assertThat(broken()).hasViolation("V13.positive-size").at("other.yaml", 3, 21))
        .hasMessageEndingWith("(file differs, line differs)");
  }

  @Test
  void hasViolationCountFailsWithBothCounts() {
    assertThatThrownBy(() -> InfxAssertions.assertThat(broken()).hasViolationCount(2))
        .hasMessageContaining("Expecting validation error to have 2 violation(s) but it had 1:");
  }

  static Matrix matrix() {
    String ok = BROKEN.replace("{tp: 8, pp: 0, conc-list: [4]}", "{tp: 8, conc-list: [4, 16]}");
    return Generator.fullSweep(Catalog.load(List.of(Source.text("acme.yaml", ok))), InfxGeneratorsTest.RUNNERS,
        FullSweepOptions.defaults());
  }

  @Test
  void allRowsSatisfyPassesWhenEveryRowDoes() {
    InfxAssertions.assertThat(matrix()).hasRowCount(2)
        .allRowsSatisfy(row -> assertThat(row).isInstanceOfSatisfying(MatrixRow.OnOneNode.class,
            n -> assertThat(n.tp()).isEqualTo(8)))
        .allRowsMatch(row -> row.precision().equals("fp8"), "precision fp8");
  }

  @Test
  void allRowsSatisfyFailsListingTheFailingRowsAndWhy() {
    Matrix m = matrix();
    assertThatThrownBy(() -> InfxAssertions.assertThat(m)
        .allRowsSatisfy(row -> assertThat(row.conc()).as("conc").containsOnly(4)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expecting all 2 rows of the matrix to satisfy the requirements but 1 did not:")
        .hasMessageContaining("row 1: " + m.get(1))
        .hasMessageContaining("[conc]")
        .hasMessageNotContaining("row 0:");
    assertThatThrownBy(() -> InfxAssertions.assertThat(m).allRowsMatch(row -> row.conc().contains(4), "conc 4"))
        .hasMessageContaining("to match:\n  conc 4\nbut 1 did not:\n  row 1: " + m.get(1));
    assertThatThrownBy(() -> InfxAssertions.assertThat(m).hasRowCount(3))
        .hasMessageContaining("Expecting matrix to have 3 row(s) but it had 2");
  }

  @Test
  void rowKindAssertionsNameTheKindsAndCountTheRows() {
    Matrix m = matrix();
    InfxAssertions.assertThat(m).hasRowsOfKind(RowKind.SINGLE_NODE)
        .hasRowKindsExactly(EnumSet.of(RowKind.SINGLE_NODE))
        .rowsOfKind(RowKind.SINGLE_NODE).hasRowCount(2);
    InfxAssertions.assertThat(m).rowsOfKind(RowKind.MULTI_NODE).hasRowCount(0);
    assertThatThrownBy(() -> InfxAssertions.assertThat(m).hasRowsOfKind(RowKind.SINGLE_NODE, RowKind.MULTI_NODE_AGENTIC))
        .isInstanceOf(AssertionError.class)
        .hasMessage(String.format("%nExpecting matrix to have rows of kind(s):%n  [SINGLE_NODE, MULTI_NODE_AGENTIC]%n"
            + "but it had none of:%n  [MULTI_NODE_AGENTIC]%nrows by kind:%n  {SINGLE_NODE=2}"));
    assertThatThrownBy(() -> InfxAssertions.assertThat(m).hasRowKindsExactly(List.of(RowKind.MULTI_NODE)))
        .hasMessage(String.format("%nExpecting matrix rows of exactly the kind(s):%n  [MULTI_NODE]%n"
            + "but rows by kind were:%n  {SINGLE_NODE=2}"));
  }

  @Test
  void hasKindTakesTheWireNameToo() {
    InfxAssertions.assertThat(broken()).hasKind("config-validation");
    assertThatThrownBy(() -> InfxAssertions.assertThat(broken()).hasKind("usage"))
        .isInstanceOf(AssertionError.class).hasMessageContaining("Expecting validation error of kind:");
    assertThatThrownBy(() -> InfxAssertions.assertThat(broken()).hasKind("config-validaton"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no error kind is named 'config-validaton'");
  }
}
