package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-request wire breakdown against a server in the same JVM whose own {@link
 * System#nanoTime()} stamps bound the client's: the request must be written before the server has
 * read it, and each response point must be seen after the server sent it. The server paces its
 * answer (head, then a role-only chunk, then the first token) so every step is a distinct point.
 */
class WireTimingsTest {

  private static final long PAUSE_MS = 40;

  /** One request per connection, then closed (llama.cpp's shape); stamps when it did what. */
  static final class PacedServer implements AutoCloseable {
    final ServerSocket socket;
    volatile long requestReadNanos;
    volatile long headSentNanos;
    volatile long roleSentNanos;
    volatile long tokenSentNanos;

    PacedServer() throws Exception {
      socket = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
      Thread t = new Thread(this::serve, "paced-server");
      t.setDaemon(true);
      t.start();
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    private void serve() {
      while (!socket.isClosed()) {
        try (Socket s = socket.accept()) {
          BufferedReader in = new BufferedReader(
              new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
          int length = -1;
          for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
              length = Integer.parseInt(line.substring(15).strip());
            }
          }
          for (int k = 0; k < length; k++) {
            if (in.read() < 0) {
              break;
            }
          }
          requestReadNanos = System.nanoTime();
          OutputStream out = s.getOutputStream();
          Thread.sleep(PAUSE_MS);
          headSentNanos = System.nanoTime();
          out.write(("HTTP/1.1 200 OK\r\nServer: llama.cpp\r\nContent-Type: text/event-stream\r\n"
              + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
          out.flush();
          Thread.sleep(PAUSE_MS);
          roleSentNanos = System.nanoTime();
          chunk(out, "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
              + "\"content\":null}}]}\n\n");
          Thread.sleep(PAUSE_MS);
          tokenSentNanos = System.nanoTime();
          chunk(out, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n");
          chunk(out, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2,"
              + "\"completion_tokens\":1}}\n\ndata: [DONE]\n\n");
          out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          out.flush();
        } catch (java.io.IOException e) {
          // closed
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    private static void chunk(OutputStream out, String event) throws java.io.IOException {
      byte[] b = event.getBytes(StandardCharsets.UTF_8);
      out.write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(b);
      out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    @Override
    public void close() throws Exception {
      socket.close();
    }
  }

  @Test
  @Timeout(60)
  void everyWirePointIsRecordedInOrderAndBoundedByTheServersOwnStamps() throws Exception {
    try (PacedServer server = new PacedServer();
        StreamingClient c = StreamingClient.create(ClientOptions.builder().baseUri(server.uri())
            .maxConnections(1).deadlines(Deadlines.all(Duration.ofSeconds(20))).build())) {
      for (int i = 0; i < 3; i++) { // a fresh connection each time: the server closes it
        byte[] body = RequestBodies.chat("m", java.util.List.of(ChatMessage.user("hi " + i)), 1,
            BodyOptions.builder().build());
        RequestRecord r = c.send(new InferenceRequest(ServingBackend.Api.CHAT, "/v1/chat/completions",
            body, 2)).get(20, TimeUnit.SECONDS);
        assertThat(r.success()).as(String.valueOf(r.failure())).isTrue();

        long send = r.sendNanos();
        long ready = r.connectionReadyNanos().orElseThrow();
        long written = r.requestWrittenNanos().orElseThrow();
        long head = r.headersNanos().orElseThrow();
        long firstByte = r.firstByteNanos().orElseThrow();
        long firstToken = r.firstTokenNanos().orElseThrow();
        assertThat(send).isLessThanOrEqualTo(ready);
        assertThat(ready).isLessThanOrEqualTo(written);
        assertThat(written).as("written before the server finished reading it")
            .isLessThanOrEqualTo(server.requestReadNanos);
        assertThat(head).as("head seen after the server sent it")
            .isGreaterThanOrEqualTo(server.headSentNanos);
        assertThat(firstByte).as("first body byte: the role-only chunk")
            .isGreaterThanOrEqualTo(server.roleSentNanos).isGreaterThan(head);
        assertThat(firstToken).as("first token: the content chunk, after the role-only one")
            .isGreaterThanOrEqualTo(server.tokenSentNanos).isGreaterThan(firstByte);
        assertThat(r.firstChoicesNanos().orElseThrow()).isEqualTo(firstByte);
        assertThat(r.connectionReused()).isFalse();
      }
    }
  }
}
