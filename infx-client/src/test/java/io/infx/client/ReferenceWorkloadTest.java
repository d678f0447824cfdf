package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import io.infx.core.launch.LaunchVariable;
import java.net.URI;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ReferenceWorkloadTest {

  @Test
  void presetCarriesTheBenchmarkLibFlagsForOnePoint() {
    // client spec §1.1: --num-prompts CONC*10, --num-warmups 2*CONC, ratio 0.8, --ignore-eos, rate inf
    ServeJob job = ReferenceWorkload.fixedSeqLen("acme/chat-8b", 1024, 128, 4)
        .baseUrl(URI.create("http://127.0.0.1:1")).build();
    assertThat(job.backend()).isEqualTo(ServingBackend.VLLM);
    assertThat(job.model()).isEqualTo("acme/chat-8b");
    assertThat(job.datasetName()).isEqualTo("random");
    assertThat(job.randomInputLen()).isEqualTo(1024);
    assertThat(job.randomOutputLen()).isEqualTo(128);
    assertThat(job.randomRangeRatio()).isEqualTo(0.8);
    assertThat(job.numPrompts()).isEqualTo(40);
    assertThat(job.numWarmups()).isEqualTo(8);
    assertThat(job.maxConcurrency()).isEqualTo(OptionalInt.of(4));
    assertThat(job.requestRate()).isInfinite();
    assertThat(job.body().ignoreEos()).isTrue();
    assertThat(job.metrics().percentileMetrics()).containsExactly("ttft", "tpot", "itl", "e2el");
    assertThat(job.saveResult()).isTrue();
  }

  @Test
  void aSetterCalledAgainOverridesTheRule() {
    ServeJob job = ReferenceWorkload.fixedSeqLen("m", 8, 8, 2).numPrompts(3).build();
    assertThat(job.numPrompts()).isEqualTo(3);
    assertThat(job.numWarmups()).isEqualTo(4);
  }

  @Test
  void theRangeRatioIsTheLaunchCatalogueConstant() {
    assertThat(LaunchVariable.RANDOM_RANGE_RATIO.launcherDefault()).contains("0.8");
    assertThat(ReferenceWorkload.RANDOM_RANGE_RATIO).isEqualTo(0.8);
  }

  @Test
  void overflowingCountsAreRefusedNotWrapped() {
    assertThat(ReferenceWorkload.numPrompts(214_748_364)).isEqualTo(2_147_483_640);
    assertThatThrownBy(() -> ReferenceWorkload.numPrompts(214_748_365))
        .isInstanceOf(InfxException.class).hasMessageContaining("214748365 × 10 prompts");
    assertThatThrownBy(() -> ReferenceWorkload.fixedSeqLen("m", 8, 8, Integer.MAX_VALUE))
        .isInstanceOf(InfxException.class);
  }

  @Test
  void nonPositiveLengthsAndConcAreRefused() {
    assertThatThrownBy(() -> ReferenceWorkload.fixedSeqLen("m", 0, 8, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ISL 0");
    assertThatThrownBy(() -> ReferenceWorkload.fixedSeqLen("m", 8, 8, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("conc 0");
    assertThatThrownBy(() -> ReferenceWorkload.fixedSeqLen(null, 8, 8, 1))
        .isInstanceOf(NullPointerException.class).hasMessage("model");
  }
}
