package io.infx.client.agentx.internal;

import io.infx.client.agentx.TraceRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * One conversation of a trace as the replayer runs it: a chain of requests that never overlap
 * (the root session, a subagent's chain, or a parallel side chain), its children and, per turn,
 * the end-to-start gap and the theoretical prefix-cache counts.
 */
public final class Conversation {

  /** Dataset conversation id: the trace id, or {@code <trace>::sa:<agent>} / {@code ::fa:NNN}. */
  final String id;
  final TraceRequest[] turns;
  /** Recorded gap before each turn (s): end of the previous turn to this start, floored at 0. */
  final double[] gapBefore;
  /** Theoretical prefix-cache hit blocks / total blocks per turn (spec §2.2). */
  final int[] hitBlocks;
  final int[] totalBlocks;
  /** Children spawned by turn i (started at their offset from its start). */
  final List<Child>[] spawnedBy;
  /** Children every one of which gates turn j. */
  final List<Child>[] joinedAt;
  /** Depth in the tree (root 0). */
  final int depth;

  @SuppressWarnings("unchecked")
  Conversation(String id, List<TraceRequest> turns, int depth) {
    this.id = id;
    this.turns = turns.toArray(new TraceRequest[0]);
    this.depth = depth;
    int n = this.turns.length;
    this.gapBefore = new double[n];
    for (int i = 1; i < n; i++) {
      gapBefore[i] = Math.max(0, this.turns[i].t() - this.turns[i - 1].end());
    }
    this.hitBlocks = new int[n];
    this.totalBlocks = new int[n];
    this.spawnedBy = new List[n];
    this.joinedAt = new List[n];
    for (int i = 0; i < n; i++) {
      spawnedBy[i] = new ArrayList<>();
      joinedAt[i] = new ArrayList<>();
    }
  }

  public String id() {
    return id;
  }

  public int size() {
    return turns.length;
  }

  public TraceRequest turn(int i) {
    return turns[i];
  }

  public double gapBefore(int i) {
    return gapBefore[i];
  }

  public int hitBlocks(int i) {
    return hitBlocks[i];
  }

  public int totalBlocks(int i) {
    return totalBlocks[i];
  }

  public List<Child> spawnedBy(int i) {
    return spawnedBy[i];
  }

  public List<Child> joinedAt(int i) {
    return joinedAt[i];
  }

  /** Recorded end of the whole conversation: its last turn's end. */
  double end() {
    return turns[turns.length - 1].end();
  }

  /**
   * A child conversation spawned by a parent turn.
   *
   * @param conversation the child
   * @param spawnTurn the parent turn whose completion spawns it
   * @param joinTurn the parent turn that waits for it, or -1 when it runs in the background
   * @param spawnDelay recorded offset (s) from the spawn turn's start to the child's first request
   * @param joinDelay recorded gap (s) from the child's end to the join turn's start
   */
  public record Child(Conversation conversation, int spawnTurn, int joinTurn, double spawnDelay, double joinDelay) {

    public boolean background() {
      return joinTurn < 0;
    }
  }
}
