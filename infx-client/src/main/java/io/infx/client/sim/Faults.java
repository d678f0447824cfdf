package io.infx.client.sim;

import io.infx.core.InfxStyle;
import java.time.Duration;
import java.util.Map;
import org.immutables.value.Value;

/**
 * Fault injection: each request is faulty with probability {@link #rate()}, and a faulty request
 * gets one {@link Kind} drawn with the given weights. Draws are seeded (simulator seed and the
 * request's arrival number), so a run with one client at a time is reproducible.
 */
@Value.Immutable
@InfxStyle
public abstract class Faults {

  /** What goes wrong. */
  public enum Kind {
    /** 400 with an OpenAI error body. */
    HTTP_400,
    /** 500 with an OpenAI error body. */
    HTTP_500,
    /** The connection is closed abruptly after {@link #faultAfterChunks()} chunks. */
    RESET_MID_STREAM,
    /** The stream stops after {@link #faultAfterChunks()} chunks for {@link #stall()}, then goes on. */
    STALL,
    /** The response head is sent only after {@link #headerDelay()}. */
    DELAYED_HEADERS,
    /** A chunk that is not valid JSON is sent after {@link #faultAfterChunks()} chunks. */
    MALFORMED_CHUNK,
    /** 200, then an in-stream {@code {"error": ...}} object instead of tokens. */
    IN_STREAM_ERROR
  }

  /** Probability that a request is faulty, in [0, 1]. */
  @Value.Default
  public double rate() {
    return 0;
  }

  /** Relative weights of the kinds; a kind not listed never happens. */
  public abstract Map<Kind, Double> weights();

  /** Chunks sent before a mid-stream fault. Default 2. */
  @Value.Default
  public int faultAfterChunks() {
    return 2;
  }

  /** Pause of {@link Kind#STALL}. Default 10 min (i.e. until the client gives up). */
  @Value.Default
  public Duration stall() {
    return Duration.ofMinutes(10);
  }

  /** Delay of {@link Kind#DELAYED_HEADERS}. Default 1 s. */
  @Value.Default
  public Duration headerDelay() {
    return Duration.ofSeconds(1);
  }

  @Value.Check
  protected void check() {
    if (rate() < 0 || rate() > 1) {
      throw new IllegalArgumentException("fault rate must be in [0, 1]: " + rate());
    }
    if (rate() > 0 && weights().values().stream().mapToDouble(Double::doubleValue).sum() <= 0) {
      throw new IllegalArgumentException("a fault rate needs at least one kind with a weight > 0");
    }
  }

  public static ImmutableFaults.Builder builder() {
    return ImmutableFaults.builder();
  }

  public static Faults none() {
    return builder().build();
  }

  /** Every request faulty with {@code kind}. */
  public static Faults always(Kind kind) {
    return builder().rate(1).putWeights(kind, 1.0).build();
  }
}
