package io.infx.client.agentx.internal;

import io.infx.client.agentx.TraceRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The message history of one live conversation, as KV-block ids per message (spec
 * {@code agentx.md} §1.4). Turn k sends the whole conversation: the previous messages, the
 * previous turn's recorded output as an assistant message, then the new user content — so turn k's
 * prompt extends turn k-1's byte for byte exactly where the trace's hash ids extend.
 *
 * <ul>
 *   <li>New blocks after a pure extension: the first {@code ceil(out_{k-1} / block)} (at most all
 *       but one) are the assistant message, the rest a new user message.
 *   <li>When a turn keeps only a prefix of the previous ids (compaction), the history is cut at
 *       the first differing block and the rest is one new user message (a context reset).
 *   <li>A declared tool/system prefix becomes a system message of the first turn; none is invented.
 *   <li>The prompt has exactly {@code in} content tokens: the last block is cut short, or an
 *       unhashed filler tail is appended, as needed.
 * </ul>
 */
final class Transcript {

  static final String SYSTEM = "system";
  static final String USER = "user";
  static final String ASSISTANT = "assistant";

  /** One message: its role and the hash ids of its blocks. */
  record Message(String role, int[] blocks) {}

  private final List<Message> messages = new ArrayList<>();
  private int[] ids = new int[0];
  private int previousOut;
  private boolean first = true;

  /** Messages of the current turn (after {@link #advance}). */
  List<Message> messages() {
    return messages;
  }

  /** Moves to the next turn of the conversation. */
  void advance(TraceRequest turn, int systemTokens, int blockSize) {
    int[] next = turn.hashIds().toArray();
    int lcp = 0;
    int max = Math.min(ids.length, next.length);
    while (lcp < max && ids[lcp] == next[lcp]) {
      lcp++;
    }
    boolean extension = !first && lcp == ids.length;
    cut(lcp);
    int fresh = next.length - lcp;
    int at = lcp;
    if (first && systemTokens > 0 && next.length > 1) {
      int sys = Math.min(next.length - 1, Math.max(1, (systemTokens + blockSize - 1) / blockSize));
      messages.add(new Message(SYSTEM, Arrays.copyOfRange(next, 0, sys)));
      at = sys;
      fresh = next.length - sys;
    } else if (extension && fresh > 1 && previousOut > 0) {
      int assistant = Math.min(fresh - 1, (previousOut + blockSize - 1) / blockSize);
      messages.add(new Message(ASSISTANT, Arrays.copyOfRange(next, at, at + assistant)));
      at += assistant;
      fresh -= assistant;
    }
    if (fresh > 0 || messages.isEmpty() || !messages.get(messages.size() - 1).role().equals(USER)) {
      messages.add(new Message(USER, Arrays.copyOfRange(next, at, next.length)));
    }
    ids = next;
    previousOut = turn.outputTokens();
    first = false;
  }

  /** Keeps the history up to block {@code n}, truncating the message that contains it. */
  private void cut(int n) {
    int covered = 0;
    for (int i = 0; i < messages.size(); i++) {
      Message m = messages.get(i);
      if (covered + m.blocks().length > n) {
        int keep = n - covered;
        while (messages.size() > i) {
          messages.remove(messages.size() - 1);
        }
        if (keep > 0) {
          messages.add(new Message(m.role(), Arrays.copyOf(m.blocks(), keep)));
        }
        return;
      }
      covered += m.blocks().length;
    }
  }

  /** Number of blocks in the current messages. */
  int blocks() {
    int n = 0;
    for (Message m : messages) {
      n += m.blocks().length;
    }
    return n;
  }
}
