package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.run.BoundarySearch.AnomalyKind;
import io.infx.run.BoundarySearch.Measurement;
import io.infx.run.BoundarySearch.Settings;
import io.infx.run.BoundarySearch.Stop;
import io.infx.run.BoundarySearch.Strategy;
import io.infx.run.BoundarySearch.Trace;
import io.infx.run.BoundarySearch.Verdict;
import io.infx.results.Slo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The search algorithm on virtual response models: no server, no clock. Every model gives the
 * value of one SLO key as a function of the load (and of the repetition, for noise); the truth of
 * each case is computed from the model directly, never from the search.
 */
class BoundarySearchTest {

  private static final Slo TPOT_40MS = Slo.parse("tpot.p50<=40ms");
  private static final Slo TTFT_200MS = Slo.parse("ttft.p99<=200ms");

  /** A model measurer that records every (load, repetition) it was asked for. */
  private static final class Model implements BoundarySearch.Measurer {
    final String key;
    final Rep value;
    final List<Double> measuredLoads = new ArrayList<>();
    final Map<Double, Integer> repetitions = new HashMap<>();

    interface Rep {
      double at(double load, int repetition);
    }

    Model(String key, Rep value) {
      this.key = key;
      this.value = value;
    }

    Model(String key, DoubleUnaryOperator value) {
      this(key, (x, k) -> value.applyAsDouble(x));
    }

    @Override
    public Measurement measure(int index, double load, int n) {
      int have = repetitions.getOrDefault(load, 0);
      for (int k = have + 1; k <= n; k++) {
        measuredLoads.add(load);
      }
      repetitions.put(load, Math.max(have, n));
      List<Double> xs = new ArrayList<>();
      for (int k = 1; k <= Math.max(have, n); k++) {
        xs.add(value.at(load, k));
      }
      return Measurement.of(Map.of(key, xs));
    }
  }

  /** The truth of a response that grows with the load: the largest grid load whose value passes. */
  private static double truth(LoadGrid grid, DoubleUnaryOperator value, double bound) {
    double best = Double.NaN;
    for (int i = 0; i < grid.size(); i++) {
      if (value.applyAsDouble(grid.load(i)) <= bound) {
        best = grid.load(i);
      }
    }
    return best;
  }

  private static Trace search(LoadGrid grid, Slo slo, Settings s, Model m) throws Exception {
    return BoundarySearch.run(grid, slo, s, SearchAxis.CONCURRENCY, m);
  }

  @Test
  void aLinearResponseIsFoundExactlyInAFewProbesAndNoLoadIsMeasuredTwice() throws Exception {
    LoadGrid grid = LoadGrid.concurrency(1, 128, 1);
    // TPOT = A + B·conc (the simulator's decode step, docs/simulator.md) for TP1, TP2, TP4, TP8-like slopes
    double[][] ab = {{0.002, 0.0021}, {0.00115, 0.00115}, {0.000725, 0.000725}, {0.00051, 0.00051}, {0.0004, 0.00041}};
    for (double[] c : ab) {
      DoubleUnaryOperator tpot = x -> c[0] + c[1] * x;
      Model m = new Model("median_tpot", tpot);
      Trace t = search(grid, TPOT_40MS, Settings.defaults(), m);
      double truth = truth(grid, tpot, 0.040);
      assertThat(t.stop()).isEqualTo(Stop.CONVERGED);
      assertThat(t.best()).hasValue(truth);
      assertThat(t.firstNonPass()).hasValue(truth + 1);
      assertThat(t.probes()).hasSizeLessThanOrEqualTo(8);
      // each repetition of each load measured once: the model saw exactly what the trace reports
      assertThat(m.measuredLoads).hasSize(t.measurements());
      assertThat(m.measuredLoads.stream().distinct().count()).isEqualTo(t.probes().size());
      assertThat(t.anomalies()).isEmpty();
      assertThat(t.monotone()).isTrue();
    }
  }

