package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.generators.SourceDSL;

/** Non-dominated points of throughput (y) against interactivity (x). */
class ParetoFrontierTest {

  private record P(double x, double y) {}

  @Test
  void keepsOnlyTheNonDominatedPointsInIncreasingX() {
    List<P> pts = List.of(new P(10, 500), new P(20, 450), new P(15, 300), new P(30, 100),
        new P(20, 400), new P(5, 500), new P(Double.NaN, 900));
    // (15,300) is beaten by (20,450); (20,400) by (20,450); (5,500) by (10,500); NaN ignored
    assertThat(ParetoFrontier.of(pts, P::x, P::y)).containsExactly(new P(10, 500), new P(20, 450), new P(30, 100));
    assertThat(ParetoFrontier.of(List.of(new P(1, 1)), P::x, P::y)).containsExactly(new P(1, 1));
    assertThat(ParetoFrontier.<P>of(List.of(), P::x, P::y)).isEmpty();
  }

  @Test
  void noPointDominatesAFrontierPointAndEveryOtherPointIsDominated() {
    QuickTheory.qt().withExamples(200).forAll(SourceDSL.lists().of(SourceDSL.integers().between(0, 20))
        .ofSizeBetween(0, 30)).checkAssert(coords -> {
          List<P> pts = new ArrayList<>();
          for (int i = 0; i + 1 < coords.size(); i += 2) {
            pts.add(new P(coords.get(i), coords.get(i + 1)));
          }
          List<P> f = ParetoFrontier.of(pts, P::x, P::y);
          for (P p : pts) {
            boolean dominated = pts.stream().anyMatch(q -> q.x() >= p.x() && q.y() >= p.y()
                && (q.x() > p.x() || q.y() > p.y()));
            if (dominated) {
              assertThat(f).doesNotContain(p);
            } else {
              assertThat(f).contains(p);
            }
          }
        });
  }
}
