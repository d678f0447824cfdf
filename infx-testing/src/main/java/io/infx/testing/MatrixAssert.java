package io.infx.testing;

import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.RowKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.assertj.core.api.AbstractAssert;

/** Assertions on an expanded {@link Matrix}; see {@link InfxAssertions}. */
public final class MatrixAssert extends AbstractAssert<MatrixAssert, Matrix> {

  /** Failing rows listed in a message; the rest are counted. */
  private static final int MAX_LISTED = 10;

  MatrixAssert(Matrix actual) {
    super(actual, MatrixAssert.class);
  }

  /** The matrix has exactly {@code rows} rows. */
  public MatrixAssert hasRowCount(int rows) {
    isNotNull();
    if (actual.size() != rows) {
      failWithMessage("%nExpecting matrix to have %d row(s) but it had %d", rows, actual.size());
    }
    return this;
  }

  /** The matrix has at least one row. */
  public MatrixAssert isNotEmpty() {
    isNotNull();
    if (actual.isEmpty()) {
      failWithMessage("%nExpecting matrix not to be empty");
    }
    return this;
  }

  /**
   * The matrix has at least one row of each of {@code kinds} (rows of other kinds may be present).
   * The failure lists the row count of every kind.
   */
  public MatrixAssert hasRowsOfKind(RowKind... kinds) {
    isNotNull();
    Set<RowKind> missing = EnumSet.noneOf(RowKind.class);
    missing.addAll(Arrays.asList(kinds));
    missing.removeAll(counts().keySet());
    if (!missing.isEmpty()) {
      failWithMessage("%nExpecting matrix to have rows of kind(s):%n  %s%nbut it had none of:%n  %s%nrows by kind:%n  %s",
          Arrays.toString(kinds), missing, counts());
    }
    return this;
  }

  /** The kinds of the matrix's rows are exactly {@code kinds} (each present, no other). */
  public MatrixAssert hasRowKindsExactly(Collection<RowKind> kinds) {
    isNotNull();
    Objects.requireNonNull(kinds, "kinds");
    Set<RowKind> expected = kinds.isEmpty() ? EnumSet.noneOf(RowKind.class) : EnumSet.copyOf(kinds);
    if (!counts().keySet().equals(expected)) {
      failWithMessage("%nExpecting matrix rows of exactly the kind(s):%n  %s%nbut rows by kind were:%n  %s",
          expected, counts());
    }
    return this;
  }

  /**
   * Continues with the rows of {@code kind} only (an empty matrix when there are none), e.g.
   * {@code assertThat(matrix).rowsOfKind(RowKind.MULTI_NODE).allRowsSatisfy(…)}.
   */
  public MatrixAssert rowsOfKind(RowKind kind) {
    isNotNull();
    Objects.requireNonNull(kind, "kind");
    return new MatrixAssert(actual.filter(r -> r.kind() == kind));
  }

  /** Row counts by kind, in {@link RowKind} order. */
  private Map<RowKind, Integer> counts() {
    Map<RowKind, Integer> counts = new EnumMap<>(RowKind.class);
    actual.forEach(r -> counts.merge(r.kind(), 1, Integer::sum));
    return counts;
  }

  /**
   * Every row satisfies {@code requirements} (AssertJ assertions that throw {@link AssertionError});
   * the failure lists each failing row's index, the row and why.
   */
  public MatrixAssert allRowsSatisfy(Consumer<MatrixRow> requirements) {
    isNotNull();
    List<String> failures = new ArrayList<>();
    int failing = 0;
    for (int i = 0; i < actual.size(); i++) {
      try {
        requirements.accept(actual.get(i));
      } catch (AssertionError e) {
        if (++failing <= MAX_LISTED) {
          failures.add("  row " + i + ": " + actual.get(i) + "\n    " + String.valueOf(e.getMessage()).strip()
              .replace("\n", "\n    "));
        }
      }
    }
    if (failing > 0) {
      failWithMessage("%nExpecting all %d rows of the matrix to satisfy the requirements but %d did not:%n%s%s",
          actual.size(), failing, String.join("\n", failures),
          failing > MAX_LISTED ? "\n  … and " + (failing - MAX_LISTED) + " more" : "");
    }
    return this;
  }

  /** Every row matches {@code predicate}, described as {@code description} in the failure. */
  public MatrixAssert allRowsMatch(Predicate<MatrixRow> predicate, String description) {
    isNotNull();
    List<Integer> failing = new ArrayList<>();
    for (int i = 0; i < actual.size(); i++) {
      if (!predicate.test(actual.get(i))) {
        failing.add(i);
      }
    }
    if (!failing.isEmpty()) {
      StringBuilder sb = new StringBuilder();
      for (int i : failing.subList(0, Math.min(MAX_LISTED, failing.size()))) {
        sb.append("\n  row ").append(i).append(": ").append(actual.get(i));
      }
      failWithMessage("%nExpecting all %d rows of the matrix to match:%n  %s%nbut %d did not:%s%s", actual.size(),
          description, failing.size(), sb, failing.size() > MAX_LISTED ? "\n  … and " + (failing.size() - MAX_LISTED) + " more" : "");
    }
    return this;
  }
}