  @Test
  void bracketingGrowsAtMostByTheGrowthFactorAndStartsAtTheFirstLoad() throws Exception {
    Model m = new Model("median_tpot", x -> 0.000987 * x); // crossing at 40.5
    Trace t = search(LoadGrid.concurrency(1, 1024, 1), TPOT_40MS, Settings.defaults(), m);
    assertThat(t.probes().get(0).load()).isEqualTo(1.0);
    for (int i = 1; i < t.probes().size(); i++) {
      // every load is at most 4× the largest pass before it
      double prevPass = t.probes().subList(0, i).stream().filter(BoundarySearch.Probe::passed)
          .mapToDouble(BoundarySearch.Probe::load).max().orElseThrow();
      assertThat(t.probes().get(i).load()).isLessThanOrEqualTo(4 * prevPass);
    }
    assertThat(t.best()).hasValue(40);
  }

  @Test
  void aCliffIsBisectedToOneStepAndReported() throws Exception {
    LoadGrid grid = LoadGrid.concurrency(1, 32, 1);
    DoubleUnaryOperator ttft = x -> x <= 21 ? 0.050 : 0.500; // queueing starts above 21 slots
    Model m = new Model("p99_ttft", ttft);
    Trace t = search(grid, TTFT_200MS, Settings.defaults(), m);
    assertThat(t.stop()).isEqualTo(Stop.CONVERGED);
    assertThat(t.best()).hasValue(truth(grid, ttft, 0.2));
    assertThat(t.firstNonPass()).hasValue(22);
    assertThat(t.probes()).hasSizeLessThanOrEqualTo(8);
    assertThat(t.has(AnomalyKind.CLIFF)).isTrue();
    assertThat(t.anomalies()).filteredOn(a -> a.kind() == AnomalyKind.CLIFF).singleElement().satisfies(a -> {
      assertThat(a.loads()).containsExactly(21.0, 22.0);
      assertThat(a.message()).isEqualTo("cliff between conc 21 and conc 22: ttft.p99 50.0 ms → 500.0 ms (×10.0 in one step)");
    });
  }

  @Test
  void aGentleSlopeAtTheBoundaryIsNoCliff() throws Exception {
    Model m = new Model("median_tpot", x -> 0.001 * x + 0.0005);
    Trace t = search(LoadGrid.concurrency(1, 64, 1), TPOT_40MS, Settings.defaults(), m);
    assertThat(t.best()).hasValue(39);
    assertThat(t.has(AnomalyKind.CLIFF)).isFalse();
  }

  @Test
  void aResponseThatFallsWithMoreLoadIsReportedNonMonotone() throws Exception {
    // rises to 36 ms at conc 4, falls to 10 ms by conc 16 (e.g. a batching threshold), then rises again
    DoubleUnaryOperator dip = x -> x <= 4 ? 0.009 * x : x <= 16 ? 0.010 : 0.010 + 0.003 * (x - 16);
    Model m = new Model("median_tpot", dip);
    Trace t = search(LoadGrid.concurrency(1, 64, 1), TPOT_40MS, Settings.defaults(), m);
    assertThat(t.monotone()).isFalse();
    assertThat(t.anomalies()).filteredOn(a -> a.kind() == AnomalyKind.NON_MONOTONE).first().satisfies(a ->
        assertThat(a.message()).startsWith("tpot.p50 fell from 36.0 ms at conc 4 to 10.0 ms at conc")
            .endsWith("(bound tpot.p50<=40ms): the response is not monotone in the load"));
  }

  @Test
  void aPassAboveAFailIsReportedAndTheBestStaysBelowTheFirstFail() throws Exception {
    // fails at 5 and 6 (a transient), passes 7 and 8, fails from 9 on: the dense reference sees it
    DoubleUnaryOperator bumpy = x -> x == 5 || x == 6 ? 0.050 : x <= 8 ? 0.030 : 0.060;
    Model m = new Model("median_tpot", bumpy);
    Trace t = search(LoadGrid.concurrency(1, 12, 1), TPOT_40MS, Settings.defaults().withStrategy(Strategy.DENSE), m);
    assertThat(t.stop()).isEqualTo(Stop.EXHAUSTED);
    assertThat(t.probes()).hasSize(12);
    assertThat(m.measuredLoads).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
    assertThat(t.best()).hasValue(4);
    assertThat(t.firstNonPass()).hasValue(5);
    assertThat(t.monotone()).isFalse();
    assertThat(t.anomalies()).filteredOn(a -> a.kind() == AnomalyKind.NON_MONOTONE)
        .extracting(BoundarySearch.Anomaly::message)
        .contains("conc 7 passes above conc 5, which failed (tpot.p50 50.0 ms)");
  }

