package io.infx.client.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.UsageException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --sim-option key=value} text onto a {@link SimConfig}, with the same keys as {@code infx sim}. */
class SimOptionsTest {

  @Test
  void appliesEachKeyToItsSetting() {
    SimConfig c = SimOptions.parse(SimConfig.defaults(), List.of("slowdown=1.25", "max-num-seqs=8",
        "prefill-tokens-per-second=1000", "decode-step-ms=4.5", "decode-step-per-seq-us=30",
        "stream-interval=2", "seed=9"));
    assertThat(c.slowdown()).isEqualTo(1.25);
    assertThat(c.maxNumSeqs()).isEqualTo(8);
    assertThat(c.prefillTokensPerSecond()).isEqualTo(1000.0);
    assertThat(c.decodeStepBase()).isEqualTo(Duration.ofNanos(4_500_000));
    assertThat(c.decodeStepPerSeq()).isEqualTo(Duration.ofNanos(30_000));
    assertThat(c.streamInterval()).isEqualTo(2);
    assertThat(c.seed()).isEqualTo(9);
    // untouched settings keep the base's values
    assertThat(c.blockSize()).isEqualTo(SimConfig.defaults().blockSize());
    assertThat(SimOptions.parse(SimConfig.defaults(), List.of())).isEqualTo(SimConfig.defaults());
  }

  @Test
  void rejectsUnknownKeysNonNumbersAndOutOfRangeValuesNamingThem() {
    assertThatThrownBy(() -> SimOptions.parse(SimConfig.defaults(), List.of("slow=2")))
        .isInstanceOf(UsageException.class).hasMessageContaining("'slow'").hasMessageContaining("slowdown");
    assertThatThrownBy(() -> SimOptions.parse(SimConfig.defaults(), List.of("slowdown=fast")))
        .isInstanceOf(UsageException.class).hasMessageContaining("slowdown").hasMessageContaining("'fast'");
    assertThatThrownBy(() -> SimOptions.parse(SimConfig.defaults(), List.of("slowdown=0")))
        .isInstanceOf(UsageException.class).hasMessageContaining("slowdown=0");
    assertThatThrownBy(() -> SimOptions.parse(SimConfig.defaults(), List.of("slowdown")))
        .isInstanceOf(UsageException.class).hasMessageContaining("key=value");
  }
}
