package io.infx.testing;

import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import java.util.ArrayList;
import java.util.List;
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
