package io.infx.client.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.ClientOptions;
import io.infx.client.Deadlines;
import io.infx.client.ImmutableServeBenchmark;
import io.infx.client.RequestRecord;
import io.infx.client.ServeBenchmark;
import io.infx.client.ServeResult;
import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.sim.Timeline;
import io.infx.client.tokenizer.BuiltinTokenizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Open-loop arrival schedules against client spec §4 step 5: request 0 is released at once and
 * after each request the loop waits an interval drawn from Gamma(shape = k, scale = 1/(λ·k)) —
 * mean 1/λ, variance 1/(λ²·k) — or exactly 1/λ for constant arrivals; and a concurrency ceiling
 * bounds what is in flight.
 *
 * <p>Statistical bounds: every sample comes from a fixed seed, so the outcome is deterministic;
 * the bounds are still derived (≥ 6 standard deviations, or a Kolmogorov–Smirnov critical value
 * at α = 10⁻⁶) so that a correct sampler passes for any seed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ArrivalScheduleTest {

  private static final int N = 200_000;

  private static double[] gaps(long[] schedule) {
    double[] g = new double[schedule.length - 1];
    for (int i = 1; i < schedule.length; i++) {
      g[i - 1] = (schedule[i] - schedule[i - 1]) / 1e9;
    }
    return g;
  }

  @Test
  void constantArrivalsAreExactlyOneOverRateApart() {
    for (double rate : new double[] {1, 3, 7.5, 1000}) {
      long[] s = LoadModel.constant(rate).scheduleNanos(5000, 1);
      assertThat(s[0]).isZero();
      for (int i = 0; i < s.length; i++) {
        double expected = i * 1e9 / rate;
        assertThat((double) s[i]).as("slot %d at %s/s", i, rate).isCloseTo(expected,
            org.assertj.core.api.Assertions.within(1.0));
      }
    }
    // the seed plays no role for constant arrivals
    assertThat(LoadModel.constant(4).scheduleNanos(100, 1))
        .isEqualTo(LoadModel.constant(4).scheduleNanos(100, 99));
  }

  @Test
  void gammaMeanIsOneOverRateAndVarianceFollowsBurstiness() {
    double rate = 50;
    for (double k : new double[] {0.25, 0.5, 1, 2, 4}) {
      long[] s = LoadModel.gamma(rate, k).scheduleNanos(N + 1, 12345);
      assertThat(s[0]).isZero();
      double[] g = gaps(s);
      assertThat(Arrays.stream(g).min().orElseThrow()).isGreaterThanOrEqualTo(0);
      double mean = Arrays.stream(g).average().orElseThrow();
      double var = Arrays.stream(g).map(x -> (x - mean) * (x - mean)).sum() / (g.length - 1);
      // mean: sd of the sample mean = sqrt(1/(λ²k n)), i.e. relative sd 1/sqrt(k n)
      double relSdMean = 1 / Math.sqrt(k * g.length);
      assertThat(mean * rate).as("mean × rate at burstiness %s", k)
          .isBetween(1 - 6 * relSdMean, 1 + 6 * relSdMean);
      // variance: Var(s²)/σ⁴ ≈ (2 + excess kurtosis)/n, gamma's excess kurtosis = 6/k
      double expectedVar = 1 / (rate * rate * k);
      double relSdVar = Math.sqrt((2 + 6 / k) / g.length);
      assertThat(var / expectedVar).as("variance / (1/(λ²k)) at burstiness %s", k)
          .isBetween(1 - 8 * relSdVar, 1 + 8 * relSdVar);
    }
  }

  /** Kolmogorov–Smirnov distance between the sample and a CDF. */
  private static double ks(double[] sample, DoubleUnaryOperator cdf) {
    double[] x = sample.clone();
    Arrays.sort(x);
    int n = x.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double f = cdf.applyAsDouble(x[i]);
      d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
    }
    return d;
  }

  /** erf by Abramowitz–Stegun 7.1.26 (absolute error below 1.5e-7), x ≥ 0. */
  private static double erf(double x) {
    double t = 1 / (1 + 0.3275911 * x);
    double y = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t
        + 0.254829592) * t;
    return 1 - y * Math.exp(-x * x);
  }

  @Test
  void interArrivalTimesFollowTheGammaDistribution() {
    double rate = 20;
    int n = 100_000;
    // two-sided KS critical value at α = 1e-6: sqrt(-ln(α/2)/2)/sqrt(n)
    double crit = Math.sqrt(-Math.log(0.5e-6) / 2) / Math.sqrt(n);
    // k = 1: exponential (Poisson arrivals), scale 1/λ
    double[] g1 = gaps(LoadModel.poisson(rate).scheduleNanos(n + 1, 7));
    assertThat(ks(g1, x -> 1 - Math.exp(-x * rate))).as("KS vs Exp(λ)").isLessThan(crit);
    // k = 2: Gamma(2, θ) has CDF 1 − e^(−x/θ)(1 + x/θ), θ = 1/(2λ)
    double th2 = 1 / (2 * rate);
    double[] g2 = gaps(LoadModel.gamma(rate, 2).scheduleNanos(n + 1, 7));
    assertThat(ks(g2, x -> 1 - Math.exp(-x / th2) * (1 + x / th2))).as("KS vs Gamma(2)")
        .isLessThan(crit);
    // k = 0.5 (the shape < 1 path): Gamma(1/2, θ) has CDF erf(sqrt(x/θ)), θ = 1/(0.5 λ)
    double th05 = 1 / (0.5 * rate);
    double[] g05 = gaps(LoadModel.gamma(rate, 0.5).scheduleNanos(n + 1, 7));
    assertThat(ks(g05, x -> erf(Math.sqrt(x / th05)))).as("KS vs Gamma(1/2)").isLessThan(crit);
    // and the exponential is *not* what burstiness 2 or 0.5 produce (the test can tell them apart)
    assertThat(ks(g2, x -> 1 - Math.exp(-x * rate))).isGreaterThan(crit);
    assertThat(ks(g05, x -> 1 - Math.exp(-x * rate))).isGreaterThan(crit);
  }

  @Test
  void schedulesAreDeterministicBySeed() {
    OpenLoop o = LoadModel.gamma(10, 0.7);
    assertThat(o.scheduleNanos(1000, 5)).isEqualTo(o.scheduleNanos(1000, 5));
    assertThat(o.withCeiling(3).scheduleNanos(1000, 5)).isEqualTo(o.scheduleNanos(1000, 5));
    assertThat(o.scheduleNanos(1000, 6)).isNotEqualTo(o.scheduleNanos(1000, 5));
    // Poisson is gamma with shape 1
    assertThat(LoadModel.poisson(10).scheduleNanos(1000, 5))
        .isEqualTo(LoadModel.gamma(10, 1).scheduleNanos(1000, 5));
    // a prefix of a longer schedule is the shorter schedule
    assertThat(Arrays.copyOf(o.scheduleNanos(1000, 5), 10)).isEqualTo(o.scheduleNanos(10, 5));
  }

  @Test
  void invalidOpenLoopsAreRejected() {
    assertThatThrownBy(() -> LoadModel.poisson(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LoadModel.poisson(Double.POSITIVE_INFINITY))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LoadModel.gamma(1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LoadModel.gamma(1, 1).withCeiling(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(LoadModel.gamma(1, 1).withCeiling(4).maxConcurrency()).hasValue(4);
    assertThat(LoadModel.gamma(1, 1).maxConcurrency()).isEmpty();
  }

  private static ImmutableServeBenchmark.Builder bench(SimServer sim, List<Prompt> prompts) {
    return ServeBenchmark.builder()
        .client(ClientOptions.builder().baseUri(sim.baseUri())
            .deadlines(Deadlines.builder().connect(Duration.ofSeconds(5))
                .firstByte(Duration.ofSeconds(20)).idle(Duration.ofSeconds(5))
                .total(Duration.ofSeconds(60)).build()).build())
        .backend(ServingBackend.VLLM).model("m").prompts(prompts)
        .body(BodyOptions.builder().ignoreEos(true).build());
  }

  /** Sweep line over [start, end) intervals; an end sorts before a start at equal times. */
  private static int peak(List<long[]> intervals) {
    List<long[]> ev = new ArrayList<>();
    for (long[] iv : intervals) {
      ev.add(new long[] {iv[0], +1});
      ev.add(new long[] {iv[1], -1});
    }
    ev.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    int cur = 0;
    int peak = 0;
    for (long[] e : ev) {
      cur += (int) e[1];
      peak = Math.max(peak, cur);
    }
    return peak;
  }

  @Test
  void ceilingBoundsConcurrencyAndIntendedTimesFollowTheSchedule() throws Exception {
    int n = 40;
    List<Prompt> prompts = RandomDataset.generate(BuiltinTokenizer.instance(), 16, 20, 1.0, 0, n,
        4);
    // 400 req/s against requests of ≥ 20 steps × 5 ms = 100 ms: far more than 3 would be in
    // flight without the ceiling
    OpenLoop load = LoadModel.gamma(400, 0.5).withCeiling(3);
    long seed = 77;
    SimConfig cfg = SimConfig.builder().decodeStepBase(Duration.ofMillis(5)).build();
    try (SimServer sim = SimServer.start(cfg)) {
      ServeResult run = bench(sim, prompts).load(load).seed(seed).build().run();
      List<RequestRecord> recs = run.sentRecords();
      assertThat(recs).hasSize(n).allSatisfy(r -> assertThat(r.success()).as(r.toString()).isTrue());
      List<long[]> client = new ArrayList<>();
      List<long[]> server = new ArrayList<>();
      for (RequestRecord r : recs) {
        client.add(new long[] {r.sendNanos(), r.endNanos()});
        Timeline t = awaitTimeline(sim, r.requestId().orElseThrow());
        server.add(new long[] {t.arrivalNanos(), t.lastTokenNanos()});
      }
      assertThat(peak(client)).as("client-side peak concurrency").isBetween(2, 3);
      assertThat(peak(server)).as("server-side peak concurrency").isBetween(1, 3);
      // intended send times are the schedule's slots, offset by the phase start
      long[] schedule = load.scheduleNanos(n, seed);
      long t0 = recs.get(0).intendedNanos();
      for (int i = 0; i < n; i++) {
        RequestRecord r = recs.get(i);
        assertThat(r.index()).isEqualTo(i);
        assertThat(r.intendedNanos() - t0).as("intended offset of %d", i).isEqualTo(schedule[i]);
        assertThat(r.sendNanos()).isGreaterThanOrEqualTo(r.intendedNanos());
      }
      // the ceiling made requests wait: the last one was sent well after its slot
      RequestRecord last = recs.get(n - 1);
      assertThat(last.sendNanos() - last.intendedNanos()).isGreaterThan(50_000_000L);
    }
  }

  @Test
  void uncappedOpenLoopSendsOnSchedule() throws Exception {
    int n = 30;
    List<Prompt> prompts = RandomDataset.generate(BuiltinTokenizer.instance(), 8, 2, 1.0, 0, n, 4);
    OpenLoop load = LoadModel.constant(40); // one request every 25 ms
    try (SimServer sim = SimServer.start(SimConfig.defaults())) {
      ServeResult run = bench(sim, prompts).load(load).build().run();
      List<RequestRecord> recs = run.sentRecords();
      assertThat(recs).hasSize(n);
      long a0 = awaitTimeline(sim, recs.get(0).requestId().orElseThrow()).arrivalNanos();
      List<Long> errors = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        long arrival = awaitTimeline(sim, recs.get(i).requestId().orElseThrow()).arrivalNanos();
        errors.add(Math.abs((arrival - a0) - i * 25_000_000L));
        assertThat(recs.get(i).sendNanos()).isGreaterThanOrEqualTo(recs.get(i).intendedNanos());
      }
      errors.sort(null);
      // Median deviation of the true server arrival from the 25 ms grid. The exact schedule is
      // checked on a virtual clock (ArrivalDispatcherTest); this wall-clock check only has to
      // tell "on the grid" from "all at once" (a median error of ~375 ms), with room for a loaded
      // 2-core machine (28 ms was seen against the former 20 ms bound).
      assertThat(errors.get(n / 2)).isLessThanOrEqualTo(Duration.ofMillis(100).toNanos());
      // the run cannot be shorter than its schedule: 29 gaps of 25 ms
      assertThat(run.durationSeconds()).isGreaterThanOrEqualTo(29 * 0.025);
    }
  }

  static Timeline awaitTimeline(SimServer sim, String id) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      var t = sim.timeline(id);
      if (t.isPresent()) {
        return t.get();
      }
      Thread.sleep(5);
    }
    throw new AssertionError("no timeline for " + id);
  }
}
