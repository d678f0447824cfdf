package io.infx.client.agentx.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayStatsTest {

  private static final long S = 1_000_000_000L;

  @Test
  void coverageRuleAppliesToWindowsOfAtLeast900Seconds() {
    // spec §1.7: observations must reach 98 % of a >= 900 s window
    assertThat(ReplayStats.insufficientCoverage(900 * S, 0, 882 * S)).isFalse();
    assertThat(ReplayStats.insufficientCoverage(900 * S, 0, 881 * S)).isTrue();
    assertThat(ReplayStats.insufficientCoverage(3600 * S, 10 * S, 10 * S + 3528 * S)).isFalse();
    assertThat(ReplayStats.insufficientCoverage(3600 * S, 10 * S, 10 * S + 3527 * S)).isTrue();
    assertThat(ReplayStats.insufficientCoverage(899 * S, 0, 0)).as("short runs are not judged").isFalse();
  }
}
