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

  @Test
  void everyDeliveryWritesTheSameBytesInItsOwnPieces() throws Exception {
    byte[][] response = {"HEAD\r\n\r\n".getBytes(), "5\r\nhello\r\n".getBytes(),
        "6\r\nworld!\r\n".getBytes(), "0\r\n\r\n".getBytes()};
    String whole = "HEAD\r\n\r\n5\r\nhello\r\n6\r\nworld!\r\n0\r\n\r\n";
    int[] writes = new int[ClientWarmup.Delivery.values().length];
    for (ClientWarmup.Delivery d : ClientWarmup.Delivery.values()) {
      java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
      int ord = d.ordinal();
      ClientWarmup.deliver(response, d, new java.io.OutputStream() {
        @Override
        public void write(int b) {
          bytes.write(b);
          writes[ord]++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
          bytes.write(b, off, len);
          writes[ord]++;
        }
      });
      assertThat(bytes.toString()).as(d.name()).isEqualTo(whole);
    }
    assertThat(writes[ClientWarmup.Delivery.WHOLE.ordinal()]).isEqualTo(1);
    assertThat(writes[ClientWarmup.Delivery.PER_CHUNK.ordinal()]).isEqualTo(4);
    // the head whole, each chunk in two pieces
    assertThat(writes[ClientWarmup.Delivery.SPLIT.ordinal()]).isEqualTo(1 + 2 * 3);
    // half the responses whole, a quarter per chunk, a quarter split
    assertThat(java.util.stream.IntStream.range(0, 8).mapToObj(ClientWarmup.Delivery::of))
        .containsExactly(ClientWarmup.Delivery.WHOLE, ClientWarmup.Delivery.PER_CHUNK,
            ClientWarmup.Delivery.WHOLE, ClientWarmup.Delivery.SPLIT, ClientWarmup.Delivery.WHOLE,
            ClientWarmup.Delivery.PER_CHUNK, ClientWarmup.Delivery.WHOLE, ClientWarmup.Delivery.SPLIT);
  }
}
