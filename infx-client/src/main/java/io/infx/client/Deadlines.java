package io.infx.client;

import io.infx.core.InfxStyle;
import java.time.Duration;
import org.immutables.value.Value;

/**
 * Bounded waits for every request: each one either completes or fails with
 * {@link FailureClass#TIMEOUT} (or {@link FailureClass#CONNECT}) within these limits, so no run can
 * hang. Checked by a watchdog with a resolution of {@link #checkInterval()}.
 */
@Value.Immutable
@InfxStyle
public abstract class Deadlines {

  /** Opening the TCP connection. Default 30 s. */
  @Value.Default
  public Duration connect() {
    return Duration.ofSeconds(30);
  }

  /** From send to the response head. Default 30 min (prefill of huge prompts under load). */
  @Value.Default
  public Duration firstByte() {
    return Duration.ofMinutes(30);
  }

  /** Longest silence between two reads of a streaming body. Default 10 min. */
  @Value.Default
  public Duration idle() {
    return Duration.ofMinutes(10);
  }

  /** Whole request, send to end of stream. Default 6 h (the reference's total timeout). */
  @Value.Default
  public Duration total() {
    return Duration.ofHours(6);
  }

  /** How often the watchdog looks at in-flight requests. Default 20 ms. */
  @Value.Default
  public Duration checkInterval() {
    return Duration.ofMillis(20);
  }

  public static ImmutableDeadlines.Builder builder() {
    return ImmutableDeadlines.builder();
  }

  public static Deadlines defaults() {
    return builder().build();
  }

  /** The same limit for first byte, idle and total, and for connect when shorter. */
  public static Deadlines all(Duration d) {
    return builder().connect(d).firstByte(d).idle(d).total(d).build();
  }
}
