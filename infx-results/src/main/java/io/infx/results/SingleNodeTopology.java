package io.infx.results;

import io.infx.core.ErrorKind;
import io.infx.core.InfxStyle;
import org.immutables.value.Value;

/**
 * A single-node deployment: one server with {@link #parallelism()} and a DP-attention flag. All
 * throughputs are divided by {@code TP × PP × PCP} GPUs.
 *
 * <p>{@link #dpAttention()} is kept as the text the run was configured with ({@code "true"} /
 * {@code "false"}) because the aggregate publishes it as a string, not a JSON boolean.
 */
@Value.Immutable
@InfxStyle
public abstract non-sealed class SingleNodeTopology implements Topology {

  public abstract Parallelism parallelism();

  /** DP-attention as text, normally {@code "true"} or {@code "false"} (published verbatim). */
  public abstract String dpAttention();

  @Override
  public final boolean isMultinode() {
    return false;
  }

  @Override
  public int totalGpus() {
    return parallelism().gpusPerWorker();
  }

  @Value.Check
  protected void check() {
    if (!parallelism().hasPositiveWorkerSizes()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "PP_SIZE, DCP_SIZE, and PCP_SIZE must be positive integers.");
    }
    // Stricter than the reference, which divides by TP × PP × PCP and so crashes on TP = 0 and
    // publishes negative throughput for TP < 0.
    if (parallelism().tp() <= 0) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "TP must be a positive integer.");
    }
  }

  public static ImmutableSingleNodeTopology.Builder builder() {
    return ImmutableSingleNodeTopology.builder();
  }

  /** A single-node topology with a boolean DP-attention flag (published as "true"/"false"). */
  public static SingleNodeTopology of(Parallelism parallelism, boolean dpAttention) {
    return builder().parallelism(parallelism).dpAttention(Boolean.toString(dpAttention)).build();
  }
}
