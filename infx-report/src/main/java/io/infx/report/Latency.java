package io.infx.report;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The statistics of one latency metric (TTFT, TPOT or E2EL) of one measured point, in
 * <b>milliseconds</b>. Statistics the source row does not publish are absent.
 *
 * @param millis statistic → value in ms (finite, non-negative)
 */
public record Latency(Map<Percentile, Double> millis) {

  private static final Latency NONE = new Latency(Map.of());

  public Latency {
    EnumMap<Percentile, Double> copy = new EnumMap<>(Percentile.class);
    millis.forEach((p, v) -> {
      if (v == null || !Double.isFinite(v) || v < 0) {
        throw new IllegalArgumentException(p.label() + " must be a finite value >= 0 ms, got " + v);
      }
      copy.put(p, v);
    });
    millis = Collections.unmodifiableMap(copy);
  }

  /** No statistic at all. */
  public static Latency none() {
    return NONE;
  }

  /** The value of one statistic in ms, if published. */
  public OptionalDouble get(Percentile p) {
    Double v = millis.get(p);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }
}
