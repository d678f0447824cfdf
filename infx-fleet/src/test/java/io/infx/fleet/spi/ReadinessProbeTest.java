package io.infx.fleet.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 29: readiness discarded the health answer's body but still waited for its end, so a
 * health URL that streamed forever held the launch forever. Only the status counts now.
 */
class ReadinessProbeTest {

  @Test
  @Timeout(60)
  void aHealthUrlThatStreamsForeverIsReadyByItsStatus() throws Exception {
    AtomicLong written = new AtomicLong();
    try (ServerSocket server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
      Thread t = new Thread(() -> {
        try (Socket s = server.accept()) {
          s.getInputStream().read(new byte[8192]);
          OutputStream out = s.getOutputStream();
          out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
              .getBytes(StandardCharsets.US_ASCII));
          byte[] a = new byte[64 * 1024];
          Arrays.fill(a, (byte) 'a');
          while (true) {
            out.write(a);
            written.addAndGet(a.length);
          }
        } catch (IOException e) {
          // the probe hung up
        }
      });
      t.setDaemon(true);
      t.start();
      URI health = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/health");
      Duration took = ReadinessProbe.http(health).timeout(Duration.ofSeconds(30))
          .awaitReady(OptionalInt::empty, null);
      assertThat(took).isLessThan(Duration.ofSeconds(30));
      t.join(20_000);
      assertThat(t.isAlive()).as("the probe closed the connection").isFalse();
      assertThat(written.get()).isLessThan(64L << 20);
    }
  }
}
