package io.infx.client.sim;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncServerExchangeHandler;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.ResponseChannel;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.impl.BasicEntityDetails;

/**
 * One HTTP exchange of the simulator. Reads the request, hands it to {@link SimServer#route}, and
 * writes whatever the engine queues: the engine thread enqueues chunks and asks for output; the
 * I/O thread writes them and stamps each token chunk with the time its bytes went to the socket.
 */
final class SimHandler implements AsyncServerExchangeHandler {

  /** One piece of output. */
  record Out(byte[] bytes, int tokens, boolean end, boolean reset) {}

  private static final int MAX_BODY = 64 << 20;

  private final SimServer server;
  private final ConcurrentLinkedQueue<Out> queue = new ConcurrentLinkedQueue<>();
  private volatile DataStreamChannel channel;
  private volatile boolean captured;
  private volatile boolean aborted;
  private ResponseChannel responseChannel;
  private HttpContext context;
  private String method;
  private String path;
  private byte[] body = new byte[0];
  private int bodyLen;
  private ByteBuffer current;
  private Out currentOut;

  // timeline (written on the I/O thread)
  String requestId;
  long arrivalNanos;
  volatile long headersNanos;
  private long[] chunkNanos;
  private int[] chunkTokens;
  private int chunks;
  int promptTokens;
  int cachedTokens;
  int completionTokens;
  String fault = "none";
  boolean recordTimeline;

  SimHandler(SimServer server) {
    this.server = server;
  }

  String method() {
    return method;
  }

  String path() {
    return path;
  }

  byte[] body() {
    return bodyLen == body.length ? body : Arrays.copyOf(body, bodyLen);
  }

  boolean aborted() {
    return aborted;
  }

  @Override
  public void handleRequest(HttpRequest request, EntityDetails entityDetails,
      ResponseChannel responseChannel, HttpContext context) throws IOException {
    this.responseChannel = responseChannel;
    this.context = context;
    this.method = request.getMethod();
    this.path = request.getPath();
    if (entityDetails == null) {
      arrivalNanos = System.nanoTime();
      server.route(this);
    }
  }

  @Override
  public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
    capacityChannel.update(Integer.MAX_VALUE);
  }

  @Override
  public void consume(ByteBuffer src) throws IOException {
    int n = src.remaining();
    if (bodyLen + n > MAX_BODY) {
      throw new IOException("request body too large");
    }
    if (bodyLen + n > body.length) {
      body = Arrays.copyOf(body, Math.max(bodyLen + n, Math.max(1024, body.length * 2)));
    }
    src.get(body, bodyLen, n);
    bodyLen += n;
  }

  @Override
  public void streamEnd(List<? extends Header> trailers) throws IOException {
    arrivalNanos = System.nanoTime();
    server.route(this);
  }

  /** Sends a complete response (status, content type, body). */
  void respond(int status, String contentType, byte[] bytes, Header... headers) {
    try {
      BasicHttpResponse r = new BasicHttpResponse(status);
      for (Header h : headers) {
        r.addHeader(h);
      }
      enqueue(new Out(bytes, 0, true, false));
      headersNanos = System.nanoTime();
      responseChannel.sendResponse(r,
          new BasicEntityDetails(bytes.length, ContentType.parse(contentType)), context);
    } catch (Exception e) {
      aborted = true;
    }
  }

  void respondJson(int status, String json, Header... headers) {
    respond(status, "application/json", json.getBytes(StandardCharsets.UTF_8), headers);
  }

  /** Starts a streaming (SSE) response; the body follows through {@link #enqueue}. */
  void startStream(Header... headers) {
    try {
      BasicHttpResponse r = new BasicHttpResponse(200);
      for (Header h : headers) {
        r.addHeader(h);
      }
      headersNanos = System.nanoTime();
      responseChannel.sendResponse(r,
          new BasicEntityDetails(-1, ContentType.parse("text/event-stream")), context);
    } catch (Exception e) {
      aborted = true;
    }
  }

  /** Queues output (any thread) and asks the I/O thread to write it. */
  void enqueue(Out out) {
    queue.add(out);
    DataStreamChannel ch = channel;
    if (ch != null) {
      ch.requestOutput();
    }
  }

  @Override
  public int available() {
    if (!captured) {
      return 1; // get one produce() call to learn the channel
    }
    Out o = queue.peek();
    return current != null ? current.remaining() : o == null ? 0 : Math.max(1, o.bytes.length);
  }

  @Override
  public void produce(DataStreamChannel ch) throws IOException {
    if (!captured) {
      channel = ch;
      captured = true;
    }
    while (true) {
      if (current == null) {
        Out o = queue.poll();
        if (o == null) {
          return;
        }
        if (o.reset) {
          aborted = true;
          throw new IOException("simulated connection reset");
        }
        currentOut = o;
        current = ByteBuffer.wrap(o.bytes);
      }
      if (current.hasRemaining()) {
        ch.write(current);
        if (current.hasRemaining()) {
          return; // socket full: produce() is called again when writable
        }
      }
      Out done = currentOut;
      current = null;
      currentOut = null;
      if (done.tokens > 0 && recordTimeline) {
        stamp(System.nanoTime(), done.tokens);
      }
      if (done.end) {
        ch.endStream();
        server.finished(this);
        return;
      }
    }
  }

  private void stamp(long now, int tokens) {
    if (chunkNanos == null) {
      chunkNanos = new long[16];
      chunkTokens = new int[16];
    } else if (chunks == chunkNanos.length) {
      chunkNanos = Arrays.copyOf(chunkNanos, chunks * 2);
      chunkTokens = Arrays.copyOf(chunkTokens, chunks * 2);
    }
    chunkNanos[chunks] = now;
    chunkTokens[chunks] = tokens;
    chunks++;
  }

  Timeline timeline() {
    List<Long> t = new ArrayList<>(chunks);
    List<Integer> k = new ArrayList<>(chunks);
    for (int i = 0; i < chunks; i++) {
      t.add(chunkNanos[i]);
      k.add(chunkTokens[i]);
    }
    return new Timeline(requestId, arrivalNanos, headersNanos, List.copyOf(t), List.copyOf(k),
        promptTokens, cachedTokens, completionTokens, fault);
  }

  @Override
  public void failed(Exception cause) {
    aborted = true;
  }

  @Override
  public void releaseResources() {
    if (currentOut == null || !currentOut.end) {
      aborted = true;
    }
  }
}
