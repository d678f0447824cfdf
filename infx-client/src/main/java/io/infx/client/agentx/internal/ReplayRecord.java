package io.infx.client.agentx.internal;

/**
 * One replayed request as exported to {@code profile_export.jsonl} (AIPerf's record shape, spec
 * {@code agentx.md} §3.1). Times are wall-clock epoch nanoseconds; metric values in ms and tokens.
 * Missing values are {@code NaN} / negative.
 */
public record ReplayRecord(
    int sessionNum,
    String requestId,
    String correlationId,
    String rootCorrelationId,
    String conversationId,
    int turnIndex,
    boolean warmup,
    long startNs,
    long ackNs,
    long endNs,
    boolean cancelled,
    long cancellationNs,
    int inputTokens,
    int outputTokens,
    double ttftMs,
    double latencyMs,
    double itlMs,
    double fullResponseItlMs,
    int errorCode,
    String errorType,
    String errorMessage,
    boolean contextOverflow,
    int hitBlocks,
    int totalBlocks,
    double latenessMs) {

  public boolean error() {
    return errorType != null;
  }
}
