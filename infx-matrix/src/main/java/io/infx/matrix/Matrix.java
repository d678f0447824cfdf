package io.infx.matrix;

import io.infx.core.Violation;
import io.infx.core.python.PythonJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Predicate;

/**
 * An expanded matrix: the ordered, immutable list of rows a generator run produced. Row order is
 * the reference's (catalogue order, then blocks, entries, concurrency/runner order; extra eval rows
 * last).
 */
public final class Matrix implements Iterable<MatrixRow> {

  private final List<MatrixRow> rows;

  private Matrix(List<MatrixRow> rows) {
    this.rows = List.copyOf(rows);
  }

  public static Matrix of(List<MatrixRow> rows) {
    return new Matrix(rows);
  }

  public List<MatrixRow> rows() {
    return rows;
  }

  public int size() {
    return rows.size();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  public MatrixRow get(int i) {
    return rows.get(i);
  }

  @Override
  public Iterator<MatrixRow> iterator() {
    return rows.iterator();
  }

  /** The rows matching {@code filter}, order kept. */
  public Matrix filter(Predicate<MatrixRow> filter) {
    return new Matrix(rows.stream().filter(filter).toList());
  }

  /** The rows with {@code run-eval: true}. */
  public Matrix evalRows() {
    return filter(MatrixRow::runEval);
  }

  /**
   * Output validation (rule V61) of every row against its kind's schema; empty when all rows are
   * valid. Rows produced by the generator are always valid; this checks rows built or edited by hand.
   */
  public List<Violation> validate() {
    List<Violation> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      for (io.infx.matrix.internal.RowRules.Problem p
          : io.infx.matrix.internal.RowRules.check(rows.get(i).fields(), rows.get(i).kind())) {
        out.add(Violation.builder().ruleId(p.ruleId()).pointer("/" + i + p.pointer()).message(p.message()).build());
      }
    }
    return out;
  }

  /** The matrix as the reference prints it: one JSON array on one line ({@code json.dumps}). */
  public String toJson() {
    StringBuilder sb = new StringBuilder(rows.size() * 640 + 2);
    sb.append('[');
    for (int i = 0; i < rows.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      PythonJson.writeValue(sb, rows.get(i).fields(), ", ", ": ", false);
    }
    return sb.append(']').toString();
  }

  @Override
  public String toString() {
    return "Matrix[" + rows.size() + " rows]";
  }
}