  @Test
  void theBudgetStopsTheSearchWithTheBracketReached() throws Exception {
    Model m = new Model("median_tpot", x -> 0.001 * x);
    Trace t = search(LoadGrid.concurrency(1, 1024, 1), TPOT_40MS, Settings.defaults().withMaxProbes(3), m);
    assertThat(t.stop()).isEqualTo(Stop.BUDGET);
    assertThat(t.probes()).hasSize(3);
    assertThat(m.measuredLoads).hasSize(3);
    // whatever it reached is a true bracket of the boundary (40)
    assertThat(t.best().getAsDouble()).isLessThanOrEqualTo(40);
    if (t.firstNonPass().isPresent()) {
      assertThat(t.firstNonPass().getAsDouble()).isGreaterThan(40);
    }
  }

  @Test
  void aLoadAtItsBoundWithinTheNoiseIsRepeatedAndMarkedUndecided() throws Exception {
    // at conc 10 the median TPOT is 40 ms ± 2 % from repetition to repetition: no repetition can tell
    Model m = new Model("median_tpot", (x, k) -> x == 10 ? 0.040 * (k % 2 == 0 ? 1.02 : 0.98) : 0.004 * x);
    Trace t = search(LoadGrid.concurrency(1, 16, 1), TPOT_40MS, Settings.defaults(), m);
    BoundarySearch.Probe at10 = t.probes().stream().filter(p -> p.load() == 10).findFirst().orElseThrow();
    assertThat(at10.verdict()).isEqualTo(Verdict.UNDECIDED);
    assertThat(at10.repetitions()).isEqualTo(3);
    assertThat(m.repetitions.get(10.0)).isEqualTo(3);
    assertThat(t.best()).hasValue(9);
    assertThat(t.firstNonPass()).hasValue(10);
    assertThat(t.stop()).isEqualTo(Stop.CONVERGED);
    assertThat(t.anomalies()).filteredOn(a -> a.kind() == AnomalyKind.UNDECIDED).singleElement()
        .satisfies(a -> assertThat(a.message()).startsWith("conc 10 undecided after 3 measurements: tpot.p50 ")
            .contains("against tpot.p50<=40ms (noise band"));
    assertThat(t.measurements()).isEqualTo(t.probes().size() + 2);
  }

  @Test
  void aRepetitionDecidesALoadJustOutsideTheBoundWhenTheNoiseIsSmall() throws Exception {
    // conc 10: 3 % above the bound, ±0.1 % between repetitions: near at first, decided by the second
    Model m = new Model("median_tpot", (x, k) -> x == 10 ? 0.0412 * (1 + 0.001 * k) : x < 10 ? 0.0036 * x : 0.0042 * x);
    Trace t = search(LoadGrid.concurrency(1, 16, 1), TPOT_40MS, Settings.defaults(), m);
    BoundarySearch.Probe at10 = t.probes().stream().filter(p -> p.load() == 10).findFirst().orElseThrow();
    assertThat(at10.verdict()).isEqualTo(Verdict.FAIL);
    assertThat(at10.repetitions()).isEqualTo(2);
    assertThat(at10.readings().get(0).bandLow()).isGreaterThan(0);
    assertThat(t.best()).hasValue(9);
  }

  @Test
  void theEndsOfTheGridStopTheSearchAtOnce() throws Exception {
    Model none = new Model("median_tpot", x -> 0.050);
    Trace t = search(LoadGrid.concurrency(1, 64, 1), TPOT_40MS, Settings.defaults(), none);
    assertThat(t.stop()).isEqualTo(Stop.NONE_PASS);
    assertThat(t.best()).isEmpty();
    assertThat(t.firstNonPass()).hasValue(1);
    assertThat(t.probes()).hasSize(1);

    Model all = new Model("median_tpot", x -> 0.0001 * x);
    Trace capped = search(LoadGrid.concurrency(1, 64, 1), TPOT_40MS, Settings.defaults(), all);
    assertThat(capped.stop()).isEqualTo(Stop.CAPPED);
    assertThat(capped.best()).hasValue(64);
    assertThat(capped.firstNonPass()).isEmpty();
  }

