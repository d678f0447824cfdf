package io.infx.client.agentx;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A subagent of a Weka trace: a child conversation with fresh context, spawned by the parent and
 * (usually) joined by a later parent turn.
 *
 * @param t spawn time (= first inner request), seconds from the start of the conversation
 * @param agentId e.g. {@code subagent_003_1a2b3c4d}
 * @param subagentType label, {@code Subagent} for header-identified agents
 * @param durationMs last inner end − first inner start, when recorded
 * @param totalTokens Σ(in + out) of the inner requests, when recorded
 * @param toolUseCount recorded tool uses, when recorded
 * @param status {@code completed}, {@code async_launched}, …
 * @param models models seen inside
 * @param entries inner requests (and nested subagents), in time order
 * @param toolTokens declared tool prefix size, tokens
 * @param systemTokens declared system prefix size, tokens
 */
public record SubagentEntry(
    double t,
    String agentId,
    String subagentType,
    OptionalLong durationMs,
    OptionalLong totalTokens,
    OptionalLong toolUseCount,
    String status,
    List<String> models,
    List<TraceEntry> entries,
    int toolTokens,
    int systemTokens)
    implements TraceEntry {

  public SubagentEntry {
    Objects.requireNonNull(agentId, "agentId");
    Objects.requireNonNull(subagentType, "subagentType");
    Objects.requireNonNull(durationMs, "durationMs");
    Objects.requireNonNull(totalTokens, "totalTokens");
    Objects.requireNonNull(toolUseCount, "toolUseCount");
    Objects.requireNonNull(status, "status");
    models = List.copyOf(models);
    entries = List.copyOf(entries);
  }

  /** Recorded end: the latest {@code t + api_time} of the inner requests (nested ones included). */
  public double end() {
    double end = t;
    for (TraceEntry e : entries) {
      end = Math.max(end, e instanceof TraceRequest r ? r.end() : ((SubagentEntry) e).end());
    }
    return end;
  }
}
