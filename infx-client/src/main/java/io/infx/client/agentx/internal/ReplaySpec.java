package io.infx.client.agentx.internal;

import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.WekaTrace;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.InfxStyle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.immutables.value.Value;

/**
 * Everything an AgentX replay decides before its first request (spec {@code agentx.md} §1.2): the
 * options, the replayable trace plans, the run id of the cache-bust markers and the block size of
 * synthesized prompts. {@link ReplayEngine} runs it; the spec holds no clock and no I/O.
 */
@Value.Immutable
@InfxStyle
public abstract class ReplaySpec {

  public abstract AgenticOptions options();

  /** Plans a lane may start with: at least two top-level requests (a primer and a profiled turn). */
  public abstract List<TracePlan> initialPool();

  /** Plans drained lanes recycle through: every trace with a plan, in corpus order. */
  public abstract List<TracePlan> recyclePool();

  /** Mixed into every play's cache-bust marker: {@link AgenticOptions#runId()} or a random UUID. */
  public abstract String runId();

  /** Tokens per hash block of synthesized prompts (the corpus's, 64 when it has none). */
  public abstract int blockSize();

  /** The profiling window. */
  public Duration duration() {
    return options().duration();
  }

  @Value.Check
  protected void check() {
    if (initialPool().isEmpty()) {
      throw new InfxException(ErrorKind.AGENTX, "no usable trace: every trace needs at least two top-level "
          + "requests (a warmup primer and one profiled turn)");
    }
  }

  /**
   * Plans {@code traces} under {@code options}.
   *
   * @throws InfxException kind {@code agentx} when no trace can start a lane
   */
  public static ReplaySpec of(AgenticOptions options, List<WekaTrace> traces) {
    List<TracePlan> recycle = new ArrayList<>();
    List<TracePlan> initial = new ArrayList<>();
    int blockSize = 64;
    for (WekaTrace t : traces) {
      TracePlan p = TracePlan.of(t);
      if (p == null) {
        continue;
      }
      recycle.add(p);
      if (p.root().size() >= 2) {
        initial.add(p);
      }
      blockSize = t.blockSize();
    }
    return ImmutableReplaySpec.builder().options(options).initialPool(initial).recyclePool(recycle)
        .runId(options.runId().orElseGet(() -> UUID.randomUUID().toString()))
        .blockSize(blockSize).build();
  }
}
