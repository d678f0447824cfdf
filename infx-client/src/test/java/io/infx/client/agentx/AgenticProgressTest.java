package io.infx.client.agentx;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.ProgressBar;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgenticProgressTest {

  @Test
  void profilingLineShowsDoneRateInFlightErrorsAndTimeLeft() {
    // 1234 requests in 312 s = 3.955 req/s; 3288 s of the hour left = 54:48
    AgenticProgress p = new AgenticProgress(AgenticProgress.Phase.PROFILING, 1234, 2, 17,
        Duration.ofSeconds(312), Optional.of(Duration.ofSeconds(3288)), 0);
    assertThat(p.detail()).isEqualTo("1234 done [312s, 4.0 req/s, 17 in flight, 2 errors, 54:48 left]");
    assertThat(p.fraction()).isEqualTo(312.0 / 3600);
  }

  @Test
  void warmupCountsAgainstItsQuotaAndLongWaitsShowHours() {
    AgenticProgress p = new AgenticProgress(AgenticProgress.Phase.WARMUP, 40, 1, 8,
        Duration.ofSeconds(10), Optional.of(Duration.ofSeconds(1790)), 330);
    assertThat(p.detail()).isEqualTo("40/330 done [10s, 4.0 req/s, 8 in flight, 1 error, 29:50 left]");
    assertThat(p.fraction()).isEqualTo(40.0 / 330);
    assertThat(new AgenticProgress(AgenticProgress.Phase.WARMUP, 3, 0, 8, Duration.ofSeconds(2),
        Optional.empty(), 330).detail()).isEqualTo("3/330 done [2s, 1.5 req/s, 8 in flight, 0 errors]");
    assertThat(AgenticProgress.clock(Duration.ofSeconds(3725))).isEqualTo("1:02:05");
    // a partial second left still shows as a second, never as 0:00 before the end
    assertThat(AgenticProgress.clock(Duration.ofMillis(200))).isEqualTo("0:01");
    assertThat(AgenticProgress.clock(Duration.ZERO)).isEqualTo("0:00");
  }

  @Test
  void drawnOnTheBarBenchServeDraws() {
    StringWriter out = new StringWriter();
    AgenticProgress.Listener l = AgenticProgress.onto(new ProgressBar(new PrintWriter(out)));
    l.onProgress(new AgenticProgress(AgenticProgress.Phase.DRAIN, 50, 0, 3, Duration.ofSeconds(10),
        Optional.of(Duration.ofSeconds(20)), 0));
    assertThat(out.toString()).isEqualTo("\rdrain    |" + "#".repeat(10) + " ".repeat(20)
        + "| 50 done [10s, 3 in flight, 0 errors, 0:20 left]"); // no rate: 50 includes the window's
  }
}
