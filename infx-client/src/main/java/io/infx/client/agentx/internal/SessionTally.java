package io.infx.client.agentx.internal;

import io.infx.client.agentx.AgenticSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;

/**
 * Per-session figures of a replay, summed record by record as the engine emits them (profiling
 * records only), in the order sessions first sent a profiling request. A few dozen bytes per
 * session, none per request.
 */
final class SessionTally implements Consumer<ReplayRecord> {

  private static final class Sums {
    final int play;
    final String conversationId;
    final String root;
    int requests;
    int failed;
    int cancelled;
    long inputTokens;
    long outputTokens;
    long hitBlocks;
    long blocks;
    double ttftSum;
    int ttftCount;
    double itlSum;
    int itlCount;
    long firstStartNs = Long.MAX_VALUE;
    long lastEndNs = Long.MIN_VALUE;

    Sums(ReplayRecord r) {
      this.play = r.sessionNum();
      this.conversationId = r.conversationId();
      this.root = r.rootCorrelationId();
    }
  }

  private final Map<String, Sums> sessions = new LinkedHashMap<>();

  @Override
  public synchronized void accept(ReplayRecord r) {
    if (r.warmup()) {
      return;
    }
    Sums s = sessions.computeIfAbsent(r.sessionNum() + "\u0000" + r.conversationId(), k -> new Sums(r));
    s.requests++;
    s.firstStartNs = Math.min(s.firstStartNs, r.startNs());
    s.lastEndNs = Math.max(s.lastEndNs, r.endNs());
    if (r.cancelled()) {
      s.cancelled++;
      return;
    }
    if (r.error()) {
      s.failed++;
      return;
    }
    s.inputTokens += r.inputTokens();
    s.outputTokens += r.outputTokens();
    if (r.totalBlocks() > 0) {
      // clamped as the aggregate's theoretical hit (ReplayStats)
      s.hitBlocks += Math.max(0, Math.min(r.hitBlocks(), r.totalBlocks()));
      s.blocks += r.totalBlocks();
    }
    if (Double.isFinite(r.ttftMs())) {
      s.ttftSum += r.ttftMs();
      s.ttftCount++;
    }
    if (Double.isFinite(r.itlMs())) {
      s.itlSum += r.itlMs();
      s.itlCount++;
    }
  }

  /** The sessions, in the order they first sent a profiling request. */
  synchronized List<AgenticSession> sessions() {
    List<AgenticSession> out = new ArrayList<>(sessions.size());
    for (Sums s : sessions.values()) {
      out.add(new AgenticSession(s.play, s.conversationId, s.root, s.requests, s.failed, s.cancelled,
          s.inputTokens, s.outputTokens, s.hitBlocks, s.blocks,
          s.ttftCount == 0 ? OptionalDouble.empty() : OptionalDouble.of(s.ttftSum / s.ttftCount),
          s.itlCount == 0 ? OptionalDouble.empty() : OptionalDouble.of(s.itlSum / s.itlCount),
          Duration.ofNanos(Math.max(0, s.lastEndNs - s.firstStartNs))));
    }
    return List.copyOf(out);
  }
}
