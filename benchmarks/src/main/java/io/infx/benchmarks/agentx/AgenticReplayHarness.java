package io.infx.benchmarks.agentx;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.agentx.AgenticOptions;
import io.infx.client.agentx.AgenticReplay;
import io.infx.client.agentx.AgenticResult;
import io.infx.client.agentx.SyntheticCorpus;
import io.infx.client.agentx.WekaTrace;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load harness for the AgentX replayer (issue 6 performance targets): replays a synthetic corpus
 * of ≥ 100,000 requests with 256 lanes against {@code infx sim} running in a separate JVM, and
 * reports requests replayed, schedule lateness (p50/p99/max), heap use and the agreement between the
 * trace's theoretical prefix-cache hits and the simulator's.
 *
 * <pre>
 * mvn -q -B package -pl benchmarks -am -DskipTests
 * java -Xmx512m -cp benchmarks/target/benchmarks.jar io.infx.benchmarks.agentx.AgenticReplayHarness \
 *     [--users 256] [--duration 480] [--traces 4000] [--turns 25] [--decode-step-ms 25] [--out DIR]
 * </pre>
 *
 * Run it with the heap limit under test ({@code -Xmx512m}): the corpus's prompts add up to several
 * GB, so completing the run shows they are never all held. Note {@code uptime}'s load next to every
 * figure (the machine is shared).
 */
public final class AgenticReplayHarness {

  private AgenticReplayHarness() {}

  public static void main(String[] args) throws Exception {
    int users = 256;
    int duration = 480;
    int traces = 4000;
    int turns = 25;
    Path out = Path.of(System.getProperty("java.io.tmpdir"), "agx-harness");
    for (int i = 0; i < args.length; i += 2) {
      switch (args[i]) {
        case "--users" -> users = Integer.parseInt(args[i + 1]);
        case "--duration" -> duration = Integer.parseInt(args[i + 1]);
        case "--traces" -> traces = Integer.parseInt(args[i + 1]);
        case "--turns" -> turns = Integer.parseInt(args[i + 1]);
        case "--out" -> out = Path.of(args[i + 1]);
        case "--decode-step-ms" -> decodeStepMs = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    SyntheticCorpus spec = SyntheticCorpus.builder().traces(traces).turns(turns).seed(7).prefixBlocks(4)
        .growthBlocks(1).outputTokens(32).apiTime(0.2).thinkTime(0.3).subagentEvery(6).subagentTurns(2).build();
    List<WekaTrace> corpus = spec.generate();
    System.out.printf(Locale.ROOT, "corpus: %d traces, %d requests%n", traces, spec.requestCount());
    System.out.println("load before: " + load());

    Process sim = startSimulator();
    HeapSampler heap = new HeapSampler();
    heap.start();
    try {
      URI base = URI.create(readUrl(sim));
      long t0 = System.nanoTime();
      AgenticResult r = AgenticReplay.run(corpus, AgenticOptions.builder()
          .baseUri(base).model("infx-sim").users(users).duration(Duration.ofSeconds(duration))
          .warmupRequestsPerLane(1).runId("harness").grace(Duration.ofSeconds(30))
          .addServerMetricsUrls(base.resolve("/metrics")).build(), out.resolve("aiperf_artifacts"), "synthetic");
      double wall = (System.nanoTime() - t0) / 1e9;
      heap.stopSampling();
      JsonNode agg = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.aggregateJson());
      JsonNode late = agg.at("/metadata/replay/schedule_lateness_ms");
      JsonNode sm = new com.fasterxml.jackson.databind.ObjectMapper()
          .readTree(out.resolve("aiperf_artifacts/server_metrics_export.json").toFile());
      double hits = sm.at("/metrics/vllm:prefix_cache_hits/series/0/stats/total").asDouble();
      double queries = sm.at("/metrics/vllm:prefix_cache_queries/series/0/stats/total").asDouble();
      long lines;
      try (var s = Files.lines(out.resolve("aiperf_artifacts/profile_export.jsonl"))) {
        lines = s.count();
      }
      double inTokens = agg.at("/input_sequence_length/avg").asDouble() * agg.at("/input_sequence_length/count").asDouble();
      System.out.printf(Locale.ROOT, "users %d, window %d s, wall %.1f s%n", users, duration, wall);
      System.out.printf(Locale.ROOT, "requests: %d profiled ok, %d failed, %d cancelled, %d records in total%n",
          r.successfulRequests(), r.failedRequests(), agg.at("/cancelled_request_count/avg").asLong(), lines);
      System.out.printf(Locale.ROOT, "throughput: %.1f requests/s, prompt tokens sent %.3g (~%.0f MB of prompt text)%n",
          r.successfulRequests() / (double) duration, inTokens, inTokens * 6 / 1e6);
      System.out.printf(Locale.ROOT, "schedule lateness: p50 %.3f ms, p90 %.3f ms, p95 %.3f ms, p99 %.3f ms, p99.9 %.3f ms,"
          + " max %.3f ms over %d dispatches (%d prompts not ready at their due time)%n",
          late.get("p50").asDouble(), late.get("p90").asDouble(), late.get("p95").asDouble(),
          late.get("p99").asDouble(), late.get("p999").asDouble(), late.get("max").asDouble(),
          late.get("dispatches").asLong(), late.get("prompt_not_ready_at_due").asLong());
      long gcCount = 0;
      long gcMillis = 0;
      for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        gcCount += Math.max(0, gc.getCollectionCount());
        gcMillis += Math.max(0, gc.getCollectionTime());
      }
      System.out.printf(Locale.ROOT, "gc: %d collections, %d ms in total (%s)%n", gcCount, gcMillis,
          ManagementFactory.getRuntimeMXBean().getInputArguments());
      System.out.printf(Locale.ROOT, "heap: max used %.0f MB (sampled every 100 ms), max live after GC %.0f MB, -Xmx %.0f MB%n",
          heap.maxUsed / 1e6, heap.maxAfterGc() / 1e6, Runtime.getRuntime().maxMemory() / 1e6);
      System.out.printf(Locale.ROOT, "prefix cache: theoretical %.1f%%, simulator (window) %.1f%%%n",
          100 * r.theoreticalCacheHitRate(), queries == 0 ? 0 : 100 * hits / queries);
      var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      System.out.printf(Locale.ROOT, "client process CPU: %.1f s over %.1f s wall (%.0f%% of one core)%n",
          os.getProcessCpuTime() / 1e9, wall, 100 * os.getProcessCpuTime() / 1e9 / wall);
      System.out.println("load after: " + load());
    } finally {
      sim.destroy();
      sim.waitFor();
    }
  }

