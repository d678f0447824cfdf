package io.infx.client.agentx;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The figures of one session of an AgentX replay — one live replay of one conversation of a trace
 * (a root conversation or one of its subagents; spec {@code agentx.md} §1.3) — over its
 * <b>profiling</b> requests (warm-up primers are not counted).
 *
 * @param play the play of the trace the session belongs to ({@code session_num} of
 *     {@code profile_export.jsonl}); a root session and its subagents share it
 * @param conversationId the conversation replayed ({@code conversation_id}); a subagent's carries
 *     its parent's id before {@code ::}
 * @param rootCorrelationId the tree the session belongs to ({@code root_correlation_id})
 * @param requests profiling requests sent (successful, failed and cancelled)
 * @param failed requests that ended with an error (cancellations excluded)
 * @param cancelled requests cancelled when the window closed
 * @param inputTokens prompt tokens of the successful requests (the client's count)
 * @param outputTokens output tokens of the successful requests
 * @param cacheHitBlocks prefix-cache blocks the trace says the successful requests reuse
 * @param cacheBlocks blocks of the successful requests' prompts in all
 * @param meanTtftMillis mean TTFT of the successful requests, ms; empty without one
 * @param meanItlMillis mean ITL of the successful requests that streamed more than one token, ms
 * @param span from the first request's start to the last one's end (wall clock)
 */
public record AgenticSession(int play, String conversationId, String rootCorrelationId, int requests,
    int failed, int cancelled, long inputTokens, long outputTokens, long cacheHitBlocks, long cacheBlocks,
    OptionalDouble meanTtftMillis, OptionalDouble meanItlMillis, Duration span) {

  /** Checks the components. */
  public AgenticSession {
    Objects.requireNonNull(conversationId, "conversationId");
    Objects.requireNonNull(rootCorrelationId, "rootCorrelationId");
    Objects.requireNonNull(meanTtftMillis, "meanTtftMillis");
    Objects.requireNonNull(meanItlMillis, "meanItlMillis");
    Objects.requireNonNull(span, "span");
  }

  /** Successful requests: {@code requests − failed − cancelled}. */
  public int successful() {
    return requests - failed - cancelled;
  }

  /** Theoretical prefix-cache hit rate of the successful requests, in [0, 1]; 0 without blocks. */
  public double theoreticalCacheHitRate() {
    return cacheBlocks == 0 ? 0 : (double) cacheHitBlocks / cacheBlocks;
  }

  /** Whether this is a subagent's session (its conversation id has a {@code ::} part). */
  public boolean subagent() {
    return conversationId.contains("::");
  }
}
