package io.infx.client;

import io.infx.client.tokenizer.BuiltinTokenizer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Completions server on a loopback ephemeral port that "generates" one token every
 * {@code paceNanos} on an absolute schedule and streams them {@code tokensPerChunk} at a time:
 * token {@code i} (0-based) of a request exists at {@code received + firstTokenNanos + i·pace},
 * and a chunk is written when its last token exists. So the true per-token ITL is the pace, by
 * construction, whatever the client computes. Tokens are builtin-tokenizer words (one token per
 * word for {@link BuiltinTokenizer}). {@link Usage} picks what usage the stream carries.
 * One request per connection (chunked transfer encoding, then close).
 */
final class PacedServer implements AutoCloseable {

  enum Usage { NONE, TOTAL, CONTINUOUS }

  private static final Pattern MAX_TOKENS = Pattern.compile("\"max_tokens\"\\s*:\\s*(\\d+)");

  private final ServerSocket server;
  private final long paceNanos;
  private final long firstTokenNanos;
  private final int tokensPerChunk;
  private final Usage usage;
  private final List<long[]> spans = new CopyOnWriteArrayList<>();

  PacedServer(long paceNanos, long firstTokenNanos, int tokensPerChunk, Usage usage)
      throws java.io.IOException {
    this.paceNanos = paceNanos;
    this.firstTokenNanos = firstTokenNanos;
    this.tokensPerChunk = tokensPerChunk;
    this.usage = usage;
    server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
    Thread t = new Thread(this::serve, "paced-server");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Per finished request, in completion order, what the server actually did on its own clock:
   * {@code {first chunk written, last token chunk written, tokens after the first chunk}} (ns,
   * ns, tokens). On a loaded machine a chunk can be written later than its due time; this is the
   * schedule the client really saw, so tests take their truth from it rather than the pace.
   */
  List<long[]> spans() {
    return List.copyOf(spans);
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  private void serve() {
    while (!server.isClosed()) {
      try {
        Socket s = server.accept();
        Thread t = new Thread(() -> answer(s), "paced-conn");
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
      int length = 0;
      for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
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
      long received = System.nanoTime();
      Matcher m = MAX_TOKENS.matcher(new String(body, 0, got));
      int n = m.find() ? Integer.parseInt(m.group(1)) : 16;
      OutputStream out = s.getOutputStream();
      out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
          + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      int sent = 0;
      long firstWritten = 0;
      long lastWritten = 0;
      int firstChunkTokens = 0;
      while (sent < n) {
        int k = Math.min(tokensPerChunk, n - sent);
        StringBuilder text = new StringBuilder();
        for (int t = 0; t < k; t++) {
          text.append(BuiltinTokenizer.tokenText((sent + t) * 7919 % 30000));
        }
        sent += k;
        long due = received + firstTokenNanos + (long) (sent - 1) * paceNanos;
        sleepUntil(due);
        String usageJson = usage == Usage.CONTINUOUS || (usage == Usage.TOTAL && sent == n)
            ? ",\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":" + sent + "}" : "";
        chunk(out, "data: {\"choices\":[{\"index\":0,\"text\":\"" + text + "\"}]" + usageJson
            + "}\n\n");
        lastWritten = System.nanoTime();
        if (firstChunkTokens == 0) {
          firstWritten = lastWritten;
          firstChunkTokens = k;
        }
      }
      chunk(out, "data: [DONE]\n\n");
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      spans.add(new long[] {firstWritten, lastWritten, n - firstChunkTokens});
    } catch (java.io.IOException | InterruptedException e) {
      // the client went away
    }
  }

  private static void sleepUntil(long due) throws InterruptedException {
    long left;
    while ((left = due - System.nanoTime()) > 0) {
      Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
    }
  }

  private static void chunk(OutputStream out, String data) throws java.io.IOException {
    byte[] b = data.getBytes(StandardCharsets.UTF_8);
    out.write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(b);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  @Override
  public void close() throws java.io.IOException {
    server.close();
  }
}
