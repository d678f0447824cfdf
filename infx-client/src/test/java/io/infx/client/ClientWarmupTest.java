package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.load.LoadModel;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.tokenizer.BuiltinTokenizer;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client's own warm-up: it completes against its canned server and never reaches the real one. */
@Timeout(120)
class ClientWarmupTest {

  @Test
  void warmUpRequestsAllSucceedAndCountOncePerJvm() {
    ClientOptions o = ClientOptions.builder().baseUri(URI.create("http://127.0.0.1:9"))
        .apiKey("sk-not-for-the-stub").build();
    for (ServingBackend.Api api : ServingBackend.Api.values()) {
      int before = ClientWarmup.warmedInThisJvm();
      ClientWarmup.Result r = ClientWarmup.run(o, before + 60,
          (c, k) -> ClientWarmup.simpleExercise(c, api, k, 8, Duration.ofSeconds(60)));
      assertThat(r.requests()).isEqualTo(60);
      assertThat(r.failed()).isZero();
      // the same target again: this JVM is already that warm
      assertThat(ClientWarmup.run(o, before + 60,
          (c, k) -> ClientWarmup.simpleExercise(c, api, k, 8, Duration.ofSeconds(60))).requests())
          .isZero();
    }
  }

  @Test
  void theCompilerCountsAsIdleOnlyWithNothingCompilingAndEveryQueueEmpty() {
    String idle = "Current compiles: \n\nC1 compile queue:\nEmpty\n\nC2 compile queue:\nEmpty\n";
    assertThat(ClientWarmup.compilerIdle(idle)).isTrue();
    assertThat(ClientWarmup.compilerIdle("Current compiles: \nC2 CompilerThread0   1234    4"
        + "       java.lang.String::hashCode (49 bytes)\n\nC1 compile queue:\nEmpty\n\n"
        + "C2 compile queue:\nEmpty\n")).isFalse();
    assertThat(ClientWarmup.compilerIdle("Current compiles: \n\nC1 compile queue:\nEmpty\n\n"
        + "C2 compile queue:\n  5678    4       io.infx.client.StreamExchange::onEvent (700 bytes)\n"))
        .isFalse();
    // the live JVM answers, and the wait returns within its bound whatever the JIT is doing
    long t0 = System.nanoTime();
    ClientWarmup.awaitQuietJit(Duration.ofSeconds(2));
    assertThat(System.nanoTime() - t0).isLessThan(Duration.ofSeconds(10).toNanos());
  }

  @Test
  void nothingOfTheWarmUpReachesTheBenchmarkedServer() {
    List<Prompt> prompts = RandomDataset.generate(BuiltinTokenizer.instance(), 32, 8, 1.0, 0, 12, 0);
    try (SimServer sim = SimServer.start(SimConfig.builder().decodeStepBase(Duration.ofMillis(1))
        .build())) {
      int target = ClientWarmup.warmedInThisJvm() + 40;
      ServeResult run = ServeBenchmark.builder()
          .client(ClientOptions.builder().baseUri(sim.baseUri()).build())
          .backend(ServingBackend.OPENAI_CHAT).model("m").prompts(prompts).load(LoadModel.closed(4))
          .clientWarmup(target).build().run();
      assertThat(run.clientWarmupRequests()).isEqualTo(40);
      assertThat(run.sentRecords()).allSatisfy(r ->
          assertThat(r.phase()).isEqualTo(RequestRecord.Phase.MEASURED));
      assertThat(run.metrics(MetricOptions.defaults()).completed()).isEqualTo(12);
      assertThat(sim.stats().requestsFinished()).isEqualTo(12);
    }
  }
}
