package io.infx.matrix.config;

import io.infx.core.bind.SelfChecking;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The concurrency declaration every search-space entry has: a range {@code conc-start..conc-end}
 * (inclusive, expanded geometrically) or an explicit {@code conc-list}. Rules V9–V12.
 */
public interface Concurrency {

  Optional<Integer> concStart();

  Optional<Integer> concEnd();

  Optional<List<Integer>> concList();

  /** Both range bounds are present. */
  default boolean hasRange() {
    return concStart().isPresent() && concEnd().isPresent();
  }

  /** A non-empty {@code conc-list} is present (an empty list counts as absent). */
  default boolean hasList() {
    return concList().map(l -> !l.isEmpty()).orElse(false);
  }

  /**
   * The declared points: the list verbatim (order and duplicates kept), or the range expanded with
   * step factor {@code step}: {@code v = start; emit v; while v < end: v = min(v * step, end)}.
   * The end is always included ({@code 4..100, s=2} → 4, 8, 16, 32, 64, 100).
   */
  default List<Integer> points(int step) {
    if (hasList()) {
      return concList().orElseThrow();
    }
    return range(concStart().orElseThrow(), concEnd().orElseThrow(), step);
  }

  /** The geometric range {@code start..end} with factor {@code step} (end included). */
  static List<Integer> range(int start, int end, int step) {
    List<Integer> out = new ArrayList<>();
    long v = start;
    while (v <= end) {
      out.add((int) v);
      if (v == end) {
        break;
      }
      v = Math.min(v * step, end);
    }
    return out;
  }

  /** Rules V9–V12 (messages as the reference words them). */
  default void checkConcurrency(SelfChecking.Checks checks) {
    boolean range = hasRange();
    boolean list = hasList();
    if (range && list) {
      checks.fail("V9.conc-form", "Cannot specify both 'conc-list' list and 'conc-start'/'conc-end'. "
          + "Use either a list or a range, not both.");
    }
    if (!range && !list) {
      checks.fail("V9.conc-form", "Must specify either 'conc-list' list or both 'conc-start' and 'conc-end'.");
    }
    if (range) {
      int start = concStart().orElseThrow();
      int end = concEnd().orElseThrow();
      if (start <= 0 || end <= 0) {
        checks.fail("V10.conc-positive", start <= 0 ? "conc-start" : "conc-end",
            "Input 'conc-start' and 'conc-end' must be greater than 0.");
      } else if (start > end) {
        checks.fail("V11.conc-order", "'conc-start' (" + start + ") must be <= 'conc-end' (" + end + ").");
      }
    }
    if (list) {
      List<Integer> values = concList().orElseThrow();
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i) <= 0) {
          checks.fail("V12.conc-list-positive", "conc-list/" + i,
              "Input 'conc-list' entries must be greater than 0.");
          break;
        }
      }
    }
  }
}
