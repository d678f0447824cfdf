package io.infx.fleet.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.fleet.spi.JobState;
import org.junit.jupiter.api.Test;

/**
 * Issue 11: {@code fleet launch} printed "ended SUCCEEDED (exit 1)" while its job_event.json said
 * failed; both now come from one rule.
 */
class LaunchOutcomeTest {

  @Test
  void aSucceededJobWhoseResultFailedIsAFailedLaunch() {
    assertThat(LaunchResult.outcome(1, JobState.SUCCEEDED)).isEqualTo("failed");
    assertThat(LaunchResult.outcome(0, JobState.SUCCEEDED)).isEqualTo("succeeded");
    assertThat(LaunchResult.outcome(124, JobState.TIMED_OUT)).isEqualTo("timed_out");
    assertThat(LaunchResult.outcome(130, JobState.CANCELLED)).isEqualTo("cancelled");
    assertThat(LaunchResult.outcome(1, JobState.FAILED)).isEqualTo("failed");
  }
}
