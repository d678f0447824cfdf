package io.infx.client.sim;

import java.util.List;

/**
 * The true server-side timeline of one request, for accuracy tests: {@link System#nanoTime()}
 * readings of the simulator's JVM (comparable with the client's when both run in one JVM).
 *
 * @param requestId the {@code x-request-id} the response carried
 * @param arrivalNanos when the complete request had been read
 * @param headersNanos when the response head was handed to the transport
 * @param chunkNanos when each token chunk's bytes were written to the connection
 * @param chunkTokens tokens in each chunk
 * @param promptTokens prompt tokens (server count)
 * @param cachedTokens prompt tokens served from the prefix cache
 * @param completionTokens generated tokens
 * @param fault the injected fault, or {@code "none"}
 */
public record Timeline(String requestId, long arrivalNanos, long headersNanos,
    List<Long> chunkNanos, List<Integer> chunkTokens, int promptTokens, int cachedTokens,
    int completionTokens, String fault) {

  /** Time of the first token chunk, or -1. */
  public long firstTokenNanos() {
    return chunkNanos.isEmpty() ? -1 : chunkNanos.get(0);
  }

  /** Time of the last token chunk, or -1. */
  public long lastTokenNanos() {
    return chunkNanos.isEmpty() ? -1 : chunkNanos.get(chunkNanos.size() - 1);
  }
}
