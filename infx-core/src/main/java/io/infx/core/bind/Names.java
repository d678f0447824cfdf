package io.infx.core.bind;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Wire-name conventions and the "did you mean" hints the binder gives for unknown keys. */
public final class Names {

  private Names() {}

  /** {@code modelPrefix} → {@code model-prefix}, {@code kvP2pTransfer} → {@code kv-p2p-transfer}. */
  public static String kebab(String javaName) {
    StringBuilder sb = new StringBuilder(javaName.length() + 4);
    for (int i = 0; i < javaName.length(); i++) {
      char c = javaName.charAt(i);
      if (Character.isUpperCase(c)) {
        if (i > 0) {
          sb.append('-');
        }
        sb.append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * A hint for an unknown key: the kebab-case spelling when the key is a snake_case (or camelCase)
   * form of a known name, else the closest known name within a small edit distance.
   */
  public static Optional<String> hint(String unknown, Collection<String> known) {
    String kebab = unknown.replace('_', '-');
    if (!kebab.equals(unknown) && known.contains(kebab)) {
      return Optional.of("keys are kebab-case: write '" + kebab + "' instead of '" + unknown + "'");
    }
    String fromCamel = kebab(unknown);
    if (!fromCamel.equals(unknown) && known.contains(fromCamel)) {
      return Optional.of("keys are kebab-case: write '" + fromCamel + "' instead of '" + unknown + "'");
    }
    List<String> best = new ArrayList<>();
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(unknown.toLowerCase(java.util.Locale.ROOT), k);
      if (d < bestDistance) {
        best.clear();
        bestDistance = d;
      }
      if (d == bestDistance) {
        best.add(k);
      }
    }
    int allowed = Math.max(1, Math.min(3, unknown.length() / 3));
    if (!best.isEmpty() && bestDistance <= allowed) {
      best.sort(null);
      return Optional.of("did you mean '" + String.join("' or '", best) + "'?");
    }
    return Optional.empty();
  }

  /** Levenshtein distance with transpositions counted as one edit. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[a.length()][b.length()];
  }
}
