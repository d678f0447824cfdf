package io.infx.client.agentx;

/**
 * One entry of a Weka trace's {@code requests} list: a recorded model request or a subagent
 * (spec {@code agentx.md} §2.1). Entries are in recorded time order.
 */
public sealed interface TraceEntry permits TraceRequest, SubagentEntry {

  /** Recorded start, seconds from the start of the conversation. */
  double t();
}
