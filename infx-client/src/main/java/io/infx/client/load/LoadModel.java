package io.infx.client.load;

import java.util.OptionalInt;

/**
 * How requests are released. Two distinct models, as Gatling separates them:
 * <ul>
 *   <li>{@link ClosedLoop}: a fixed number of in-flight requests; a new one starts when one
 *       finishes (the reference with {@code --request-rate inf --max-concurrency C}). A request's
 *       intended send time is the moment its slot freed.
 *   <li>{@link OpenLoop}: arrivals on a schedule (Poisson, gamma with burstiness, or constant
 *       spacing) independent of completions, optionally under a concurrency ceiling. A request's
 *       intended send time is its schedule slot; time spent waiting for the ceiling is queue wait.
 * </ul>
 */
public sealed interface LoadModel permits ClosedLoop, OpenLoop {

  /** The most requests in flight at once, when bounded. */
  OptionalInt maxConcurrency();

  /** A closed loop of {@code concurrency} requests (IllegalArgumentException if &lt; 1). */
  static ClosedLoop closed(int concurrency) {
    return new ClosedLoop(concurrency);
  }

  /**
   * Poisson arrivals at {@code requestsPerSecond} req/s (IllegalArgumentException unless finite
   * and &gt; 0).
   */
  static OpenLoop poisson(double requestsPerSecond) {
    return new OpenLoop(requestsPerSecond, OpenLoop.Arrivals.GAMMA, 1.0, OptionalInt.empty());
  }

  /**
   * Gamma arrivals at {@code requestsPerSecond} req/s with shape = burstiness (1 = Poisson,
   * &lt; 1 burstier, &gt; 1 more regular). IllegalArgumentException unless the rate is finite
   * and &gt; 0 and the burstiness &gt; 0.
   */
  static OpenLoop gamma(double requestsPerSecond, double burstiness) {
    return new OpenLoop(requestsPerSecond, OpenLoop.Arrivals.GAMMA, burstiness,
        OptionalInt.empty());
  }

  /** Evenly spaced arrivals, {@code 1 / requestsPerSecond} s apart (rate finite and &gt; 0). */
  static OpenLoop constant(double requestsPerSecond) {
    return new OpenLoop(requestsPerSecond, OpenLoop.Arrivals.CONSTANT, 1.0, OptionalInt.empty());
  }
}
