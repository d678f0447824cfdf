package io.infx.client;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Warms the client's own code (connect, request write, SSE parsing, record building) in this JVM
 * before a measured run, against a canned SSE server on 127.0.0.1 that lives only for the
 * warm-up: nothing reaches the benchmarked server.
 *
 * <p>Why: a run of a few dozen requests executes the per-request path (HttpClient 5's connect
 * through its I/O reactor, the exchange, the parser) interpreted or barely compiled. Measured on
 * llama.cpp's {@code llama-server}, which closes every connection so each request connects inside
 * its TTFT: send → connection ready fell from 1.4 ms (cold) to 0.6 ms after ~700 requests, first
 * byte by 1.4 ms — about the whole excess of infx's TTFT over the Python client's at c=1. The
 * Python client has no JIT to warm; a JVM client has, and must not charge it to the server.
 *
 * <p>The stub answers every request with a short stream (a role-only chat chunk, content chunks,
 * a usage chunk, {@code [DONE]}, chat and completions shapes alternating) and closes the
 * connection, so the connect path is exercised on every request.
 */
final class ClientWarmup {

  private static final byte[] CHAT;
  private static final byte[] COMPLETIONS;

  static {
    StringBuilder chat = new StringBuilder("data: {\"choices\":[{\"index\":0,\"delta\":"
        + "{\"role\":\"assistant\",\"content\":null}}]}\n\n");
    StringBuilder text = new StringBuilder();
    for (int k = 0; k < 8; k++) {
      chat.append("data: {\"id\":\"w\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\""
          + ":0,\"delta\":{\"content\":\" tok").append(k).append("\"},\"finish_reason\":null}]}\n\n");
      text.append("data: {\"id\":\"w\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,"
          + "\"text\":\" tok").append(k).append("\",\"finish_reason\":null}]}\n\n");
    }
    String usage = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":4,"
        + "\"completion_tokens\":8,\"total_tokens\":12}}\n\ndata: [DONE]\n\n";
    CHAT = response(chat.append(usage).toString());
    COMPLETIONS = response(text.append(usage).toString());
  }

  private static int doneInThisJvm;

  private ClientWarmup() {}

  /** Warm-up requests completed in this JVM so far. */
  static synchronized int warmedInThisJvm() {
    return doneInThisJvm;
  }

  /**
   * What the warm-up did.
   *
   * @param requests exchanges completed (any outcome)
   * @param failed exchanges that did not succeed
   * @param elapsed wall time, including the stub's start and stop
   */
  public record Result(int requests, int failed, Duration elapsed) {}

  /**
   * Runs up to {@code requests} exchanges, {@code concurrency} at a time, on a client made from
   * {@code options} (its base URI replaced by the stub's, no API key), stopping early once
   * {@code budget} has passed; requests already warmed in this JVM count towards
   * {@code requests}. Never throws: a warm-up that cannot run leaves the client cold.
   */
  static Result run(ClientOptions options, ServingBackend.Api api, int requests, int concurrency,
      Duration budget) {
    long t0 = System.nanoTime();
    // JIT state belongs to the JVM: what an earlier run in this JVM warmed stays warm
    synchronized (ClientWarmup.class) {
      requests = Math.max(0, requests - doneInThisJvm);
      if (requests <= 0) {
        return new Result(0, 0, Duration.ZERO);
      }
      Result r = warm(options, api, requests, concurrency, budget, t0);
      doneInThisJvm += r.requests();
      return r;
    }
  }

