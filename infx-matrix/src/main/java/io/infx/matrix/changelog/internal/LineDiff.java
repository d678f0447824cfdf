package io.infx.matrix.changelog.internal;

import io.infx.matrix.changelog.DiffLine;
import java.util.ArrayList;
import java.util.List;

/**
 * Line diff of two texts with Myers' O(ND) algorithm (the default of {@code git diff}), after
 * stripping the common prefix and suffix as git does. A line includes its terminator, so a last
 * line without a newline differs from the same text with one (git shows it as removed and
 * re-added).
 */
public final class LineDiff {


  /** The lines only in the old text and the lines only in the new text, each in order. */
  public record Result(List<DiffLine> removed, List<DiffLine> added) {}

  /** Above this many differences the texts are treated as completely rewritten. */
  private static final int MAX_EDIT_DISTANCE = 4000;

  private LineDiff() {}

  /** Splits {@code text} into lines that keep their {@code \n}. */
  public static List<String> lines(String text) {
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        out.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      out.add(text.substring(start));
    }
    return out;
  }

  private static String strip(String line) {
    return line.endsWith("\n") ? line.substring(0, line.length() - 1) : line;
  }

  public static Result diff(String oldText, String newText) {
    List<String> a = lines(oldText);
    List<String> b = lines(newText);
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
        && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
      suffix++;
    }
    List<String> x = a.subList(prefix, a.size() - suffix);
    List<String> y = b.subList(prefix, b.size() - suffix);
    boolean[] removedX = new boolean[x.size()];
    boolean[] addedY = new boolean[y.size()];
    if (!myers(x, y, removedX, addedY)) {
      java.util.Arrays.fill(removedX, true);
      java.util.Arrays.fill(addedY, true);
    }
    List<DiffLine> removed = new ArrayList<>();
    List<DiffLine> added = new ArrayList<>();
    for (int i = 0; i < x.size(); i++) {
      if (removedX[i]) {
        removed.add(new DiffLine(prefix + i + 1, strip(x.get(i))));
      }
    }
    for (int j = 0; j < y.size(); j++) {
      if (addedY[j]) {
        added.add(new DiffLine(prefix + j + 1, strip(y.get(j))));
      }
    }
    return new Result(removed, added);
  }

  /** Marks the lines of a shortest edit script; false when it exceeds the distance cap. */
  private static boolean myers(List<String> x, List<String> y, boolean[] removed, boolean[] added) {
    int n = x.size();
    int m = y.size();
    int max = Math.min(n + m, MAX_EDIT_DISTANCE);
    List<int[]> trace = new ArrayList<>();
    int[] v = new int[2 * max + 3];
    int off = max + 1;
    int found = -1;
    for (int d = 0; d <= max; d++) {
      for (int k = -d; k <= d; k += 2) {
        int xi;
        if (k == -d || (k != d && v[off + k - 1] < v[off + k + 1])) {
          xi = v[off + k + 1];
        } else {
          xi = v[off + k - 1] + 1;
        }
        int yi = xi - k;
        while (xi < n && yi < m && x.get(xi).equals(y.get(yi))) {
          xi++;
          yi++;
        }
        v[off + k] = xi;
        if (xi >= n && yi >= m) {
          found = d;
          break;
        }
      }
      int[] snapshot = new int[2 * d + 1];
      System.arraycopy(v, off - d, snapshot, 0, 2 * d + 1);
      trace.add(snapshot);
      if (found >= 0) {
        break;
      }
    }
    if (found < 0) {
      return false;
    }
    int xi = n;
    int yi = m;
    for (int d = found; d > 0; d--) {
      int[] prev = trace.get(d - 1);
      int k = xi - yi;
      int prevK;
      if (k == -d || (k != d && at(prev, d - 1, k - 1) < at(prev, d - 1, k + 1))) {
        prevK = k + 1;
      } else {
        prevK = k - 1;
      }
      int prevX = at(prev, d - 1, prevK);
      int prevY = prevX - prevK;
      while (xi > prevX && yi > prevY) {
        xi--;
        yi--;
      }
      if (xi == prevX) {
        added[prevY] = true; // insertion of y[prevY]
      } else {
        removed[prevX] = true; // deletion of x[prevX]
      }
      xi = prevX;
      yi = prevY;
    }
    return true;
  }

  private static int at(int[] snapshot, int d, int k) {
    return snapshot[k + d];
  }
}
