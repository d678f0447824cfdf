package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.core.json.Json;
import org.junit.jupiter.api.Test;

/** Host load and client overhead recorded in raw results, and when the lint flags a difference. */
class RunConditionsTest {

  private static RunConditions of(double load, int cpus, double lateP99) throws Exception {
    return RunConditions.of(Json.mapper().readTree("{\"infx\": {\"client\": {\"host_load_average\": " + load
        + ", \"available_processors\": " + cpus + "}, \"latency_views_in_milliseconds\": {\"send_lateness\": "
        + "{\"p99\": " + lateP99 + "}}}}"));
  }

  @Test
  void readsLoadPerCoreAndP99SendLateness() throws Exception {
    RunConditions c = of(6.0, 2, 1.5);
    assertThat(c.hostLoadPerCore().getAsDouble()).isEqualTo(3.0);
    assertThat(c.sendLatenessP99Ms().getAsDouble()).isEqualTo(1.5);
    RunConditions none = RunConditions.of(Json.mapper().readTree("{\"backend\": \"vllm\"}"));
    assertThat(none.hostLoadPerCore()).isEmpty();
    assertThat(none.differences(c)).as("nothing recorded on one side: nothing to flag").isEmpty();
  }

  @Test
  void flagsABusyHostAndASaturatedClientButNotSmallDifferences() throws Exception {
    // 0.2 vs 3.0 per core: apart by 2.8 (> 0.5) and by more than half of 3.0
    assertThat(of(0.4, 2, 0.5).differences(of(6.0, 2, 0.5))).containsExactly("host load 0.20 vs 3.00 per core");
    // 2.5 vs 3.0 per core: apart by 0.5, not more: no flag
    assertThat(of(5.0, 2, 0.5).differences(of(6.0, 2, 0.5))).isEmpty();
    // send lateness 0.4 vs 12 ms: apart by more than 1 ms and more than twofold
    assertThat(of(1, 2, 0.4).differences(of(1, 2, 12.0)))
        .containsExactly("client overhead (p99 send lateness) 0.4 vs 12.0 ms");
    // 0.2 vs 0.9 ms: twofold, but within 1 ms: no flag
    assertThat(of(1, 2, 0.2).differences(of(1, 2, 0.9))).isEmpty();
  }
}
