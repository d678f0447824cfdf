package io.infx.client.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.ServeJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The simulator's TP/EP/DP-attention model (docs/simulator.md, "Parallelism"). */
class SimParallelismTest {

  @Test
  void tp1IsThePlainSimulator() {
    SimParallelism p = SimParallelism.single();
    assertThat(p.fixedStepFactor()).isEqualTo(1.0);
    assertThat(p.perSeqFactor()).isEqualTo(1.0);
    assertThat(p.capacityFactor()).isEqualTo(1);
  }

  @Test
  void factorsFollowTheDocumentedFormula() {
    // TP8, EP1: 1/8 + 0.15 × 7/8 = 0.25625 for both parts; capacity × 8
    SimParallelism tp8 = new SimParallelism(8, 1, false);
    assertThat(tp8.fixedStepFactor()).isCloseTo(0.25625, within(1e-12));
    assertThat(tp8.perSeqFactor()).isCloseTo(0.25625, within(1e-12));
    assertThat(tp8.capacityFactor()).isEqualTo(8);
    // EP = TP: per-sequence overhead 0.08 → 1/8 + 0.08 × 7/8 = 0.195
    assertThat(new SimParallelism(8, 8, false).perSeqFactor()).isCloseTo(0.195, within(1e-12));
    // EP halfway (4 of 8): c_s = 0.15 − 0.07 × 3/7 = 0.12 → 0.125 + 0.12 × 0.875 = 0.23
    assertThat(new SimParallelism(8, 4, false).perSeqFactor()).isCloseTo(0.23, within(1e-12));
    // DP-attention: per-sequence part splits perfectly, fixed part pays 0.30: 0.125 + 0.2625
    SimParallelism dpa = new SimParallelism(8, 8, true);
    assertThat(dpa.perSeqFactor()).isEqualTo(0.125);
    assertThat(dpa.fixedStepFactor()).isCloseTo(0.3875, within(1e-12));
  }

  @Test
  void saturatedThroughputPerGpuFallsWithTpWhileTotalRises() {
    double previousPerGpu = Double.MAX_VALUE;
    double previousTotal = 0;
    for (int tp : new int[] {1, 2, 4, 8}) {
      double total = 1 / new SimParallelism(tp, 1, false).perSeqFactor(); // tokens per per-seq cost
      double perGpu = total / tp;
      assertThat(total).as("total at TP%d", tp).isGreaterThan(previousTotal);
      assertThat(perGpu).as("per GPU at TP%d", tp).isLessThan(previousPerGpu);
      previousTotal = total;
      previousPerGpu = perGpu;
    }
    assertThat(1 / (8 * new SimParallelism(8, 1, false).perSeqFactor())).isCloseTo(0.4878, within(1e-4));
  }

  @Test
  void invalidShapesAreRefused() {
    assertThatThrownBy(() -> new SimParallelism(0, 1, false)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SimParallelism(2, 4, false)).hasMessageContaining("must not exceed tp");
  }

  /**
   * Steps stretched 5× (TP1 13.2 ms, TP4 4.8 ms) so that a late wake-up of a millisecond or two on a
   * loaded 2-core machine is small next to a step; at 1× the TP4 step (0.96 ms) is of the order of
   * the scheduling noise itself and the measured ratio collapses.
   */
  private static final double SLOWDOWN = 5.0;

  private static double outputThroughput(SimParallelism p) {
    try (SimServer sim = SimServer.start(SimConfig.builder().parallelism(p).slowdown(SLOWDOWN).build())) {
      StringWriter err = new StringWriter();
      ServeJob.Outcome o = ServeJob.builder()
          .backend(ServingBackend.parse("vllm")).baseUrl(sim.baseUri()).model("m").tokenizer("builtin")
          .numPrompts(64).randomInputLen(32).randomOutputLen(32).randomRangeRatio(1.0)
          .maxConcurrency(32).numWarmups(0).body(BodyOptions.builder().ignoreEos(true).build())
          .progress(false).build().run(new PrintWriter(new StringWriter()), new PrintWriter(err));
      assertThat(o.exitCode()).as(err.toString()).isZero();
      return o.metrics().outputThroughput();
    }
  }

  @Test
  void aMeasuredTp4ServerIsFasterInTotal() {
    // model: TP1 step 2 + 0.02×32 = 2.64 ms, TP4 step 0.3625 × 2.64 = 0.957 ms → 2.76× total
    // (both × SLOWDOWN here, which leaves the ratio unchanged).
    // Only the direction is asserted with a wide margin: on a loaded 2-core machine late wake-ups
    // add a per-step cost the model does not have (the per-GPU shape is the formula test above).
    double tp1 = outputThroughput(SimParallelism.single());
    double tp4 = outputThroughput(new SimParallelism(4, 1, false));
    assertThat(tp4).as("TP4 total vs TP1 %.0f tok/s", tp1).isGreaterThan(1.3 * tp1);
  }
}
