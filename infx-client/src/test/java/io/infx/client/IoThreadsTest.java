package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class IoThreadsTest {

  private static IoThreads choose(String base, int cores) {
    return IoThreads.choose(OptionalInt.empty(), URI.create(base), cores);
  }

  @Test
  void aServerOnLoopbackGetsOneThread() {
    for (String base : new String[] {"http://127.0.0.1:8000", "http://127.3.4.5", "http://localhost:80",
        "http://LocalHost:8080", "http://api.localhost:8000", "http://[::1]:8000", "http://0.0.0.0:8000",
        "http://[::]:8000"}) {
      assertThat(choose(base, 8)).as(base)
          .isEqualTo(new IoThreads(1, IoThreads.Reason.LOOPBACK_SERVER));
    }
  }

  @Test
  void aRemoteServerGetsOneThreadPerCore() {
    for (String base : new String[] {"http://10.0.0.7:8000", "http://192.168.1.2", "http://gpu-node-3:8000",
        "http://[2001:db8::1]:8000", "http://128.0.0.1", "http://localhost.example.com"}) {
      assertThat(choose(base, 8)).as(base)
          .isEqualTo(new IoThreads(8, IoThreads.Reason.REMOTE_SERVER));
    }
    assertThat(choose("http://10.0.0.7", 0).count()).isEqualTo(1);
  }

  @Test
  void aGivenCountWinsWhereverTheServerIs() {
    assertThat(IoThreads.choose(OptionalInt.of(2), URI.create("http://127.0.0.1:8000"), 8))
        .isEqualTo(new IoThreads(2, IoThreads.Reason.GIVEN));
    assertThat(IoThreads.choose(OptionalInt.of(3), URI.create("http://10.0.0.7:8000"), 8))
        .isEqualTo(new IoThreads(3, IoThreads.Reason.GIVEN));
    assertThatThrownBy(() -> IoThreads.choose(OptionalInt.of(0), URI.create("http://10.0.0.7"), 8))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("≥ 1");
  }

  @Test
  void clientOptionsApplyTheRuleAndKeepAGivenCount() {
    ClientOptions local = ClientOptions.builder().baseUri(URI.create("http://127.0.0.1:9")).build();
    assertThat(local.ioThreadChoice().count()).isEqualTo(1);
    assertThat(local.ioThreads()).isEmpty();
    ClientOptions given = ImmutableClientOptions.copyOf(local).withIoThreads(2);
    assertThat(given.ioThreadChoice()).isEqualTo(new IoThreads(2, IoThreads.Reason.GIVEN));
    ClientOptions remote = ClientOptions.builder().baseUri(URI.create("http://10.1.2.3:8000")).build();
    assertThat(remote.ioThreadChoice()).isEqualTo(new IoThreads(
        Runtime.getRuntime().availableProcessors(), IoThreads.Reason.REMOTE_SERVER));
    assertThatThrownBy(() -> ClientOptions.builder().baseUri(URI.create("http://10.1.2.3"))
        .ioThreads(0).build()).isInstanceOf(IllegalArgumentException.class);
  }
}
