package io.infx.client.load;

import java.util.OptionalInt;

/**
 * Closed loop: {@code concurrency} requests in flight; each completion releases the next request.
 *
 * @param concurrency in-flight requests, ≥ 1
 * @throws IllegalArgumentException if {@code concurrency} &lt; 1
 */
public record ClosedLoop(int concurrency) implements LoadModel {
  public ClosedLoop {
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be ≥ 1, got " + concurrency);
    }
  }

  /** Always {@link #concurrency()}. */
  @Override
  public OptionalInt maxConcurrency() {
    return OptionalInt.of(concurrency);
  }
}