  /** Decode step of the simulator: 25 ms is 40 tokens/s per user, a realistic serving speed. */
  static int decodeStepMs = 25;

  private static Process startSimulator() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("java.class.path");
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx1g", "-cp", cp, "io.infx.cli.Main", "sim", "--port", "0",
        "--block-size", "64", "--prefill-tokens-per-second", "5000000", "--max-num-seqs", "2048",
        "--decode-step-ms", String.valueOf(decodeStepMs), "--decode-step-per-seq-us", "0",
        "--prefix-cache-blocks", "4000000", "--timeline-capacity", "0", "--io-threads", "1");
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    return pb.start();
  }

  private static String readUrl(Process sim) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(sim.getInputStream(), StandardCharsets.UTF_8));
    String line = r.readLine();
    if (line == null) {
      throw new IllegalStateException("the simulator did not start");
    }
    return line.strip();
  }

  private static String load() {
    try {
      return Files.readString(new File("/proc/loadavg").toPath()).strip();
    } catch (Exception e) {
      return "n/a";
    }
  }

  /** Samples heap use every 100 ms. */
  private static final class HeapSampler extends Thread {
    volatile boolean running = true;
    volatile long maxUsed;
    volatile long maxLive;
    final AtomicLong samples = new AtomicLong();

    HeapSampler() {
      setDaemon(true);
    }

    @Override
    public void run() {
      while (running) {
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        maxUsed = Math.max(maxUsed, used);
        long live = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
          if (p.getType() == MemoryType.HEAP && p.getCollectionUsage() != null) {
            live += p.getCollectionUsage().getUsed();
          }
        }
        maxLive = Math.max(maxLive, live);
        samples.incrementAndGet();
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    void stopSampling() {
      running = false;
    }

    /** Largest heap in use right after a collection (the live set plus what survived young GCs). */
    long maxAfterGc() {
      return maxLive;
    }
  }
}
