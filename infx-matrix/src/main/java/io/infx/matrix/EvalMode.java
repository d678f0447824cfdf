package io.infx.matrix;

/**
 * How accuracy evals are selected (reference §4.11.4).
 *
 * <ul>
 *   <li>{@link #DEFAULT}: the default policy marks rows {@code run-eval: true}; every row is emitted.
 *   <li>{@link #NONE} ({@code --no-evals}): no marking; every row with {@code run-eval: false}.
 *   <li>{@link #SUBSET} ({@code --evals-only}): only the picked rows, each {@code eval-only: true}.
 *   <li>{@link #ALL} ({@code --all-evals}): every eligible 8k1k fixed and agentic row, eval-only.
 *   <li>{@link #SMOKE} ({@code --smoke}): minimum-concurrency throughput plus one canonical eval per
 *       deployment shape.
 * </ul>
 */
public enum EvalMode {
  DEFAULT,
  NONE,
  SUBSET,
  ALL,
  SMOKE
}
