package io.infx.results;

/**
 * Where a result was measured: one server ({@link SingleNodeTopology}) or a multi-node deployment
 * with prefill and decode roles ({@link MultiNodeTopology}). Decides the topology keys of the
 * aggregate and the per-GPU throughput denominators.
 */
public sealed interface Topology permits SingleNodeTopology, MultiNodeTopology {

  /** {@code false} for single-node, {@code true} for multi-node (the aggregate's {@code is_multinode}). */
  boolean isMultinode();

  /** Every GPU of the deployment (the denominator of {@code tput_per_gpu}). */
  int totalGpus();
}
