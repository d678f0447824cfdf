package io.infx.run;

import io.infx.fleet.LaunchEnv;
import io.infx.matrix.MatrixRow;
import java.util.List;
import java.util.Objects;

/**
 * One launch of a run: a matrix row on a concrete runner, its projected environment (whose
 * {@code RESULT_FILENAME} names every file of the point) and what the run will do with it.
 *
 * @param index 1-based position in the plan
 * @param row the matrix row, as {@code generate} emits it
 * @param runner the concrete runner name ({@code RUNNER_NAME})
 * @param env the launch environment (fleet spec §3), {@code RESULT_FILENAME} included
 * @param action run it, take it from an earlier run ({@code --resume}), or skip it
 * @param note why a point is skipped or resumed; empty for {@link Action#RUN}
 * @param adapter the fleet adapter id it launches on ({@code --adapter}, else its runner's
 *     {@code runners.yaml} cluster record, else {@code local}), or {@code auto} when the fleet routes
 *     it by runner name at launch
 */
public record PlannedPoint(int index, MatrixRow row, String runner, LaunchEnv env, Action action,
    String note, String adapter) {

  /** What the run does with a point. */
  public enum Action {
    /** Launch it. */
    RUN,
    /** Its aggregate exists from an earlier run of the same directory ({@code --resume}). */
    RESUME,
    /** It cannot run on the chosen adapter (e.g. a multi-node row on {@code local}). */
    SKIP
  }

  public PlannedPoint {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(note, "note");
    Objects.requireNonNull(adapter, "adapter");
  }

  /** A point on the {@code local} adapter. */
  public PlannedPoint(int index, MatrixRow row, String runner, LaunchEnv env, Action action, String note) {
    this(index, row, runner, env, action, note, "local");
  }

  /** The point's {@code RESULT_FILENAME}: its raw file is {@code <name>.json}, its aggregate {@code agg_<name>.json}. */
  public String resultFilename() {
    return env.resultFilename();
  }

  /** Concurrency: one value for single-node rows, the whole list for multi-node rows. */
  public List<Integer> conc() {
    return row.conc();
  }

  /** Whether the point replays AgentX traces (an {@code agentic-coding} row). */
  public boolean agentic() {
    return row.kind() == io.infx.matrix.RowKind.SINGLE_NODE_AGENTIC
        || row.kind() == io.infx.matrix.RowKind.MULTI_NODE_AGENTIC;
  }

  public PlannedPoint withAction(Action action, String note) {
    return new PlannedPoint(index, row, runner, env, action, note, adapter);
  }
}
