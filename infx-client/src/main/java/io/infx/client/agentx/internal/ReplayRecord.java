package io.infx.client.agentx.internal;

import io.infx.core.InfxStyle;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One replayed request as exported to {@code profile_export.jsonl} (AIPerf's record shape, spec
 * {@code agentx.md} §3.1). Times are wall-clock epoch nanoseconds; metric values in ms and tokens.
 * Metrics a request did not produce are {@code NaN} (the default), absent times {@code 0}.
 *
 * <p>Built with {@link #builder()}: the engine fills the identity (session, ids, turn, blocks)
 * when it sends, {@link ReplayRecords} the observed part when the request ends.
 */
@Value.Immutable
@InfxStyle
public abstract class ReplayRecord {

  /** Why a request did not produce a response: AIPerf's {@code error} object. */
  public record Failure(int code, String type, String message) {}

  public abstract int sessionNum();

  public abstract String requestId();

  public abstract String correlationId();

  public abstract String rootCorrelationId();

  public abstract String conversationId();

  public abstract int turnIndex();

  public abstract boolean warmup();

  public abstract long startNs();

  /** When the response headers arrived; 0 when they never did. */
  @Value.Default
  public long ackNs() {
    return 0;
  }

  public abstract long endNs();

  @Value.Default
  public boolean cancelled() {
    return false;
  }

  /** When the request was cancelled; 0 unless {@link #cancelled()}. */
  @Value.Default
  public long cancellationNs() {
    return 0;
  }

  public abstract int inputTokens();

  @Value.Default
  public int outputTokens() {
    return 0;
  }

  @Value.Default
  public double ttftMs() {
    return Double.NaN;
  }

  @Value.Default
  public double latencyMs() {
    return Double.NaN;
  }

  @Value.Default
  public double itlMs() {
    return Double.NaN;
  }

  @Value.Default
  public double fullResponseItlMs() {
    return Double.NaN;
  }

  /** The error, for a failed or cancelled request. */
  public abstract Optional<Failure> failure();

  /** The server said the prompt no longer fits the model's context. */
  @Value.Default
  public boolean contextOverflow() {
    return false;
  }

  /** Prefix-cache blocks of this turn the trace says are reused / its blocks in all. */
  public abstract int hitBlocks();

  public abstract int totalBlocks();

  /** How late the send was against the schedule (ms); 0 for warmup. */
  @Value.Default
  public double latenessMs() {
    return 0;
  }

  /** True when the record carries an error (a failure or a cancellation). */
  public boolean error() {
    return failure().isPresent();
  }

  public static ImmutableReplayRecord.Builder builder() {
    return ImmutableReplayRecord.builder();
  }
}
