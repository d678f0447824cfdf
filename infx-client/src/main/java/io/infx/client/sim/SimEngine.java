package io.infx.client.sim;

import io.infx.client.tokenizer.BuiltinTokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The simulated engine: one thread running continuous-batching steps on the real clock. All
 * scheduling state (queues, prefix cache) is confined to this thread; the I/O threads only submit
 * sequences and write the chunks the engine queues.
 */
final class SimEngine implements Runnable {

  /** One sequence (request) inside the engine. */
  static final class Seq {
    final SimHandler handler;
    final boolean chat;
    final String id;
    final String model;
    final long created;
    final int[] promptIds;
    final int promptTokens;
    final int maxTokens;
    final boolean includeUsage;
    final boolean continuousUsage;
    final Faults.Kind fault;
    final long textSeed;
    int cached;
    int generated;
    int pendingTokens;
    StringBuilder pendingText = new StringBuilder(16);
    int chunksSent;
    boolean admitted;
    long stallUntil;
    boolean roleSent;

    Seq(SimHandler handler, boolean chat, String id, String model, long created, int[] promptIds,
        int maxTokens, boolean includeUsage, boolean continuousUsage, Faults.Kind fault,
        long textSeed) {
      this.handler = handler;
      this.chat = chat;
      this.id = id;
      this.model = model;
      this.created = created;
      this.promptIds = promptIds;
      this.promptTokens = promptIds.length;
      this.maxTokens = maxTokens;
      this.includeUsage = includeUsage;
      this.continuousUsage = continuousUsage;
      this.fault = fault;
      this.textSeed = textSeed;
    }
  }

  private final SimConfig config;
  private final ConcurrentLinkedQueue<Seq> incoming = new ConcurrentLinkedQueue<>();
  private final ArrayDeque<Seq> waiting = new ArrayDeque<>();
  private final List<Seq> running = new ArrayList<>();
  private final LinkedHashMap<Long, Boolean> cache;
  private final long baseNanos;
  private final long perSeqNanos;
  private final int maxRunning;
  private final double prefillPerSecond;
  private volatile Thread thread;
  private volatile boolean stopped;

  volatile int runningCount;
  volatile int waitingCount;
  final AtomicLong promptTokens = new AtomicLong();
  final AtomicLong generationTokens = new AtomicLong();
  final AtomicLong cacheQueries = new AtomicLong();
  final AtomicLong cacheHits = new AtomicLong();

