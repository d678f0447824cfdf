package io.infx.client.agentx;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One recorded agent session in the Weka trace format of the AgentX corpora (spec {@code agentx.md}
 * §2.1): no text, only timings, token counts and KV-block ids, from which the replayer synthesizes
 * prompts with the same block-sharing pattern.
 *
 * @param id trace id (session id of the root conversation)
 * @param models models seen (informational)
 * @param blockSize tokens per hash block (64 in every SemiAnalysis corpus)
 * @param scope whether hash ids are namespaced per trace or shared by the corpus
 * @param toolTokens declared tools prefix size, tokens
 * @param systemTokens declared system prefix size, tokens
 * @param entries requests and subagents, interleaved in time order
 */
public record WekaTrace(
    String id,
    List<String> models,
    int blockSize,
    HashIdScope scope,
    int toolTokens,
    int systemTokens,
    List<TraceEntry> entries) {

  /** Namespace of hash ids. */
  public enum HashIdScope {
    /** Ids are per trace: the same id in two traces means different bytes. */
    LOCAL,
    /** Ids are shared by the whole corpus. */
    GLOBAL
  }

  public WekaTrace {
    Objects.requireNonNull(id, "id");
    models = List.copyOf(models);
    Objects.requireNonNull(scope, "scope");
    if (blockSize <= 0) {
      throw new IllegalArgumentException("blockSize must be positive: " + blockSize);
    }
    entries = List.copyOf(entries);
  }

  /** The top-level model requests, in order (subagent entries skipped). */
  public List<TraceRequest> topLevelRequests() {
    List<TraceRequest> out = new ArrayList<>();
    for (TraceEntry e : entries) {
      if (e instanceof TraceRequest r) {
        out.add(r);
      }
    }
    return out;
  }

  /** Every model request, top-level and inside subagents at any depth. */
  public int requestCount() {
    return count(entries);
  }

  private static int count(List<TraceEntry> entries) {
    int n = 0;
    for (TraceEntry e : entries) {
      n += e instanceof SubagentEntry s ? count(s.entries()) : 1;
    }
    return n;
  }

  /** Recorded span: from 0 to the latest request end. */
  public double span() {
    double end = 0;
    for (TraceEntry e : entries) {
      end = Math.max(end, e instanceof TraceRequest r ? r.end() : ((SubagentEntry) e).end());
    }
    return end;
  }
}
