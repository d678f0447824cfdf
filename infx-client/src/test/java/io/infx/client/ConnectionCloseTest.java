package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * llama.cpp's {@code llama-server} shape: every streamed response is sent with
 * {@code Connection: close} and the server closes the socket after it, with the usage on the last
 * chunk that carries choices. The pooled client must open a new connection per request and count
 * every request and token.
 */
class ConnectionCloseTest {

  private static final String BODY = "data: {\"choices\":[{\"text\":\"a\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"b\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"c\",\"finish_reason\":\"length\"}],"
      + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}\n\n"
      + "data: [DONE]\n\n";

  @Test
  @Timeout(60)
  void everyRequestCompletesWhenTheServerClosesTheConnectionAfterEachStream() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    try (ServerSocket server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> serve(server, connections), "llama-like-server");
      acceptor.setDaemon(true);
      acceptor.start();
      ClientOptions o = ClientOptions.builder()
          .baseUri(java.net.URI.create("http://127.0.0.1:" + server.getLocalPort()))
          .maxConnections(4).deadlines(Deadlines.all(Duration.ofSeconds(20))).build();
      List<RequestRecord> records = new ArrayList<>();
      try (StreamingClient c = StreamingClient.create(o)) {
        for (int wave = 0; wave < 5; wave++) {
          List<CompletableFuture<RequestRecord>> fs = new ArrayList<>();
          for (int i = 0; i < 4; i++) {
            byte[] body = RequestBodies.completions("m", "p " + i, 3, BodyOptions.builder().build());
            fs.add(c.send(new InferenceRequest(ServingBackend.Api.COMPLETIONS, "/v1/completions", body, 2)));
          }
          for (CompletableFuture<RequestRecord> f : fs) {
            records.add(f.get(30, TimeUnit.SECONDS));
          }
        }
      }
      assertThat(records).hasSize(20).allSatisfy(r -> {
        assertThat(r.success()).as(String.valueOf(r.failure())).isTrue();
        assertThat(r.outputTokens()).isEqualTo(3);
        assertThat(r.tokenChunks()).isEqualTo(3);
      });
      assertThat(connections.get()).as("one connection per request").isEqualTo(20);
    }
  }

  private static void serve(ServerSocket server, AtomicInteger connections) {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        connections.incrementAndGet();
        Thread t = new Thread(() -> answer(s));
        t.setDaemon(true);
        t.start();
      } catch (java.io.IOException e) {
        return;
      }
    }
  }

  private static void answer(Socket s) {
    try (s) {
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
      int length = 0;
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).strip());
        }
      }
      in.skip(length);
      OutputStream out = s.getOutputStream();
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
          + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      for (String event : BODY.split("(?<=\n\n)")) {
        byte[] b = event.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    } catch (java.io.IOException e) {
      // the client went away: nothing to answer
    }
  }
}
