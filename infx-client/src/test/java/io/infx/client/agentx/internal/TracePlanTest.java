package io.infx.client.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.agentx.HashIds;
import io.infx.client.agentx.SubagentEntry;
import io.infx.client.agentx.TraceEntry;
import io.infx.client.agentx.TraceRequest;
import io.infx.client.agentx.WekaTrace;
import io.infx.client.agentx.WekaTraces;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class TracePlanTest {

  static TraceRequest req(double t, double api, int... ids) {
    return TraceRequest.of(t, "m", ids.length * 64, 10, HashIds.of(ids), api);
  }

  static SubagentEntry sub(String id, TraceRequest... inner) {
    return new SubagentEntry(inner[0].t(), id, "Subagent", OptionalLong.empty(), OptionalLong.empty(),
        OptionalLong.empty(), "completed", List.of("m"), List.of(inner), 0, 0);
  }

  static WekaTrace trace(TraceEntry... entries) {
    return new WekaTrace("tr", List.of("m"), 64, WekaTrace.HashIdScope.LOCAL, 0, 0, List.of(entries));
  }

  @Test
  void joinTieringFromTheLoaderComments() {
    // parents at t = 0, 6, 20; subagents ending at 6, 12.5 and 24 (spec §1.6)
    WekaTrace t = trace(
        req(0, 1, 1),
        sub("a", req(1, 5, 10)),
        sub("b", req(2, 10.5, 20)),
        sub("c", req(3, 21, 30)),
        req(6, 1, 1, 2),
        req(20, 1, 1, 2, 3));
    TracePlan plan = TracePlan.of(t);
    Conversation root = plan.root();
    assertThat(root.size()).isEqualTo(3);
    List<Conversation.Child> children = root.spawnedBy(0);
    assertThat(children).extracting(c -> c.conversation().id())
        .containsExactly("tr::sa:a", "tr::sa:b", "tr::sa:c");
    assertThat(children).extracting(Conversation.Child::joinTurn).containsExactly(1, 2, -1);
    assertThat(root.joinedAt(1)).hasSize(1);
    assertThat(root.joinedAt(2)).hasSize(1);
    // children start at their recorded offset from the spawning turn's start
    assertThat(children.get(1).spawnDelay()).isEqualTo(2.0);
    assertThat(children.get(1).joinDelay()).isEqualTo(20 - 12.5);
    assertThat(plan.requestCount()).isEqualTo(6);
  }

  @Test
  void theoreticalHitsCountLeadingSeenBlocksInTimeOrder() {
    // spec §2.2: [1,2], [1,2,3], [1,2,3,4] => (0,2), (2,3), (3,4)
    TracePlan plan = TracePlan.of(trace(req(0, 1, 1, 2), req(2, 1, 1, 2, 3), req(4, 1, 1, 2, 3, 4)));
    Conversation root = plan.root();
    assertThat(new int[] {root.hitBlocks(0), root.hitBlocks(1), root.hitBlocks(2)}).containsExactly(0, 2, 3);
    assertThat(new int[] {root.totalBlocks(0), root.totalBlocks(1), root.totalBlocks(2)}).containsExactly(2, 3, 4);
  }

  @Test
  void specDemoTrace() {
    WekaTrace t = WekaTraces.parse(io.infx.client.agentx.WekaTracesTestData.DEMO, "demo.json");
    TracePlan plan = TracePlan.of(t);
    Conversation root = plan.root();
    assertThat(root.size()).isEqualTo(3);
    Conversation.Child child = root.spawnedBy(1).get(0);
    assertThat(child.conversation().id()).isEqualTo("demo-1::sa:subagent_001");
    assertThat(child.joinTurn()).isEqualTo(2);
    assertThat(child.spawnDelay()).isEqualTo(1.5);
    assertThat(root.gapBefore(1)).isEqualTo(3.0);
    // theoretical hits 0/4, 4/6, 0/3 (subagent), 6/8
    assertThat(root.hitBlocks(0)).isZero();
    assertThat(root.hitBlocks(1)).isEqualTo(4);
    assertThat(child.conversation().hitBlocks(0)).isZero();
    assertThat(child.conversation().totalBlocks(0)).isEqualTo(3);
    assertThat(root.hitBlocks(2)).isEqualTo(6);
  }

  @Test
  void overlappingTopLevelRequestsBecomeSideChains() {
    // request 2 starts while request 1 (ends at 10) is still running: a parallel side chain
    WekaTrace t = trace(req(0, 10, 1, 2), req(3, 2, 7, 8), req(12, 1, 1, 2, 3), req(14, 1, 1, 2, 3, 4));
    Conversation root = TracePlan.of(t).root();
    assertThat(root.size()).isEqualTo(3);
    Conversation.Child side = root.spawnedBy(0).get(0);
    assertThat(side.conversation().id()).isEqualTo("tr:fa:000");
    assertThat(side.spawnDelay()).isEqualTo(3.0);
    assertThat(side.joinTurn()).isEqualTo(1);
  }

  @Test
  void aSubagentBeforeAnyParentTurnIsDropped() {
    List<TraceEntry> entries = new ArrayList<>();
    entries.add(sub("early", req(0, 1, 5)));
    entries.add(req(1, 1, 1));
    entries.add(req(3, 1, 1, 2));
    TracePlan plan = TracePlan.of(new WekaTrace("tr", List.of(), 64, WekaTrace.HashIdScope.LOCAL, 0, 0, entries));
    assertThat(plan.droppedChildren()).isEqualTo(1);
    assertThat(plan.requestCount()).isEqualTo(2);
  }
}
