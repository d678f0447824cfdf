package io.infx.results;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The Pareto frontier of points where both coordinates are better when higher — InferenceX's
 * throughput per GPU (y) against interactivity (x): a point is on the frontier when no other point
 * has at least its interactivity and at least its throughput, one of them strictly more. The
 * frontier is what a buyer can reach: every configuration below it is beaten by one on it.
 */
public final class ParetoFrontier {

  private ParetoFrontier() {}

  /**
   * The non-dominated points, in increasing {@code x} (so in decreasing {@code y}). Points whose
   * coordinates are not finite are ignored; of equal points the first is kept.
   */
  public static <T> List<T> of(List<T> points, ToDoubleFunction<T> x, ToDoubleFunction<T> y) {
    List<T> sorted = new ArrayList<>();
    for (T p : points) {
      if (Double.isFinite(x.applyAsDouble(p)) && Double.isFinite(y.applyAsDouble(p))) {
        sorted.add(p);
      }
    }
    // by x descending, then y descending: walking down x, a point is on the frontier when its y
    // beats every y seen so far (all of which have at least its x)
    sorted.sort(Comparator.comparingDouble(x).reversed().thenComparing(Comparator.comparingDouble(y).reversed()));
    List<T> frontier = new ArrayList<>();
    double best = Double.NEGATIVE_INFINITY;
    for (T p : sorted) {
      double py = y.applyAsDouble(p);
      if (py > best) {
        frontier.add(0, p);
        best = py;
      }
    }
    return frontier;
  }
}