  SimEngine(SimConfig config) {
    this.config = config;
    SimParallelism par = config.parallelism();
    this.baseNanos = Math.round(config.decodeStepBase().toNanos() * par.fixedStepFactor());
    this.perSeqNanos = Math.round(config.decodeStepPerSeq().toNanos() * par.perSeqFactor());
    this.maxRunning = (int) Math.min(Integer.MAX_VALUE, (long) config.maxNumSeqs() * par.capacityFactor());
    this.prefillPerSecond = config.prefillTokensPerSecond() / par.fixedStepFactor();
    int cap = config.prefixCacheBlocks();
    this.cache = new LinkedHashMap<>(Math.min(cap, 1 << 16), 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
        return size() > cap;
      }
    };
  }

  void start() {
    Thread t = new Thread(this, "infx-sim-engine");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  void stop() {
    stopped = true;
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
      try {
        t.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  void submit(Seq s) {
    incoming.add(s);
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  @Override
  public void run() {
    long stepStart = System.nanoTime();
    while (!stopped) {
      Seq in;
      while ((in = incoming.poll()) != null) {
        waiting.add(in);
      }
      waiting.removeIf(s -> s.handler.aborted());
      running.removeIf(s -> s.handler.aborted());
      if (running.isEmpty() && waiting.isEmpty()) {
        runningCount = 0;
        waitingCount = 0;
        LockSupport.parkNanos(50_000_000L);
        stepStart = System.nanoTime();
        continue;
      }
      long prefill = 0;
      while (running.size() < maxRunning && !waiting.isEmpty()) {
        Seq s = waiting.poll();
        admit(s);
        running.add(s);
        prefill += s.promptTokens - s.cached;
      }
      runningCount = running.size();
      waitingCount = waiting.size();
      long step = (long) (config.slowdown() * (baseNanos + perSeqNanos * running.size()
          + prefill * 1e9 / prefillPerSecond));
      long target = stepStart + step;
      long now;
      while ((now = System.nanoTime()) < target && !stopped) {
        LockSupport.parkNanos(target - now);
      }
      emit(now);
      stepStart = now;
    }
    for (Seq s : running) {
      s.handler.enqueue(new SimHandler.Out(new byte[0], 0, false, true));
    }
  }

  private void admit(Seq s) {
    s.admitted = true;
    promptTokens.addAndGet(s.promptTokens);
    if (!config.prefixCaching()) {
      return;
    }
    int bs = config.blockSize();
    int blocks = s.promptTokens / bs;
    long h = 1469598103934665603L;
    int hit = 0;
    boolean missing = false;
    for (int b = 0; b < blocks; b++) {
      for (int k = b * bs; k < (b + 1) * bs; k++) {
        h = (h ^ s.promptIds[k]) * 1099511628211L;
      }
      h = Long.rotateLeft(h, 17) ^ b;
      if (!missing && cache.get(h) != null) {
        hit++;
      } else {
        missing = true;
        cache.put(h, Boolean.TRUE);
      }
    }
    // like vLLM, the last prompt token is always computed
    s.cached = Math.min(hit * bs, Math.max(0, s.promptTokens - 1));
    s.handler.cachedTokens = s.cached;
    cacheQueries.addAndGet(s.promptTokens);
    cacheHits.addAndGet(s.cached);
  }

  private void emit(long now) {
    int interval = config.streamInterval();
    Iterator<Seq> it = running.iterator();
    while (it.hasNext()) {
      Seq s = it.next();
      if (s.handler.aborted()) {
        it.remove();
        continue;
      }
      if (s.stallUntil != 0) {
        if (now < s.stallUntil) {
          continue;
        }
        s.stallUntil = 0;
      }
      if (s.fault == Faults.Kind.IN_STREAM_ERROR) {
        s.handler.enqueue(new SimHandler.Out(ChunkWriter.inStreamError(
            "simulated engine error"), 0, false, false));
        s.handler.enqueue(new SimHandler.Out(ChunkWriter.DONE, 0, true, false));
        it.remove();
        continue;
      }
      s.generated++;
      s.pendingTokens++;
      generationTokens.incrementAndGet();
      s.pendingText.append(BuiltinTokenizer.tokenText((int) tokenId(s, s.generated)));
      boolean last = s.generated >= s.maxTokens;
      if (s.pendingTokens >= interval || last) {
        if (flush(s, last, now)) {
          it.remove();
          continue;
        }
      }
      if (last) {
        finish(s);
        it.remove();
      }
    }
    runningCount = running.size();
  }

  /** Sends the pending tokens; returns true when the sequence ended (fault). */
  private boolean flush(Seq s, boolean last, long now) {
    Faults f = config.faults();
    if (s.fault != null && s.chunksSent == f.faultAfterChunks()) {
      switch (s.fault) {
        case RESET_MID_STREAM -> {
          s.handler.enqueue(new SimHandler.Out(new byte[0], 0, false, true));
          return true;
        }
        case MALFORMED_CHUNK -> s.handler.enqueue(new SimHandler.Out(
            "data: {\"choices\": [{\"index\": 0, \"text\": \"broken\"\n\n"
                .getBytes(StandardCharsets.UTF_8), 0, false, false));
        case STALL -> {
          if (s.stallUntil == 0) {
            s.stallUntil = now + f.stall().toNanos();
          }
        }
        default -> { }
      }
    }
    if (s.chat && !s.roleSent) {
      s.roleSent = true;
      s.handler.enqueue(new SimHandler.Out(ChunkWriter.chatRole(s), 0, false, false));
    }
    int usageTokens = s.continuousUsage ? s.generated : -1;
    byte[] chunk = s.chat
        ? ChunkWriter.chatContent(s, s.pendingText, usageTokens)
        : ChunkWriter.completionText(s, s.pendingText, last, usageTokens);
    s.handler.enqueue(new SimHandler.Out(chunk, s.pendingTokens, false, false));
    s.chunksSent++;
    s.pendingTokens = 0;
    s.pendingText.setLength(0);
    return false;
  }

  private void finish(Seq s) {
    s.handler.completionTokens = s.generated;
    if (s.chat) {
      s.handler.enqueue(new SimHandler.Out(ChunkWriter.chatFinish(s,
          s.continuousUsage ? s.generated : -1), 0, false, false));
    }
    if (s.includeUsage) {
      s.handler.enqueue(new SimHandler.Out(ChunkWriter.usage(s), 0, false, false));
    }
    s.handler.enqueue(new SimHandler.Out(ChunkWriter.DONE, 0, true, false));
  }

  private long tokenId(Seq s, int n) {
    long z = s.textSeed + n * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return Math.floorMod(z, BuiltinTokenizer.VOCAB_SIZE);
  }
}
