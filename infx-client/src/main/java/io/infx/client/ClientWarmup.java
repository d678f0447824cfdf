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
    // shaped like real servers' chunks (llama.cpp / vLLM fields, escapes, multi-byte UTF-8), so
    // the parser's compiled code is not thrown away at the first real chunk
    String meta = "\"created\":1796146269,\"id\":\"chatcmpl-0zsPJXW0XUqHmAznpHm8t8p0xho5m0kA\","
        + "\"model\":\"warmup\",\"system_fingerprint\":\"b1-de3ff81\",";
    String[] words = {" the", " caf\\u00e9", " \u0441\u043b\u043e\u0432\u0430", "\\n", " \\\"quoted\\\"",
        " \u65e5\u672c", " ok", " \\ud83d\\ude00"};
    StringBuilder chat = new StringBuilder("data: {\"choices\":[{\"finish_reason\":null,\"index\":0,"
        + "\"delta\":{\"role\":\"assistant\",\"content\":null}}]," + meta
        + "\"object\":\"chat.completion.chunk\"}\n\n");
    StringBuilder text = new StringBuilder();
    for (int k = 0; k < 24; k++) {
      String w = words[k % words.length];
      chat.append("data: {\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":\"")
          .append(w).append("\"}}],").append(meta).append("\"object\":\"chat.completion.chunk\"}\n\n");
      text.append("data: {\"choices\":[{\"text\":\"").append(w).append("\",\"index\":0,\"logprobs\""
          + ":null,\"finish_reason\":null}],").append(meta).append("\"object\":\"text_completion\"}\n\n");
    }
    String usage = "\"usage\":{\"completion_tokens\":24,\"prompt_tokens\":30,\"total_tokens\":54,"
        + "\"prompt_tokens_details\":{\"cached_tokens\":10}},\"timings\":{\"cache_n\":10,"
        + "\"prompt_n\":20,\"prompt_ms\":9.651,\"predicted_n\":24,\"predicted_ms\":17.666}}\n\n"
        + "data: [DONE]\n\n";
    chat.append("data: {\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}],")
        .append(meta).append("\"object\":\"chat.completion.chunk\"}\n\n")
        .append("data: {\"choices\":[],").append(meta).append("\"object\":\"chat.completion.chunk\",")
        .append(usage);
    text.append("data: {\"choices\":[{\"text\":\"\",\"index\":0,\"logprobs\":null,\"finish_reason\""
        + ":\"length\"}],").append(meta).append("\"object\":\"text_completion\",").append(usage);
    CHAT = response(chat.toString());
    COMPLETIONS = response(text.toString());
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
   * Sends up to {@code requests} requests — fewer by what earlier runs in this JVM already sent —
   * through {@code exercise} on a client made from {@code options} with the stub's base URI and
   * no API key, then waits for the JIT compiler to go idle. Never throws: a warm-up that cannot
   * run leaves the client cold.
   *
   * @param exercise sends the given number of requests on the given client and returns how many
   *     completed and how many of those failed ({@code [done, failed]})
   */
  static Result run(ClientOptions options, int requests,
      java.util.function.BiFunction<StreamingClient, Integer, int[]> exercise) {
    long t0 = System.nanoTime();
    // JIT state belongs to the JVM: what an earlier run in this JVM warmed stays warm
    synchronized (ClientWarmup.class) {
      int n = Math.max(0, requests - doneInThisJvm);
      if (n <= 0) {
        return new Result(0, 0, Duration.ZERO);
      }
      int[] r = {0, 0};
      try (Stub stub = new Stub(8);
          StreamingClient client = StreamingClient.create(ImmutableClientOptions.copyOf(options)
              .withBaseUri(stub.uri()).withApiKey(java.util.Optional.empty())
              .withMaxConnections(Math.max(8, options.maxConnections())).withRetainText(false))) {
        r = exercise.apply(client, n);
      } catch (RuntimeException | IOException e) {
        r = new int[] {r[0], r[1] + 1};
      }
      doneInThisJvm += r[0];
      awaitQuietJit(Duration.ofSeconds(10));
      return new Result(r[0], r[1], Duration.ofNanos(System.nanoTime() - t0));
    }
  }

  /** Up to {@code requests} small requests of {@code api}'s shape, {@code lanes} at a time. */
  static int[] simpleExercise(StreamingClient client, ServingBackend.Api api, int requests,
      int lanes, Duration budget) {
    long deadline = System.nanoTime() + budget.toNanos();
    AtomicInteger started = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    CompletableFuture<?>[] all = new CompletableFuture<?>[Math.max(1, lanes)];
    for (int l = 0; l < all.length; l++) {
      all[l] = lane(client, api, requests, deadline, started, done, failed);
    }
    try {
      CompletableFuture.allOf(all).get(budget.toMillis() + 10_000, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      failed.incrementAndGet();
    }
    return new int[] {done.get(), failed.get()};
  }

  /**
   * Waits (at most {@code max}) until the JIT compiler is idle: nothing compiling and both queues
   * empty (HotSpot's {@code Compiler.queue} diagnostic command), seen twice 50 ms apart; where that
   * command is missing, until the total compilation time stops growing for 500 ms. The warm-up
   * (and the start-up before it: tokenizer, prompts) queues hundreds of compilations; measured on
   * the 2-core machine with llama-server, the C2 compiler thread then used ~1.2 s of CPU during a
   * 7 s run — CPU taken from the server, whose prompt and decode times rose with it.
   */
  static void awaitQuietJit(Duration max) {
    long end = System.nanoTime() + max.toNanos();
    try {
      javax.management.MBeanServer mbs =
          java.lang.management.ManagementFactory.getPlatformMBeanServer();
      javax.management.ObjectName dcmd =
          new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand");
      int idle = 0;
      while (idle < 2 && System.nanoTime() < end) {
        String q = (String) mbs.invoke(dcmd, "compilerQueue", new Object[] {new String[0]},
            new String[] {String[].class.getName()});
        idle = compilerIdle(q) ? idle + 1 : 0;
        if (idle < 2) {
          Thread.sleep(50);
        }
      }
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception | LinkageError e) {
      // no diagnostic command here: fall back to the compilation-time counter
    }
    java.lang.management.CompilationMXBean jit =
        java.lang.management.ManagementFactory.getCompilationMXBean();
    if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
      return;
    }
    long last = jit.getTotalCompilationTime();
    int quiet = 0;
    try {
      while (quiet < 10 && System.nanoTime() < end) {
        Thread.sleep(50);
        long now = jit.getTotalCompilationTime();
        quiet = now == last ? quiet + 1 : 0;
        last = now;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * True when HotSpot's {@code Compiler.queue} output shows nothing compiling ({@code Current
   * compiles:} followed by a blank section) and every queue {@code Empty}.
   */
  static boolean compilerIdle(String queue) {
    if (queue == null) {
      return true;
    }
    boolean inCurrent = false;
    for (String line : queue.split("\\R")) {
      String l = line.strip();
      if (l.startsWith("Current compiles:")) {
        inCurrent = true;
      } else if (l.endsWith("compile queue:")) {
        inCurrent = false;
      } else if (!l.isEmpty() && (inCurrent || !l.equals("Empty"))) {
        return false;
      }
    }
    return true;
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
  static final class Stub implements AutoCloseable {
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
