package io.infx.cli;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A broken OpenAI-compatible server on a loopback ephemeral port that answers with one endless SSE
 * line (never a newline): every request that is not a streaming completion (the client's probes:
 * {@code /version}, {@code /v1/models}, {@code /tokenize}, {@code /metrics}, {@code /health} …)
 * and the {@code endlessAt}-th streaming request ({@code POST …/completions}, counted from 1);
 * the other streaming requests get a normal three-token stream (Completions or Chat shaped). One
 * connection per request ({@code Connection: close}); each endless answer is recorded with the
 * bytes written and how long it lasted until the client hung up.
 */
final class EndlessLineServer implements AutoCloseable {

  /** What the endless line looks like. */
  enum Line {
    /** {@code data: {"choices":[{"text":"aaaa…} */
    DATA("data: {\"choices\":[{\"text\":\""),
    /** a line without a field name's {@code data:} ({@code {"choices"…aaaa…}) */
    UNPREFIXED("{\"choices\":[{\"text\":\""),
    /** an SSE comment line ({@code : aaaa…}) */
    COMMENT(": ");

    final String start;

    Line(String start) {
      this.start = start;
    }
  }

  /** One endless answer: the request line, bytes written, milliseconds until the client left. */
  record Endless(String request, long bytes, long millis) {}

  private static final String COMPLETIONS = "data: {\"choices\":[{\"text\":\"a\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"b\"}]}\n\n"
      + "data: {\"choices\":[{\"text\":\"c\",\"finish_reason\":\"length\"}]}\n\n"
      + "data: {\"choices\":[],\"usage\":{\"completion_tokens\":3}}\n\n"
      + "data: [DONE]\n\n";
  private static final String CHAT =
      "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}\n\n"
      + "data: {\"choices\":[{\"delta\":{\"content\":\"a\"}}]}\n\n"
      + "data: {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}\n\n"
      + "data: {\"choices\":[{\"delta\":{\"content\":\"c\"},\"finish_reason\":\"length\"}]}\n\n"
      + "data: {\"choices\":[],\"usage\":{\"completion_tokens\":3}}\n\n"
      + "data: [DONE]\n\n";

  private final ServerSocket server;
  private final Line line;
  private final int endlessAt;
  private final AtomicInteger streaming = new AtomicInteger();
  /** Endless answers that have ended (the client closed the connection). */
  final List<Endless> endless = new CopyOnWriteArrayList<>();
  /** Endless answers begun. */
  final AtomicInteger endlessStarted = new AtomicInteger();
  /** Normal streams served. */
  final AtomicInteger normal = new AtomicInteger();

  EndlessLineServer(Line line, int endlessAt) throws IOException {
    this.line = line;
    this.endlessAt = endlessAt;
    server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::serve, "endless-line-server");
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
        Thread t = new Thread(() -> answer(s), "endless-line-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void answer(Socket s) {
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream());
      String requestLine = readLine(in);
      if (requestLine == null) {
        return;
      }
      int length = 0;
      for (String h = readLine(in); h != null && !h.isEmpty(); h = readLine(in)) {
        if (h.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(h.substring(15).strip());
        }
      }
      in.readNBytes(length);
      String path = requestLine.split(" ")[1];
      boolean stream = requestLine.startsWith("POST ") && path.endsWith("completions");
      OutputStream out = s.getOutputStream();
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      if (!stream || streaming.incrementAndGet() == endlessAt) {
        writeEndless(out, requestLine);
      } else {
        out.write((path.endsWith("chat/completions") ? CHAT : COMPLETIONS)
            .getBytes(StandardCharsets.UTF_8));
        out.flush();
        normal.incrementAndGet();
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  private void writeEndless(OutputStream out, String requestLine) {
    endlessStarted.incrementAndGet();
    long t0 = System.nanoTime();
    long n = 0;
    byte[] a = new byte[64 * 1024];
    Arrays.fill(a, (byte) 'a');
    try {
      out.write(line.start.getBytes(StandardCharsets.US_ASCII));
      while (true) { // until the client closes the connection
        out.write(a);
        n += a.length;
      }
    } catch (IOException closed) {
      endless.add(new Endless(requestLine, n, (System.nanoTime() - t0) / 1_000_000));
    }
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c = in.read(); c >= 0; c = in.read()) {
      if (c == '\n') {
        int end = b.length();
        return end > 0 && b.charAt(end - 1) == '\r' ? b.substring(0, end - 1) : b.toString();
      }
      b.append((char) c);
    }
    return b.length() == 0 ? null : b.toString();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