  private static Result warm(ClientOptions options, ServingBackend.Api api, int requests,
      int concurrency, Duration budget, long t0) {
    long deadline = t0 + budget.toNanos();
    int lanes = Math.max(1, Math.min(concurrency, requests));
    AtomicInteger started = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    try (Stub stub = new Stub(lanes);
        StreamingClient client = StreamingClient.create(ImmutableClientOptions.copyOf(options)
            .withBaseUri(stub.uri()).withApiKey(java.util.Optional.empty())
            .withMaxConnections(lanes).withRetainText(false))) {
      CompletableFuture<?>[] all = new CompletableFuture<?>[lanes];
      for (int l = 0; l < lanes; l++) {
        all[l] = lane(client, api, requests, deadline, started, done, failed);
      }
      CompletableFuture.allOf(all).get(budget.toMillis() + 10_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failed.incrementAndGet();
    }
    return new Result(done.get(), failed.get(), Duration.ofNanos(System.nanoTime() - t0));
  }

  private static CompletableFuture<Void> lane(StreamingClient client, ServingBackend.Api api,
      int requests, long deadline, AtomicInteger started, AtomicInteger done,
      AtomicInteger failed) {
    int i = started.getAndIncrement();
    if (i >= requests || System.nanoTime() > deadline) {
      return CompletableFuture.completedFuture(null);
    }
    // mostly the run's own shape, every fourth the other one
    boolean chat = api == ServingBackend.Api.CHAT ? (i & 3) != 3 : (i & 3) == 3;
    byte[] body = chat
        ? RequestBodies.chat("warmup", java.util.List.of(ChatMessage.user("warm up " + i)), 8,
            BodyOptions.defaults())
        : RequestBodies.completions("warmup", "warm up " + i, 8, BodyOptions.defaults());
    InferenceRequest r = chat
        ? new InferenceRequest(ServingBackend.Api.CHAT, "/v1/chat/completions", body, 4)
        : new InferenceRequest(ServingBackend.Api.COMPLETIONS, "/v1/completions", body, 4);
    return client.send(r, i, RequestRecord.Phase.WARMUP, System.nanoTime()).thenComposeAsync(rec -> {
      done.incrementAndGet();
      if (!rec.success()) {
        failed.incrementAndGet();
      }
      return lane(client, api, requests, deadline, started, done, failed);
    });
  }

  /** A chunked SSE response, one chunk per event (llama.cpp's and vLLM's framing). */
  private static byte[] response(String events) {
    StringBuilder out = new StringBuilder("HTTP/1.1 200 OK\r\nServer: infx-warmup\r\n"
        + "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
        + "Connection: close\r\n\r\n");
    for (String e : events.split("(?<=\n\n)")) {
      out.append(Integer.toHexString(e.getBytes(StandardCharsets.UTF_8).length)).append("\r\n")
          .append(e).append("\r\n");
    }
    return out.append("0\r\n\r\n").toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The canned server: one request per connection, answered at once, then closed. */
  private static final class Stub implements AutoCloseable {
    private final ServerSocket socket;
    private final ExecutorService workers;
    private final Thread acceptor;

    Stub(int threads) throws IOException {
      socket = new ServerSocket(0, 256, InetAddress.getLoopbackAddress());
      workers = Executors.newFixedThreadPool(Math.min(threads, 4), r -> {
        Thread t = new Thread(r, "infx-client-warmup-stub");
        t.setDaemon(true);
        return t;
      });
      acceptor = new Thread(this::accept, "infx-client-warmup-accept");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    private void accept() {
      while (!socket.isClosed()) {
        try {
          Socket s = socket.accept();
          workers.execute(() -> answer(s));
        } catch (IOException | java.util.concurrent.RejectedExecutionException e) {
          return;
        }
      }
    }

    private static void answer(Socket s) {
      try (s) {
        s.setTcpNoDelay(true);
        InputStream in = new BufferedInputStream(s.getInputStream());
        int length = 0;
        boolean chat = false;
        StringBuilder line = new StringBuilder();
        while (true) { // the head, line by line
          int b = in.read();
          if (b < 0) {
            return;
          }
          if (b == '\n') {
            String l = line.toString().strip();
            line.setLength(0);
            if (l.isEmpty()) {
              break;
            }
            if (l.startsWith("POST ")) {
              chat = l.contains("chat/completions");
            } else if (l.regionMatches(true, 0, "content-length:", 0, 15)) {
              length = Integer.parseInt(l.substring(15).strip());
            }
          } else {
            line.append((char) b);
          }
        }
        in.skipNBytes(length);
        OutputStream out = s.getOutputStream();
        out.write(chat ? CHAT : COMPLETIONS);
        out.flush();
      } catch (IOException | RuntimeException e) {
        // the client went away; a warm-up exchange may fail
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
      workers.shutdownNow();
    }
  }
}