  @Test
  void aPointThatFailsToRunIsAFailAndSaidSo() throws Exception {
    BoundarySearch.Measurer m = (i, x, n) -> x > 12 ? Measurement.failed("request failure rate 40% exceeds 5%", "rf")
        : Measurement.of(Map.of("median_tpot", List.of(0.001 * x)));
    Trace t = BoundarySearch.run(LoadGrid.concurrency(1, 32, 1), TPOT_40MS, Settings.defaults(), SearchAxis.CONCURRENCY, m);
    assertThat(t.best()).hasValue(12);
    assertThat(t.firstNonPass()).hasValue(13);
    assertThat(t.anomalies()).extracting(BoundarySearch.Anomaly::kind).contains(AnomalyKind.FAILED);
    assertThat(t.firstNonPassProbe().orElseThrow().failure()).hasValue("request failure rate 40% exceeds 5%");
  }

  @Test
  void aMissingKeyFailsTheLoadNamingIt() throws Exception {
    BoundarySearch.Measurer m = (i, x, n) -> Measurement.of(Map.of("median_tpot", List.of(0.001)));
    Trace t = BoundarySearch.run(LoadGrid.concurrency(1, 8, 1), Slo.parse("ttft.p95<=1s"), Settings.defaults(),
        SearchAxis.CONCURRENCY, m);
    assertThat(t.probes().get(0).failure()).hasValue("the point's aggregate has no p95_ttft for ttft.p95");
  }

  @Test
  void everyTermMustHoldAndTheBindingOneDrivesTheSearch() throws Exception {
    // TTFT binds first (crossing at 20), TPOT later (at 40)
    BoundarySearch.Measurer m = (i, x, n) -> Measurement.of(Map.of(
        "median_tpot", List.of(0.001 * x), "p99_ttft", List.of(0.010 * x)));
    Trace t = BoundarySearch.run(LoadGrid.concurrency(1, 64, 1), Slo.parse("tpot.p50<=40ms,ttft.p99<=200ms"),
        Settings.defaults(), SearchAxis.CONCURRENCY, m);
    assertThat(t.best()).hasValue(20);
    assertThat(t.firstNonPassProbe().orElseThrow().binding().orElseThrow().term().label()).isEqualTo("ttft.p99");
  }

  @Test
  void aCoarserStepAndARateAxisWork() throws Exception {
    LoadGrid grid = new LoadGrid(0.5, 20, 0.5);
    BoundarySearch.Measurer m = (i, x, n) -> Measurement.of(Map.of("p99_e2el", List.of(0.4 * x)));
    Trace t = BoundarySearch.run(grid, Slo.parse("e2el.p99<=3s"), Settings.defaults(), SearchAxis.REQUEST_RATE, m);
    assertThat(t.best()).hasValue(7.5);
    assertThat(t.firstNonPass()).hasValue(8.0);
    assertThat(SearchAxis.REQUEST_RATE.describe(7.5)).isEqualTo("rate 7.5 req/s");
  }

  @Test
  void aMeasurerThatThrowsStopsTheSearch() {
    BoundarySearch.Measurer m = (i, x, n) -> {
      throw new InterruptedException("killed");
    };
    assertThatThrownBy(() -> BoundarySearch.run(LoadGrid.concurrency(1, 8, 1), TPOT_40MS, Settings.defaults(),
        SearchAxis.CONCURRENCY, m)).isInstanceOf(InterruptedException.class);
  }

  @Test
  void theGridIncludesItsLastLoad() {
    LoadGrid g = LoadGrid.concurrency(1, 10, 4);
    assertThat(g.size()).isEqualTo(4);
    assertThat(List.of(g.load(0), g.load(1), g.load(2), g.load(3))).containsExactly(1.0, 5.0, 9.0, 10.0);
    assertThat(g.floorIndex(9.5)).isEqualTo(2);
    assertThat(g.ceilIndex(9.5)).isEqualTo(3);
    assertThatThrownBy(() -> LoadGrid.concurrency(0, 10, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
