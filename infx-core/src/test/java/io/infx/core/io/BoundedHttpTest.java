package io.infx.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 29: a probe answered with a never-ending body buffered it until the JDK client's selector
 * thread died of {@link OutOfMemoryError}, and {@code send} then waited forever; its request
 * timeout only covers the response head.
 */
class BoundedHttpTest {

  private ServerSocket server;
  private final AtomicLong written = new AtomicLong();
  private final CountDownLatch closedByClient = new CountDownLatch(1);

  @AfterEach
  void close() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  /** One connection: the response head, then {@code body} (which writes until it fails). */
  private URI serve(String head, Body body) throws IOException {
    server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      try (Socket s = server.accept()) {
        InputStream in = s.getInputStream();
        byte[] req = new byte[8192];
        int n = 0;
        while (n < 4 || !new String(req, 0, n, StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
          int k = in.read(req, n, req.length - n);
          if (k < 0) {
            return;
          }
          n += k;
        }
        OutputStream out = s.getOutputStream();
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        body.write(out);
      } catch (IOException | InterruptedException e) {
        closedByClient.countDown();
      }
    }, "bounded-http-test-server");
    t.setDaemon(true);
    t.start();
    return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/v1/models");
  }

  interface Body {
    void write(OutputStream out) throws IOException, InterruptedException;
  }

  private static final String STREAM_HEAD =
      "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";

  private static HttpRequest get(URI u) {
    return HttpRequest.newBuilder(u).timeout(Duration.ofSeconds(30)).GET().build();
  }

  @Test
  @Timeout(60)
  void anEndlessBodyIsRefusedPastTheLimitAndTheConnectionClosed() throws Exception {
    URI u = serve(STREAM_HEAD, out -> {
      out.write("data: {\"x\":\"".getBytes(StandardCharsets.US_ASCII));
      byte[] a = new byte[64 * 1024];
      Arrays.fill(a, (byte) 'a');
      while (true) {
        out.write(a);
        written.addAndGet(a.length);
      }
    });
    HttpClient http = HttpClient.newHttpClient();
    assertThatThrownBy(() -> BoundedHttp.send(http, get(u), 1 << 20, Duration.ofSeconds(30)))
        .isInstanceOf(BoundedHttp.BodyTooLargeException.class)
        .hasMessage("response body longer than 1048576 bytes");
    assertThat(closedByClient.await(20, TimeUnit.SECONDS)).as("the client hung up").isTrue();
    // it stopped reading soon after the limit (socket buffers hold a few MiB at most)
    assertThat(written.get()).isLessThan(64L << 20);
  }

  @Test
  @Timeout(60)
  void theStatusOfAnEndlessAnswerIsReadWithoutItsBody() throws Exception {
    URI u = serve(STREAM_HEAD, out -> {
      byte[] a = new byte[64 * 1024];
      Arrays.fill(a, (byte) 'a');
      while (true) {
        out.write(a);
        written.addAndGet(a.length);
      }
    });
    assertThat(BoundedHttp.status(HttpClient.newHttpClient(), get(u), Duration.ofSeconds(30)))
        .isEqualTo(200);
    assertThat(closedByClient.await(20, TimeUnit.SECONDS)).as("the client hung up").isTrue();
    assertThat(written.get()).isLessThan(64L << 20);
  }

  @Test
  @Timeout(60)
  void aBodyThatKeepsTricklingInEndsAtTheDeadline() throws Exception {
    URI u = serve(STREAM_HEAD, out -> {
      while (true) {
        out.write(':');
        out.flush();
        Thread.sleep(20);
      }
    });
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> BoundedHttp.send(HttpClient.newHttpClient(), get(u), 1 << 20,
        Duration.ofMillis(500))).isInstanceOf(HttpTimeoutException.class);
    // the deadline, not the 30 s head timeout nor the size limit, ended it (wide margin: loaded CI)
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
    assertThat(closedByClient.await(20, TimeUnit.SECONDS)).as("the client hung up").isTrue();
  }

  @Test
  @Timeout(60)
  void aHeadFollowedBySilenceEndsAtTheDeadline() throws Exception {
    URI u = serve(STREAM_HEAD, out -> Thread.sleep(120_000));
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> BoundedHttp.send(HttpClient.newHttpClient(), get(u), 1 << 20,
        Duration.ofMillis(500))).isInstanceOf(HttpTimeoutException.class)
        .hasMessageContaining("within 500 ms");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  @Timeout(60)
  void aSmallAnswerIsReturnedWhole() throws Exception {
    String body = "{\"data\":[{\"id\":\"m\",\"owned_by\":\"vllm\"}]}";
    URI u = serve("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: "
        + body.length() + "\r\nConnection: close\r\n\r\n", out -> {
          out.write(body.getBytes(StandardCharsets.US_ASCII));
          out.flush();
        });
    var r = BoundedHttp.send(HttpClient.newHttpClient(), get(u), body.length(),
        Duration.ofSeconds(30));
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(new String(r.body(), StandardCharsets.US_ASCII)).isEqualTo(body);
  }
}
