package io.infx.results;

import io.infx.core.InfxStyle;
import org.immutables.value.Value;

/**
 * Parallelism of one worker (a single-node server, or one prefill / decode worker): TP, PP, DCP,
 * PCP and EP sizes. PP, DCP and PCP default to 1.
 *
 * <p>GPUs per worker are {@code TP × PP × PCP}: expert parallelism and decode-context parallelism
 * reuse the tensor-parallel GPUs (reference: {@code utils/process_result.py},
 * {@code num_gpus = tp × pp × pcp}).
 */
@Value.Immutable
@InfxStyle
public abstract class Parallelism {

  /** Tensor-parallel size (TP). */
  public abstract int tp();

  /** Pipeline-parallel size (PP). */
  @Value.Default
  public int pp() {
    return 1;
  }

  /** Decode-context-parallel size (DCP); does not add GPUs. */
  @Value.Default
  public int dcpSize() {
    return 1;
  }

  /** Prefill-context-parallel size (PCP). */
  @Value.Default
  public int pcpSize() {
    return 1;
  }

  /** Expert-parallel size (EP); does not add GPUs. */
  public abstract int ep();

  /** GPUs one worker occupies: {@code TP × PP × PCP}. */
  public int gpusPerWorker() {
    return tp() * pp() * pcpSize();
  }

  /** {@code pp}, {@code dcp} and {@code pcp} are all positive. */
  public boolean hasPositiveWorkerSizes() {
    return pp() > 0 && dcpSize() > 0 && pcpSize() > 0;
  }

  public static ImmutableParallelism.Builder builder() {
    return ImmutableParallelism.builder();
  }

  /** TP and EP with PP = DCP = PCP = 1. */
  public static Parallelism of(int tp, int ep) {
    return builder().tp(tp).ep(ep).build();
  }
}
