package io.infx.results;

import io.infx.core.ErrorKind;
import io.infx.core.InfxStyle;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A multi-node deployment: prefill and decode workers with their own parallelism, and the GPU
 * counts of each role. Covers disaggregated points and aggregate points with zero decode GPUs.
 *
 * <p>Per-GPU throughput (reference {@code utils/process_result.py}): total throughput over all
 * GPUs ({@code P + D}), output throughput over decode GPUs (over all GPUs when {@code D = 0}),
 * input throughput over prefill GPUs. GPU counts are measured (parsed by the launcher from the
 * result file name), not derived from TP × workers.
 */
@Value.Immutable
@InfxStyle
public abstract non-sealed class MultiNodeTopology implements Topology {

  public abstract Parallelism prefill();

  /** Prefill DP-attention as text (published verbatim). */
  public abstract String prefillDpAttention();

  public abstract int prefillNumWorkers();

  public abstract Parallelism decode();

  /** Decode DP-attention as text (published verbatim, not zeroed when there are no decode GPUs). */
  public abstract String decodeDpAttention();

  public abstract int decodeNumWorkers();

  /** GPUs of the prefill role ({@code PREFILL_GPUS}); at least 1. */
  public abstract int prefillGpus();

  /** GPUs of the decode role ({@code DECODE_GPUS}); 0 for an aggregate (non-disaggregated) point. */
  public abstract int decodeGpus();

  /**
   * GPUs shared by both roles in an aggregate point (newer upstream {@code AGGREGATE_GPUS}); when
   * positive they replace the prefill GPU count and the row gains {@code num_aggregate_gpu}.
   */
  @Value.Default
  public int aggregateGpus() {
    return 0;
  }

  /** Hardware of the prefill role when it differs per role; set together with {@link #decodeHardware()}. */
  public abstract Optional<String> prefillHardware();

  public abstract Optional<String> decodeHardware();

  @Override
  public final boolean isMultinode() {
    return true;
  }

  /** The prefill GPU count used for throughput: {@link #aggregateGpus()} when positive. */
  public int effectivePrefillGpus() {
    return aggregateGpus() > 0 ? aggregateGpus() : prefillGpus();
  }

  @Override
  public int totalGpus() {
    return effectivePrefillGpus() + decodeGpus();
  }

  /** Decode parallelism as published: {@code tp=0, pp=1, dcp=1, pcp=1, ep=0} without decode GPUs. */
  public Parallelism publishedDecode() {
    if (decodeGpus() > 0) {
      return decode();
    }
    return Parallelism.builder().tp(0).pp(1).dcpSize(1).pcpSize(1).ep(0).build();
  }

  @Value.Check
  protected void check() {
    if (prefillHardware().isPresent() != decodeHardware().isPresent()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "PREFILL_HARDWARE and DECODE_HARDWARE must be specified together.");
    }
    if (prefillHardware().filter(String::isEmpty).isPresent()
        || decodeHardware().filter(String::isEmpty).isPresent()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "PREFILL_HARDWARE and DECODE_HARDWARE must be non-empty when given.");
    }
    if (!prefill().hasPositiveWorkerSizes() || !decode().hasPositiveWorkerSizes()) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Multinode PP, DCP, and PCP sizes must be positive integers.");
    }
    if (aggregateGpus() < 0 || (aggregateGpus() > 0 && (prefillGpus() != 0 || decodeGpus() != 0))) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Aggregate GPUs require non-disaggregated topology without role GPUs");
    }
    if (totalGpus() <= 0) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Multinode results require at least one GPU.");
    }
    if (effectivePrefillGpus() <= 0) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "Multinode results require at least one prefill GPU.");
    }
    // Stricter than the reference, which treats a negative decode count like zero for the output
    // denominator but still subtracts it from the total.
    if (decodeGpus() < 0) {
      throw new ResultsException(ErrorKind.INVALID_TOPOLOGY,
          "DECODE_GPUS must not be negative.");
    }
  }

  public static ImmutableMultiNodeTopology.Builder builder() {
    return ImmutableMultiNodeTopology.builder();
  }
}
