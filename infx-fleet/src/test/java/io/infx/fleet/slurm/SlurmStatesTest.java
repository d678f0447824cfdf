package io.infx.fleet.slurm;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.spi.JobState;
import org.junit.jupiter.api.Test;

class SlurmStatesTest {

  @Test
  void onlyCompletedWithZeroZeroSucceeds() {
    assertThat(SlurmStates.map("COMPLETED", "0:0").state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(SlurmStates.map("COMPLETED", "1:0").state()).isEqualTo(JobState.FAILED);
    assertThat(SlurmStates.map("CANCELLED", "0:0").state()).isEqualTo(JobState.CANCELLED);
    assertThat(SlurmStates.map("CANCELLED by 0", "0:15").state()).isEqualTo(JobState.CANCELLED);
  }

  @Test
  void statesMapAsDocumented() {
    assertThat(SlurmStates.map("PENDING", "0:0").state()).isEqualTo(JobState.PENDING);
    assertThat(SlurmStates.map("CONFIGURING", "0:0").state()).isEqualTo(JobState.PENDING);
    assertThat(SlurmStates.map("RUNNING", "0:0").state()).isEqualTo(JobState.RUNNING);
    assertThat(SlurmStates.map("COMPLETING", "0:0").state()).isEqualTo(JobState.RUNNING);
    assertThat(SlurmStates.map("TIMEOUT", "0:15").state()).isEqualTo(JobState.TIMED_OUT);
    assertThat(SlurmStates.map("OUT_OF_MEMORY", "0:125").state()).isEqualTo(JobState.FAILED);
    assertThat(SlurmStates.map("", "").state()).isEqualTo(JobState.UNKNOWN);
  }

  @Test
  void infrastructureFailuresAreRetriableWorkloadFailuresAreNot() {
    assertThat(SlurmStates.map("NODE_FAIL", "0:0").retriable()).isTrue();
    assertThat(SlurmStates.map("PREEMPTED", "0:0").retriable()).isTrue();
    assertThat(SlurmStates.map("BOOT_FAIL", "0:0").retriable()).isTrue();
    assertThat(SlurmStates.map("FAILED", "3:0").retriable()).isFalse();
  }

  @Test
  void exitCodesDecodeSignals() {
    assertThat(SlurmStates.map("FAILED", "3:0").exitCode()).hasValue(3);
    assertThat(SlurmStates.map("FAILED", "0:9").exitCode()).hasValue(137);
    assertThat(SlurmStates.map("FAILED", "junk").exitCode()).isEmpty();
  }
}
