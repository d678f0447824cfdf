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
 * <p>The stub answers every request with a short stream framed like llama.cpp's (a role-only chat
 * chunk with the first content, content chunks, the finish and usage chunks together, {@code
 * [DONE]}; chat and completions shapes alternating), mostly one chunk per write as a decoding
 * server flushes them (see {@link Delivery}), and closes the connection, so the connect path is
 * exercised on every request.
 */
final class ClientWarmup {

  /** The chat and the completions stream, each as the HTTP chunks a server writes one by one. */
  private static final byte[][] CHAT;
  private static final byte[][] COMPLETIONS;

  static {
    // shaped like real servers' chunks (llama.cpp / vLLM fields, escapes, multi-byte UTF-8, the
    // final chunk's floating-point timings), so the parser's compiled code is not thrown away at
    // the first real chunk
    String meta = "\"created\":1796146269,\"id\":\"chatcmpl-0zsPJXW0XUqHmAznpHm8t8p0xho5m0kA\","
        + "\"model\":\"warmup\",\"system_fingerprint\":\"b1-de3ff81\",";
    String[] words = {" the", " caf\\u00e9", " \u0441\u043b\u043e\u0432\u0430", "\\n", " \\\"quoted\\\"",
        " \u65e5\u672c", " ok", " \\ud83d\\ude00"};
    java.util.List<String> chat = new java.util.ArrayList<>();
    java.util.List<String> text = new java.util.ArrayList<>();
    String role = "data: {\"choices\":[{\"finish_reason\":null,\"index\":0,"
        + "\"delta\":{\"role\":\"assistant\",\"content\":null}}]," + meta
        + "\"object\":\"chat.completion.chunk\"}\n\n";
    for (int k = 0; k < 24; k++) {
      String w = words[k % words.length];
      chat.add((k == 0 ? role : "") + "data: {\"choices\":[{\"finish_reason\":null,\"index\":0,"
          + "\"delta\":{\"content\":\"" + w + "\"}}]," + meta + "\"object\":\"chat.completion.chunk\"}\n\n");
      text.add("data: {\"choices\":[{\"text\":\"" + w + "\",\"index\":0,\"logprobs\":null,"
          + "\"finish_reason\":null}]," + meta + "\"object\":\"text_completion\"}\n\n");
    }
    String usage = "\"usage\":{\"completion_tokens\":24,\"prompt_tokens\":30,\"total_tokens\":54,"
        + "\"prompt_tokens_details\":{\"cached_tokens\":10}},\"timings\":{\"cache_n\":10,"
        + "\"prompt_n\":20,\"prompt_ms\":9.651,\"prompt_per_token_ms\":0.22519999999999998,"
        + "\"prompt_per_second\":4440.497335701599,\"predicted_n\":24,\"predicted_ms\":17.666,"
        + "\"predicted_per_token_ms\":0.7360833333333333,\"predicted_per_second\":1358.5418318804483}}"
        + "\n\n";
    // llama.cpp writes the finish chunk and the usage chunk together, [DONE] on its own
    chat.add("data: {\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}],"
        + meta + "\"object\":\"chat.completion.chunk\"}\n\n" + "data: {\"choices\":[]," + meta
        + "\"object\":\"chat.completion.chunk\"," + usage);
    text.add("data: {\"choices\":[{\"text\":\"\",\"index\":0,\"logprobs\":null,\"finish_reason\""
        + ":\"length\"}]," + meta + "\"object\":\"text_completion\"," + usage);
    chat.add("data: [DONE]\n\n");
    text.add("data: [DONE]\n\n");
    CHAT = response(chat);
    COMPLETIONS = response(text);
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
              // the measured client's thread count, not the stub's (always on loopback)
              .withIoThreads(options.ioThreadChoice().count())
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

  /**
   * The response as llama.cpp's {@code llama-server} sends it: its head (an empty header value
   * included), then one HTTP chunk per element of {@code chunks}; element 0 is the head.
   */
  private static byte[][] response(java.util.List<String> chunks) {
    byte[][] out = new byte[chunks.size() + 2][];
    out[0] = ("HTTP/1.1 200 OK\r\nServer: infx-warmup\r\nAccess-Control-Allow-Origin: \r\n"
        + "X-Accel-Buffering: no\r\nContent-Type: text/event-stream\r\n"
        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < chunks.size(); i++) {
      byte[] e = chunks.get(i).getBytes(StandardCharsets.UTF_8);
      out[i + 1] = (Integer.toHexString(e.length) + "\r\n" + chunks.get(i) + "\r\n")
          .getBytes(StandardCharsets.UTF_8);
    }
    out[out.length - 1] = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    return out;
  }

  /**
   * How the stub delivers its {@code n}-th response. A real server flushes every token as it is
   * decoded, so the client reads one chunk at a time and often part of one; a client warmed only
   * on whole responses in one read compiles the read path for that case and deoptimizes at the
   * first real stream — measured against llama-server: HttpCore's chunk decoder, line reader and
   * I/O event loop recompiled by C2 during the measured phase (CPU the server on the same cores
   * lost). So half the responses go out chunk by chunk, a write (a TCP segment: no delay) per
   * chunk, half of those also cut inside a chunk head or an SSE event; the other half at once,
   * which costs the warm-up two writes instead of ~50, so its budget still buys as many
   * requests for the per-request code (connect, pool, exchange). No pauses between
   * writes: on a loaded machine a sleep of microseconds lasts milliseconds and the warm-up's
   * budget would go by in a few dozen requests; concurrent streams interleave the reads anyway.
   */
  enum Delivery {
    /** One write for the whole response. */
    WHOLE,
    /** One write per HTTP chunk. */
    PER_CHUNK,
    /** Like {@link #PER_CHUNK}, each chunk also cut in two: inside its size line, or mid-event. */
    SPLIT;

    static Delivery of(int n) {
      return switch (n & 3) {
        case 1 -> PER_CHUNK;
        case 3 -> SPLIT;
        default -> WHOLE;
      };
    }
  }

  /** Writes {@code response} (head and chunks) to {@code out} as {@code how} says. */
  static void deliver(byte[][] response, Delivery how, OutputStream out) throws IOException {
    if (how == Delivery.WHOLE) {
      int len = 0;
      for (byte[] b : response) {
        len += b.length;
      }
      byte[] all = new byte[len];
      int at = 0;
      for (byte[] b : response) {
        System.arraycopy(b, 0, all, at, b.length);
        at += b.length;
      }
      out.write(all);
      out.flush();
      return;
    }
    for (int i = 0; i < response.length; i++) {
      byte[] b = response[i];
      if (how == Delivery.SPLIT && i > 0 && b.length > 4) {
        // alternately inside the chunk-size line and in the middle of the event
        int cut = (i & 1) == 0 ? 1 : b.length / 2;
        out.write(b, 0, cut);
        out.flush();
        out.write(b, cut, b.length - cut);
      } else {
        out.write(b);
      }
      out.flush();
    }
  }

  /** The canned server: one request per connection, answered at once, then closed. */
  static final class Stub implements AutoCloseable {
    private final ServerSocket socket;
    private final ExecutorService workers;
    private final Thread acceptor;
    private final AtomicInteger served = new AtomicInteger();

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

    private void answer(Socket s) {
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
        deliver(chat ? CHAT : COMPLETIONS, Delivery.of(served.getAndIncrement()),
            s.getOutputStream());
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
