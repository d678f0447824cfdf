package io.infx.client.agentx.internal;

import io.infx.client.agentx.SubagentEntry;
import io.infx.client.agentx.TraceEntry;
import io.infx.client.agentx.TraceRequest;
import io.infx.client.agentx.WekaTrace;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How a trace is replayed (spec {@code agentx.md} §1.6, §2.2): its conversations and their
 * spawn/join anchors, and the theoretical prefix-cache counts.
 *
 * <ul>
 *   <li>A request stream (the top level, or a subagent's requests) is split into chains that never
 *       overlap: a request continues the ended chain with which it shares the longest hash-id
 *       prefix; when none shares one it continues the first (main) chain if that has ended, else it
 *       starts a side chain ({@code ::fa:NNN}) — recorded parallelism survives as siblings.
 *   <li>A subagent or side chain is spawned by the last parent turn recorded at or before its
 *       start, and starts at its recorded offset from that turn's start (so recorded overlap with
 *       the parent survives); it is joined by the first later parent turn starting at or after its
 *       end (1 ms epsilon); without such a turn it runs in the background. Without a spawning
 *       turn it is dropped (counted in {@link #droppedChildren()}).
 *   <li>Theoretical hits: all requests of the trace in recorded time order with one set of seen
 *       ids; a request's hit blocks are its leading blocks already seen.
 * </ul>
 */
public final class TracePlan {

  static final double EPSILON = 1e-3;

  private final WekaTrace trace;
  private final Conversation root;
  private final int requestCount;
  private final int droppedChildren;

  private TracePlan(WekaTrace trace, Conversation root, int requestCount, int dropped) {
    this.trace = trace;
    this.root = root;
    this.requestCount = requestCount;
    this.droppedChildren = dropped;
  }

  public WekaTrace trace() {
    return trace;
  }

  public Conversation root() {
    return root;
  }

  /** Requests in all conversations of the plan. */
  public int requestCount() {
    return requestCount;
  }

  /** Subagents and side chains dropped because no parent turn precedes them. */
  public int droppedChildren() {
    return droppedChildren;
  }

  /** Plans a trace; {@code null} when it has no top-level request. */
  public static TracePlan of(WekaTrace trace) {
    Builder b = new Builder(trace.id());
    Conversation root = b.stream(trace.entries(), trace.id(), 0, null);
    if (root == null) {
      return null;
    }
    b.theoreticalHits();
    return new TracePlan(trace, root, b.requests, b.dropped);
  }

  private static final class Builder {
    final String traceId;
    int requests;
    int dropped;
    final List<Object[]> all = new ArrayList<>(); // {t, order, conversation, turn}
    int order;

    Builder(String traceId) {
      this.traceId = traceId;
    }

    /**
     * Builds the conversations of one stream; returns its main chain (null when the stream has no
     * request), attaching subagents and side chains to it.
     */
    Conversation stream(List<TraceEntry> entries, String mainId, int depth, String sideBase) {
      List<Chain> chains = new ArrayList<>();
      List<SubagentEntry> subagents = new ArrayList<>();
      for (TraceEntry e : entries) {
        if (e instanceof SubagentEntry s) {
          subagents.add(s);
          continue;
        }
        TraceRequest r = (TraceRequest) e;
        int[] ids = r.hashIds().toArray();
        Chain best = null;
        int bestLcp = 0;
        for (Chain c : chains) {
          if (c.lastEnd <= r.t() + EPSILON) {
            int lcp = lcp(c.lastIds, ids);
            if (lcp > bestLcp) {
              best = c;
              bestLcp = lcp;
            }
          }
        }
        if (best == null && !chains.isEmpty() && chains.get(0).lastEnd <= r.t() + EPSILON) {
          best = chains.get(0);
        }
        if (best == null) {
          best = new Chain();
          chains.add(best);
        }
        best.requests.add(r);
        best.lastEnd = Math.max(best.lastEnd, r.end());
        best.lastIds = ids;
      }
      if (chains.isEmpty()) {
        dropped += subagents.size();
        return null;
      }
      Conversation main = conversation(mainId, chains.get(0).requests, depth);
      String base = sideBase == null ? mainId : sideBase;
      for (int i = 1; i < chains.size(); i++) {
        Conversation side = conversation(base + ":fa:" + String.format("%03d", i - 1), chains.get(i).requests, depth + 1);
        attach(main, side, chains.get(i).requests.get(0).t());
      }
      for (SubagentEntry s : subagents) {
        String id = traceId + "::sa:" + s.agentId();
        Conversation child = stream(s.entries(), id, depth + 1, id);
        if (child == null) {
          continue;
        }
        attach(main, child, child.turns[0].t());
      }
      return main;
    }

    private Conversation conversation(String id, List<TraceRequest> turns, int depth) {
      Conversation c = new Conversation(id, turns, depth);
      for (int i = 0; i < turns.size(); i++) {
        all.add(new Object[] {turns.get(i).t(), order++, c, i});
      }
      requests += turns.size();
      return c;
    }

    /** Anchors {@code child} (starting at {@code start}) on {@code parent}, or drops it. */
    private void attach(Conversation parent, Conversation child, double start) {
      int spawn = -1;
      for (int i = 0; i < parent.turns.length; i++) {
        if (parent.turns[i].t() <= start + EPSILON) {
          spawn = i;
        }
      }
      if (spawn < 0) {
        dropped++;
        requests -= countRequests(child);
        return;
      }
      double childEnd = endOf(child);
      int join = -1;
      for (int j = spawn + 1; j < parent.turns.length; j++) {
        if (parent.turns[j].t() >= childEnd - EPSILON) {
          join = j;
          break;
        }
      }
      Conversation.Child c = new Conversation.Child(child, spawn,
          join, Math.max(0, start - parent.turns[spawn].t()),
          join < 0 ? 0 : Math.max(0, parent.turns[join].t() - childEnd));
      parent.spawnedBy[spawn].add(c);
      if (join >= 0) {
        parent.joinedAt[join].add(c);
      }
    }

    private static double endOf(Conversation c) {
      double end = c.end();
      for (List<Conversation.Child> l : c.spawnedBy) {
        for (Conversation.Child ch : l) {
          if (!ch.background()) {
            end = Math.max(end, endOf(ch.conversation()));
          }
        }
      }
      return end;
    }

    private int countRequests(Conversation c) {
      int n = c.turns.length;
      for (List<Conversation.Child> l : c.spawnedBy) {
        for (Conversation.Child ch : l) {
          n += countRequests(ch.conversation());
        }
      }
      // its requests stay in `all` for theoretical counting but are never replayed
      return n;
    }

    void theoreticalHits() {
      all.sort(Comparator.<Object[]>comparingDouble(o -> (double) o[0]).thenComparingInt(o -> (int) o[1]));
      Set<Integer> seen = new HashSet<>();
      for (Object[] o : all) {
        Conversation c = (Conversation) o[2];
        int turn = (int) o[3];
        int[] ids = c.turns[turn].hashIds().toArray();
        int hit = 0;
        while (hit < ids.length && seen.contains(ids[hit])) {
          hit++;
        }
        c.hitBlocks[turn] = hit;
        c.totalBlocks[turn] = ids.length;
        for (int id : ids) {
          seen.add(id);
        }
      }
    }

    private static int lcp(int[] a, int[] b) {
      int n = Math.min(a.length, b.length);
      int i = 0;
      while (i < n && a[i] == b[i]) {
        i++;
      }
      return i;
    }
  }

  private static final class Chain {
    final List<TraceRequest> requests = new ArrayList<>();
    double lastEnd = Double.NEGATIVE_INFINITY;
    int[] lastIds = new int[0];
  }
}
