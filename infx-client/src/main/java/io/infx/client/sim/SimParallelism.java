package io.infx.client.sim;

/**
 * How the simulated server is parallelised — TP, EP and DP-attention of the matrix row — and what
 * that does to the simulator's capacity. The model is deliberately simple (docs/simulator.md,
 * "Parallelism"); with {@code tp = 1} every factor is 1, so a TP1 simulator is the plain one.
 *
 * <p>With {@code T = tp}, {@code x = (T − 1) / T} (the share of work that crosses GPUs) and the
 * communication overheads {@link #FIXED_OVERHEAD c_f} and {@code c_s}:
 * <ul>
 *   <li>fixed part of a decode step (weights read, kernel launches, all-reduce latency):
 *       {@code base × (1/T + c_f·x)}; with DP-attention {@code c_f} is {@link #DP_ATTENTION_FIXED_OVERHEAD}
 *       (every rank runs the whole attention stack and synchronises the MoE/MLP step);
 *   <li>per-sequence part (attention over the KV cache, MLP/MoE work per token):
 *       {@code perSeq × (1/T + c_s·x)}, where {@code c_s} falls from {@link #TP_SEQ_OVERHEAD} (EP = 1:
 *       all-reduce) to {@link #EP_SEQ_OVERHEAD} (EP = TP: expert all-to-all) linearly in
 *       {@code (EP − 1)/(T − 1)}, and is 0 with DP-attention (each rank attends only its own
 *       sequences);
 *   <li>prefill speed: {@code prefill / (1/T + c_f·x)};
 *   <li>batch capacity ({@code --max-num-seqs}): {@code maxNumSeqs × T} (the KV cache spans T GPUs).
 * </ul>
 * Consequence (the shape InferenceX's charts show): total throughput grows with TP but less than
 * linearly, so throughput per GPU at saturation falls ({@code 1 / (1 + c_s·(T − 1))}: TP2 0.87,
 * TP4 0.69, TP8 0.49 of TP1 with EP = 1) while interactivity at low concurrency rises.
 *
 * @param tp tensor-parallel size (GPUs per replica), ≥ 1
 * @param ep expert-parallel size, 1 ≤ ep ≤ tp (InferenceX runs EP within the TP group)
 * @param dpAttention data-parallel attention (SGLang/vLLM {@code --enable-dp-attention})
 */
public record SimParallelism(int tp, int ep, boolean dpAttention) {

  /** {@code c_f}: fixed-cost communication share of a TP step. */
  public static final double FIXED_OVERHEAD = 0.15;
  /** {@code c_f} with DP-attention. */
  public static final double DP_ATTENTION_FIXED_OVERHEAD = 0.30;
  /** {@code c_s} with EP = 1 (tensor-parallel all-reduce). */
  public static final double TP_SEQ_OVERHEAD = 0.15;
  /** {@code c_s} with EP = TP (expert all-to-all). */
  public static final double EP_SEQ_OVERHEAD = 0.08;

  public SimParallelism {
    if (tp < 1 || ep < 1) {
      throw new IllegalArgumentException("tp and ep must be >= 1, got tp=" + tp + " ep=" + ep);
    }
    if (ep > tp) {
      throw new IllegalArgumentException("ep (" + ep + ") must not exceed tp (" + tp
          + "): the simulator models EP within the TP group, as InferenceX's single-node rows do");
    }
  }

  /** One GPU, no EP, no DP-attention: every factor 1. */
  public static SimParallelism single() {
    return new SimParallelism(1, 1, false);
  }

  private double crossShare() {
    return (tp - 1) / (double) tp;
  }

  /** Multiplier of the fixed decode-step cost (and of prefill time). */
  public double fixedStepFactor() {
    double cf = dpAttention ? DP_ATTENTION_FIXED_OVERHEAD : FIXED_OVERHEAD;
    return 1.0 / tp + cf * crossShare();
  }

  /** Multiplier of the per-sequence decode-step cost. */
  public double perSeqFactor() {
    if (dpAttention) {
      return 1.0 / tp;
    }
    double epShare = tp == 1 ? 0 : (ep - 1) / (double) (tp - 1);
    double cs = TP_SEQ_OVERHEAD + (EP_SEQ_OVERHEAD - TP_SEQ_OVERHEAD) * epShare;
    return 1.0 / tp + cs * crossShare();
  }

  /** Multiplier of {@code --max-num-seqs}. */
  public int capacityFactor() {
    return tp;
  }
}
