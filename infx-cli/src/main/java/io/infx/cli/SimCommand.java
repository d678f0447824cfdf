package io.infx.cli;

import io.infx.client.sim.Faults;
import io.infx.client.sim.ImmutableFaults;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.UsageException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx sim}: the embedded simulated OpenAI-compatible server, standalone. */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Serve a simulated OpenAI-compatible model (vLLM-shaped SSE, continuous batching, prefix "
            + "cache, fault injection) until interrupted. Prints the base URL on stdout.",
        "Endpoints: POST /v1/completions, /v1/chat/completions, /tokenize; GET /v1/models, "
            + "/health, /metrics, /infx/timeline/<x-request-id>."
    })
public final class SimCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).") String host;

  @Option(names = "--port", defaultValue = "8000", description = "0 picks a free port (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--model", defaultValue = "infx-sim", description = "Model name served in /v1/models and the responses (default: ${DEFAULT-VALUE}).") String model;

  @Option(names = "--max-num-seqs", defaultValue = "256", description = "Sequences decoded together; more wait in the queue (default: ${DEFAULT-VALUE}).") int maxNumSeqs;

  @Option(names = "--max-model-len", defaultValue = "131072", description = "Longest prompt + output in tokens; longer requests get a 400 (default: ${DEFAULT-VALUE}).") int maxModelLen;

  @Option(names = "--prefill-tokens-per-second", defaultValue = "50000", description = "Prefill speed for uncached prompt tokens (default: ${DEFAULT-VALUE}).") double prefill;

  @Option(names = "--decode-step-ms", defaultValue = "2.0", description = "Fixed part of a decode step.")
  double decodeStepMs;

  @Option(names = "--decode-step-per-seq-us", defaultValue = "20", description = "Extra step time per running sequence.")
  double perSeqUs;

  @Option(names = "--slowdown", defaultValue = "1.0", paramLabel = "F",
      description = "Make every engine step (decode and prefill) F times slower, e.g. 1.25 for an injected 25%% regression (default: ${DEFAULT-VALUE}).")
  double slowdown;

  @Option(names = "--stream-interval", defaultValue = "1", description = "Tokens per streamed chunk, as vLLM's --stream-interval (default: ${DEFAULT-VALUE}).") int streamInterval;

  @Option(names = "--block-size", defaultValue = "16", description = "Prefix-cache block size in tokens.")
  int blockSize;

  @Option(names = "--prefix-cache-blocks", defaultValue = "65536", description = "Prefix-cache capacity in blocks (default: ${DEFAULT-VALUE}).") int cacheBlocks;

  @Option(names = "--no-prefix-caching", description = "Disable the prefix cache.") boolean noPrefixCaching;

  @Option(names = "--seed", defaultValue = "0", description = "Seed of generated text and faults (default: ${DEFAULT-VALUE}).") long seed;

  @Option(names = "--io-threads", defaultValue = "1", description = "HTTP I/O threads (default: ${DEFAULT-VALUE}).") int ioThreads;

  @Option(names = "--fault-rate", defaultValue = "0", description = "Probability that a request is faulty.")
  double faultRate;

  @Option(names = "--fault", arity = "1..*", description = "Fault kinds with optional weights: http_400, http_500, reset_mid_stream, stall, delayed_headers, malformed_chunk, in_stream_error (e.g. http_500=2).")
  List<String> faults = new ArrayList<>();

  @Option(names = "--timeline-capacity", defaultValue = "10000", description = "Per-request timelines kept for GET /infx/timeline/<id> (default: ${DEFAULT-VALUE}).") int timelineCapacity;

  @Option(names = "--tp", defaultValue = "1", description = "Tensor-parallel size the simulated server models: faster steps, more capacity, less per-GPU efficiency (docs/simulator.md; default: ${DEFAULT-VALUE}).")
  int tp;

  @Option(names = "--ep", defaultValue = "1", description = "Expert-parallel size, 1..TP (default: ${DEFAULT-VALUE}).")
  int ep;

  @Option(names = "--dp-attention", description = "Model data-parallel attention.")
  boolean dpAttention;

  @Option(names = "--http2", description = "Serve HTTP/2 over cleartext (prior knowledge) instead of HTTP/1.1.")
  boolean http2;

  @Option(names = "--for", description = "Stop after this long (e.g. 30s); default: until interrupted.")
  String runFor;

  @Override
  public Integer call() throws Exception {
    ImmutableFaults.Builder fb = Faults.builder().rate(faultRate);
    for (String f : faults) {
      String[] kv = f.split("=", 2);
      Faults.Kind k;
      try {
        k = Faults.Kind.valueOf(kv[0].toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new UsageException("--fault: unknown kind '" + kv[0] + "'");
      }
      fb.putWeights(k, kv.length > 1 ? Double.parseDouble(kv[1]) : 1.0);
    }
    if (faultRate > 0 && faults.isEmpty()) {
      throw new UsageException("--fault-rate needs at least one --fault KIND");
    }
    SimConfig cfg;
    try {
      cfg = SimConfig.builder().host(host).port(port).model(model).maxNumSeqs(maxNumSeqs)
          .maxModelLen(maxModelLen).prefillTokensPerSecond(prefill)
          .decodeStepBase(Duration.ofNanos((long) (decodeStepMs * 1e6)))
          .decodeStepPerSeq(Duration.ofNanos((long) (perSeqUs * 1e3))).slowdown(slowdown)
          .streamInterval(streamInterval).blockSize(blockSize).prefixCacheBlocks(cacheBlocks)
          .prefixCaching(!noPrefixCaching).seed(seed).ioThreads(ioThreads)
          .timelineCapacity(timelineCapacity).http2(http2).faults(fb.build())
          .parallelism(new io.infx.client.sim.SimParallelism(tp, ep, dpAttention)).build();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Duration limit = runFor == null ? null : BenchServeCommand.duration("--for", runFor);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch stop = new CountDownLatch(1);
    try (SimServer sim = SimServer.start(cfg)) {
      Thread hook = new Thread(stop::countDown, "infx-sim-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      out.println(sim.baseUri());
      out.flush();
      err.println("infx sim: serving '" + model + "' on " + sim.baseUri()
          + (limit == null ? " (Ctrl-C to stop)" : " for " + limit));
      err.flush();
      if (limit == null) {
        stop.await();
      } else {
        stop.await(limit.toMillis(), TimeUnit.MILLISECONDS);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // shutting down
      }
    }
    return 0;
  }
}
