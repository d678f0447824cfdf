package io.infx.client.sim;

import java.util.Map;

/**
 * A snapshot of the simulator's counters (the same numbers {@code /metrics} exposes).
 *
 * @param requestsReceived completions/chat requests accepted for processing (faulty ones included)
 * @param requestsFinished requests whose stream ended normally
 * @param promptTokens prompt tokens of admitted requests
 * @param generationTokens tokens generated
 * @param prefixCacheQueries prompt tokens looked up in the prefix cache
 * @param prefixCacheHits prompt tokens found in the prefix cache
 * @param running sequences decoding now
 * @param waiting sequences queued
 * @param faults injected faults by kind
 */
public record SimStats(long requestsReceived, long requestsFinished, long promptTokens,
    long generationTokens, long prefixCacheQueries, long prefixCacheHits, int running, int waiting,
    Map<Faults.Kind, Long> faults) {}
