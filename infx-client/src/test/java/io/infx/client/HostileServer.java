package io.infx.client;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A misbehaving OpenAI-compatible server on a loopback ephemeral port, one connection per request
 * ({@code Connection: close}). The request body picks the behaviour: a prompt containing
 * {@code endless} gets a 200 stream with one never-ending {@code data:} line; {@code echo} gets a
 * 401 whose body echoes the request headers (as some gateways do); {@code json200} gets a 200
 * {@code application/json} body; {@code silence} gets the response head and then nothing; anything
 * else gets a normal three-token stream.
 */
final class HostileServer implements AutoCloseable {

  static final String NORMAL = "data: {\"choices\":[{\"text\":\"a\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"b\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"c\",\"finish_reason\":\"length\"}],"
      + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}\n\n"
      + "data: [DONE]\n\n";

  private final ServerSocket server;
  final AtomicInteger requests = new AtomicInteger();
  /** Bytes written into endless lines so far. */
  final java.util.concurrent.atomic.AtomicLong endlessBytes = new java.util.concurrent.atomic.AtomicLong();

  private final String forcedMode;

  HostileServer() throws java.io.IOException {
    this(null);
  }

  /** A server that answers every request as if its prompt contained {@code forcedMode}. */
  HostileServer(String forcedMode) throws java.io.IOException {
    this.forcedMode = forcedMode;
    server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::serve, "hostile-server");
    t.setDaemon(true);
    t.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  private void serve() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        Thread t = new Thread(() -> answer(s), "hostile-conn");
        t.setDaemon(true);
        t.start();
      } catch (java.io.IOException e) {
        return;
      }
    }
  }

  private void answer(Socket s) {
    try (s) {
      BufferedReader in = new BufferedReader(
          new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
      StringBuilder head = new StringBuilder();
      int length = 0;
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
        head.append(line).append('\n');
        if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).strip());
        }
      }
      char[] body = new char[length];
      int got = 0;
      while (got < length) {
        int k = in.read(body, got, length - got);
        if (k < 0) {
          break;
        }
        got += k;
      }
      String req = forcedMode != null ? forcedMode : new String(body, 0, got);
      requests.incrementAndGet();
      OutputStream out = s.getOutputStream();
      if (req.contains("endless")) {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
            + "\r\ndata: {\"choices\":[{\"text\":\"").getBytes(StandardCharsets.US_ASCII));
        byte[] a = new byte[64 * 1024];
        Arrays.fill(a, (byte) 'a');
        while (true) { // until the client closes the connection
          out.write(a);
          endlessBytes.addAndGet(a.length);
        }
      } else if (req.contains("echo")) {
        byte[] b = ("{\"error\":\"unauthorized\",\"request_headers\":\"" + head.toString()
            .replace("\"", "'").replace("\n", "\\n") + "\"}").getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nConnection: close"
            + "\r\nContent-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b);
      } else if (req.contains("json200")) {
        byte[] b = "{\"id\":\"x\",\"choices\":[{\"text\":\"abc\"}]}".getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close"
            + "\r\nContent-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b);
      } else if (req.contains("silence")) {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(60_000);
      } else {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(NORMAL.getBytes(StandardCharsets.UTF_8));
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
            + "Content-Length: " + b.size() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        b.writeTo(out);
      }
      out.flush();
    } catch (java.io.IOException | InterruptedException e) {
      // the client went away
    }
  }

  @Override
  public void close() throws java.io.IOException {
    server.close();
  }
}
