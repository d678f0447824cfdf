package io.infx.benchmarks.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.management.OperatingSystemMXBean;
import io.infx.client.ServingBackend;
import io.infx.client.BodyOptions;
import io.infx.client.ClientOptions;
import io.infx.client.Deadlines;
import io.infx.client.InferenceRequest;
import io.infx.client.RequestBodies;
import io.infx.client.RequestRecord;
import io.infx.client.StreamingClient;
import io.infx.client.metrics.SampleStats;
import io.infx.core.json.Json;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load harness for the client's overhead and scale figures (docs/performance.md, section Client).
 * The simulator runs as a separate process ({@code infx sim}), so the CPU, GC and allocation
 * figures are the client's alone; on Linux {@code System.nanoTime()} is CLOCK_MONOTONIC in every
 * JVM, so the client's arrival stamps compare directly with the simulator's true timeline
 * ({@code GET /infx/timeline/<id>}).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.infx.benchmarks.client.ClientHarness overhead \
 *     --sim-url http://127.0.0.1:PORT --streams 256 --requests 2560 --tokens 64
 * java -Xmx2g -cp ... ClientHarness scale --sim-url ... --streams 10000 --tokens 2000
 * </pre>
 */
public final class ClientHarness {

  /** Fewest warm-up requests before measuring overhead. */
  static final int WARMUP_REQUESTS = 5000;

  public static void main(String[] args) throws Exception {
    Map<String, String> a = parse(args);
    String mode = args.length > 0 ? args[0] : "overhead";
    URI sim = URI.create(a.getOrDefault("sim-url", "http://127.0.0.1:8000"));
    int streams = Integer.parseInt(a.getOrDefault("streams", "64"));
    int tokens = Integer.parseInt(a.getOrDefault("tokens", "64"));
    switch (mode) {
      case "overhead" -> overhead(sim, streams,
          Integer.parseInt(a.getOrDefault("requests", String.valueOf(streams * 10))), tokens);
      case "scale" -> scale(sim, streams, tokens,
          Integer.parseInt(a.getOrDefault("sample-after-s", "20")));
      default -> throw new IllegalArgumentException("mode: overhead | scale");
    }
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 1; i + 1 < args.length; i += 2) {
      m.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    return m;
  }

  private static InferenceRequest request(int i, int tokens) {
    byte[] body = RequestBodies.completions("sim", " ba be bi bo bu " + i, tokens,
        BodyOptions.builder().ignoreEos(true).build());
    return new InferenceRequest(ServingBackend.Api.COMPLETIONS, "/v1/completions", body, 6);
  }

  /** Measured − true TTFT (and per-chunk delay) at a fixed number of concurrent streams. */
  static void overhead(URI sim, int streams, int requests, int tokens) throws Exception {
    ClientOptions o = ClientOptions.builder().baseUri(sim).maxConnections(streams)
        .retainText(false).deadlines(Deadlines.all(Duration.ofMinutes(5))).build();
    Probe probe = new Probe();
    List<RequestRecord> records = new ArrayList<>();
    try (StreamingClient c = StreamingClient.create(o)) {
      // JIT warm-up of both JVMs (client and simulator), not measured: two waves were too few —
      // C2 compilations during the measured phase put the p99 at 8-14 ms at 64 streams.
      runClosed(c, streams, Math.max(streams * 4, WARMUP_REQUESTS), tokens, new ArrayList<>());
      probe.start();
      runClosed(c, streams, requests, tokens, records);
      probe.stop();
    }
    HttpClient http = HttpClient.newHttpClient();
    double[] ttftErr = new double[records.size()];
    List<Double> chunkErr = new ArrayList<>();
    int k = 0;
    for (RequestRecord r : records) {
      String id = r.requestId().orElseThrow();
      JsonNode t = Json.mapper().readTree(http.send(HttpRequest.newBuilder(
          sim.resolve("/infx/timeline/" + id)).build(), HttpResponse.BodyHandlers.ofString()).body());
      JsonNode chunks = t.get("chunkNanos");
      ttftErr[k++] = (r.firstTokenNanos().getAsLong() - chunks.get(0).asLong()) / 1e6;
      for (int i = 0; i < Math.min(chunks.size(), r.tokenChunks()); i++) {
        chunkErr.add((r.tokenChunkNanos(i) - chunks.get(i).asLong()) / 1e6);
      }
    }
    // errors in ms; NaN where there is no sample
    SampleStats s = SampleStats.of(ttftErr);
    SampleStats cs = SampleStats.of(chunkErr.stream().mapToDouble(Double::doubleValue).toArray());
    System.out.printf(Locale.ROOT, "overhead streams=%d requests=%d tokens=%d%n", streams,
        records.size(), tokens);
    System.out.printf(Locale.ROOT,
        "  measured-true TTFT ms: p50=%.3f p99=%.3f max=%.3f | per-chunk ms: p50=%.3f p99=%.3f%n",
        s.median().orElse(Double.NaN), s.percentile(99).orElse(Double.NaN),
        s.max().orElse(Double.NaN), cs.median().orElse(Double.NaN),
        cs.percentile(99).orElse(Double.NaN));
    probe.print(records.size(), (long) records.size() * tokens);
  }

