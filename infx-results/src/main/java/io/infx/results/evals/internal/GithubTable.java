package io.infx.results.evals.internal;

import io.infx.core.python.PythonRepr;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.python.PythonNumbers;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tabulate(rows, headers, tablefmt="github")} as python-tabulate 0.10.0 renders it without
 * {@code wcwidth}: per column the least generic type of its cells (none &lt; bool &lt; int &lt; float
 * &lt; str; {@code None} and {@code ""} are ignored), numeric columns aligned on the decimal point
 * and flushed right (header too), other columns stripped and flushed left; column width =
 * max(header + 2, widest cell), measured in code points; one space of padding inside each
 * {@code |}; the rule line under the header is dashes across width + 2.
 */
public final class GithubTable {

  private GithubTable() {}

  private enum Type { NONE, BOOL, INT, FLOAT, TEXT }

  /** The table text without a final newline ({@code print} adds it). */
  public static String render(List<String> headers, List<List<JsonNode>> rows) {
    int cols = headers.size();
    List<List<String>> columns = new ArrayList<>();
    List<Boolean> numeric = new ArrayList<>();
    for (int c = 0; c < cols; c++) {
      Type type = Type.BOOL; // reduce(_more_generic, types, bool)
      for (List<JsonNode> row : rows) {
        Type t = typeOf(row.get(c));
        if (t.ordinal() > type.ordinal()) {
          type = t;
        }
      }
      List<String> cells = new ArrayList<>();
      for (List<JsonNode> row : rows) {
        cells.add(format(row.get(c), type));
      }
      boolean isNumeric = type == Type.INT || type == Type.FLOAT;
      numeric.add(isNumeric);
      int minWidth = width(headers.get(c)) + 2;
      columns.add(align(cells, isNumeric, minWidth));
    }
    List<Integer> widths = new ArrayList<>();
    for (int c = 0; c < cols; c++) {
      int w = width(headers.get(c)) + 2;
      for (String s : columns.get(c)) {
        w = Math.max(w, width(s));
      }
      widths.add(w);
    }
    StringBuilder out = new StringBuilder();
    out.append('|');
    for (int c = 0; c < cols; c++) {
      String h = headers.get(c);
      String padded = numeric.get(c) ? padLeft(widths.get(c), h) : padRight(widths.get(c), h);
      out.append(' ').append(padded).append(" |");
    }
    out.append("\n|");
    for (int c = 0; c < cols; c++) {
      out.append("-".repeat(widths.get(c) + 2)).append('|');
    }
    for (int r = 0; r < rows.size(); r++) {
      out.append("\n|");
      for (int c = 0; c < cols; c++) {
        out.append(' ').append(columns.get(c).get(r)).append(" |");
      }
    }
    return out.toString();
  }

  private static Type typeOf(JsonNode v) {
    if (v == null || v.isNull() || (v.isTextual() && v.textValue().isEmpty())) {
      return Type.NONE;
    }
    if (v.isBoolean() || (v.isTextual() && (v.textValue().equals("True") || v.textValue().equals("False")))) {
      return Type.BOOL;
    }
    if (v.isIntegralNumber()) {
      return Type.INT;
    }
    if (v.isNumber()) {
      // int(x) succeeds for finite floats, so tabulate types them as int and prints str(x).
      return Double.isNaN(v.doubleValue()) || Double.isInfinite(v.doubleValue()) ? Type.FLOAT : Type.INT;
    }
    if (v.isTextual()) {
      String s = v.textValue();
      if (PythonNumbers.parseInt(s).ok()) {
        return Type.INT;
      }
      var f = PythonNumbers.parseFloat(s);
      if (f.ok()) {
        double d = f.value().get();
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        if (Double.isFinite(d) || lower.equals("inf") || lower.equals("-inf") || lower.equals("nan")) {
          return Type.FLOAT;
        }
      }
    }
    return Type.TEXT;
  }

  private static String format(JsonNode v, Type columnType) {
    if (v == null || v.isNull()) {
      return "";
    }
    if (columnType == Type.FLOAT && (PyValues.isNumber(v) || v.isTextual())) {
      double d = v.isTextual()
          ? PythonNumbers.parseFloat(v.textValue()).value().orElse(Double.NaN)
          : PyValues.toDouble(v);
      return PythonNumbers.formatG(d);
    }
    return PythonRepr.str(v);
  }

  private static List<String> align(List<String> cells, boolean numeric, int minWidth) {
    List<String> strings = new ArrayList<>();
    if (numeric) {
      int maxDecimals = Integer.MIN_VALUE;
      List<Integer> decimals = new ArrayList<>();
      for (String s : cells) {
        int d = afterPoint(s);
        decimals.add(d);
        maxDecimals = Math.max(maxDecimals, d);
      }
      for (int i = 0; i < cells.size(); i++) {
        strings.add(cells.get(i) + " ".repeat(maxDecimals - decimals.get(i)));
      }
    } else {
      for (String s : cells) {
        strings.add(PythonNumbers.strip(s));
      }
    }
    int max = minWidth;
    for (String s : strings) {
      max = Math.max(max, width(s));
    }
    List<String> out = new ArrayList<>();
    for (String s : strings) {
      out.add(numeric ? padLeft(max, s) : padRight(max, s));
    }
    return out;
  }

  /** tabulate's {@code _afterpoint}: digits after the decimal point (or exponent), -1 for ints. */
  private static int afterPoint(String s) {
    if (!PythonNumbers.parseFloat(s).ok()) {
      return -1;
    }
    if (PythonNumbers.parseInt(s).ok()) {
      return -1;
    }
    int pos = s.lastIndexOf('.');
    if (pos < 0) {
      pos = s.toLowerCase(java.util.Locale.ROOT).lastIndexOf('e');
    }
    return pos >= 0 ? s.length() - pos - 1 : -1;
  }

  static int width(String s) {
    return s.codePointCount(0, s.length());
  }

  private static String padLeft(int width, String s) {
    int w = width(s);
    return w >= width ? s : " ".repeat(width - w) + s;
  }

  private static String padRight(int width, String s) {
    int w = width(s);
    return w >= width ? s : s + " ".repeat(width - w);
  }
}