  private static void runClosed(StreamingClient c, int streams, int requests, int tokens,
      List<RequestRecord> out) throws Exception {
    Semaphore slots = new Semaphore(streams);
    List<CompletableFuture<RequestRecord>> fs = new ArrayList<>(requests);
    for (int i = 0; i < requests; i++) {
      slots.acquire();
      fs.add(c.send(request(i, tokens), i, RequestRecord.Phase.MEASURED, System.nanoTime())
          .whenComplete((r, e) -> slots.release()));
    }
    int failed = 0;
    for (CompletableFuture<RequestRecord> f : fs) {
      RequestRecord r = f.get(10, TimeUnit.MINUTES);
      if (r.success()) {
        out.add(r);
      } else {
        failed++;
      }
    }
    if (failed > 0) {
      System.out.println("  failed requests: " + failed);
    }
  }

  /** Holds {@code streams} streams open and measures live heap per stream at steady state. */
  static void scale(URI sim, int streams, int tokens, int sampleAfterSeconds) throws Exception {
    ClientOptions o = ClientOptions.builder().baseUri(sim).maxConnections(streams)
        .retainText(false).bufferSize(2048)
        .deadlines(Deadlines.builder().connect(Duration.ofSeconds(60))
            .firstByte(Duration.ofMinutes(5)).idle(Duration.ofMinutes(2))
            .total(Duration.ofMinutes(30)).build()).build();
    MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
    System.gc();
    long baseline = mem.getHeapMemoryUsage().getUsed();
    Probe probe = new Probe();
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger bad = new AtomicInteger();
    List<CompletableFuture<RequestRecord>> fs = new ArrayList<>(streams);
    try (StreamingClient c = StreamingClient.create(o)) {
      probe.start();
      long t0 = System.nanoTime();
      for (int i = 0; i < streams; i++) {
        fs.add(c.send(request(i, tokens), i, RequestRecord.Phase.MEASURED, System.nanoTime())
            .whenComplete((r, e) -> (r.success() ? ok : bad).incrementAndGet()));
      }
      Thread.sleep(sampleAfterSeconds * 1000L);
      int inflight = c.inFlight();
      System.gc();
      Thread.sleep(200);
      System.gc();
      long live = mem.getHeapMemoryUsage().getUsed();
      System.out.printf(Locale.ROOT, "scale streams=%d tokens=%d: after %ds %d in flight, "
          + "live heap %.1f MB over baseline %.1f MB => %.1f KB per in-flight stream%n",
          streams, tokens, sampleAfterSeconds, inflight, (live - baseline) / 1e6, baseline / 1e6,
          (live - baseline) / 1024.0 / Math.max(1, inflight));
      for (CompletableFuture<RequestRecord> f : fs) {
        f.get(30, TimeUnit.MINUTES);
      }
      probe.stop();
      System.out.printf(Locale.ROOT, "  completed=%d failed=%d in %.1fs%n", ok.get(), bad.get(),
          (System.nanoTime() - t0) / 1e9);
    }
    probe.print(streams, (long) streams * tokens);
  }

  /** Client-process CPU, GC and allocation over a measured window. */
  static final class Probe {
    private final OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private long cpu0;
    private long wall0;
    private long gcCount0;
    private long gcTime0;
    private long alloc0;
    private long cpu1;
    private long wall1;
    private long gcCount1;
    private long gcTime1;
    private long alloc1;

    void start() {
      cpu0 = os.getProcessCpuTime();
      wall0 = System.nanoTime();
      gcCount0 = gcCount();
      gcTime0 = gcTime();
      alloc0 = allocated();
    }

    void stop() {
      cpu1 = os.getProcessCpuTime();
      wall1 = System.nanoTime();
      gcCount1 = gcCount();
      gcTime1 = gcTime();
      alloc1 = allocated();
    }

    private long allocated() {
      long[] ids = threads.getAllThreadIds();
      return Arrays.stream(threads.getThreadAllocatedBytes(ids)).filter(v -> v > 0).sum();
    }

    private static long gcCount() {
      return ManagementFactory.getGarbageCollectorMXBeans().stream()
          .mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
    }

    private static long gcTime() {
      return ManagementFactory.getGarbageCollectorMXBeans().stream()
          .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    void print(int requests, long chunks) {
      double wall = (wall1 - wall0) / 1e9;
      System.out.printf(Locale.ROOT,
          "  client CPU %.0f%% of one core over %.1fs (%d cores) | GC %d collections, %d ms total"
              + " | allocation %.1f KB/request, %.0f B/chunk (live threads only)%n",
          100.0 * (cpu1 - cpu0) / 1e9 / wall, wall, Runtime.getRuntime().availableProcessors(),
          gcCount1 - gcCount0, gcTime1 - gcTime0, (alloc1 - alloc0) / 1024.0 / requests,
          (alloc1 - alloc0) / (double) chunks);
    }
  }

  /** Starts {@code infx sim} as a child process and returns its base URL (unused helper). */
  static URI startSim(Path infx, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(infx.toString(), "sim", "--port", "0"));
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8));
    String url = r.readLine();
    if (url == null || !Files.exists(infx)) {
      throw new IllegalStateException("sim did not start");
    }
    return URI.create(url.trim());
  }
}
