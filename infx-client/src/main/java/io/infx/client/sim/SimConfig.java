package io.infx.client.sim;

import io.infx.core.InfxStyle;
import java.time.Duration;
import org.immutables.value.Value;

/**
 * The simulated server's model: a vLLM-like engine with continuous batching. Each engine step
 * takes {@code decodeStepBase + decodeStepPerSeq × running + newPrefillTokens / prefillTokensPerSecond}
 * and gives every running sequence one token; at most {@link #maxNumSeqs()} sequences run, the
 * rest queue (FIFO). Prompt tokens found in the prefix cache (whole {@link #blockSize()}-token
 * blocks, chained hashes, LRU) are not prefilled again. Output is streamed every
 * {@link #streamInterval()} tokens. {@link #parallelism()} (TP/EP/DP-attention) scales the step
 * costs, prefill speed and capacity by the model of {@link SimParallelism}. Defaults keep an 8k/1k request at concurrency 2 around 2 s.
 * A {@link #slowdown()} factor stretches every step (decode and prefill alike), which is how a
 * regression gate is tested against a known, injected regression.
 */
@Value.Immutable
@InfxStyle
public abstract class SimConfig {

  /** Served model id ({@code /v1/models}); requests may name any model. Default {@code infx-sim}. */
  @Value.Default
  public String model() {
    return "infx-sim";
  }

  /** Bind address. Default {@code 127.0.0.1}. */
  @Value.Default
  public String host() {
    return "127.0.0.1";
  }

  /** Port; 0 (default) picks a free ephemeral port. */
  @Value.Default
  public int port() {
    return 0;
  }

  /** I/O reactor threads. Default 1. */
  @Value.Default
  public int ioThreads() {
    return 1;
  }

  /**
   * Serve HTTP/2 over cleartext (prior knowledge) only, instead of HTTP/1.1. Default false.
   */
  @Value.Default
  public boolean http2() {
    return false;
  }

  /** Longest prompt + max_tokens accepted, in tokens; longer get vLLM's 400. Default 131072. */
  @Value.Default
  public int maxModelLen() {
    return 131072;
  }

  /** Most sequences decoding at once (vLLM {@code --max-num-seqs}). Default 256. */
  @Value.Default
  public int maxNumSeqs() {
    return 256;
  }

  /** Prefill speed for prompt tokens not in the prefix cache, in tok/s. Default 50,000. */
  @Value.Default
  public double prefillTokensPerSecond() {
    return 50_000;
  }

  /** Fixed part of one decode step. Default 2 ms. */
  @Value.Default
  public Duration decodeStepBase() {
    return Duration.ofMillis(2);
  }

  /** Extra step time per running sequence (× running sequences). Default 20 µs. */
  @Value.Default
  public Duration decodeStepPerSeq() {
    return Duration.ofNanos(20_000);
  }

  /** Tokens per streamed chunk (SGLang/vLLM {@code --stream-interval}). Default 1. */
  @Value.Default
  public int streamInterval() {
    return 1;
  }

  /** Enables the prefix cache. Default true. */
  @Value.Default
  public boolean prefixCaching() {
    return true;
  }

  /** Prefix-cache block size in tokens. Default 16 (vLLM's default). */
  @Value.Default
  public int blockSize() {
    return 16;
  }

  /** Prefix-cache capacity in blocks (LRU). Default 65,536 (1 M tokens at 16). */
  @Value.Default
  public int prefixCacheBlocks() {
    return 65_536;
  }

  /**
   * TP / EP / DP-attention of the simulated server; scales decode-step cost, prefill speed and
   * batch capacity ({@link SimParallelism}). Default TP1 (no scaling).
   */
  @Value.Default
  public SimParallelism parallelism() {
    return SimParallelism.single();
  }

  /** Seed of generated text and fault draws. Default 0. */
  @Value.Default
  public long seed() {
    return 0;
  }

  /** Injected faults. Default none. */
  @Value.Default
  public Faults faults() {
    return Faults.none();
  }

  /**
   * Makes every engine step — the decode part and the prefill part — this many times slower
   * ({@code infx sim --slowdown F}, {@code infx run --sim-option slowdown=F}): 1.25 stretches TPOT
   * and prefill time by 25% and cuts throughput at a fixed concurrency accordingly. Must be
   * finite and &gt; 0; default 1 (no change).
   */
  @Value.Default
  public double slowdown() {
    return 1.0;
  }

  /** How many finished requests keep their true timeline for {@code /infx/timeline}. Default 10,000. */
  @Value.Default
  public int timelineCapacity() {
    return 10_000;
  }

  @Value.Check
  protected void check() {
    if (maxNumSeqs() < 1 || streamInterval() < 1 || blockSize() < 1 || maxModelLen() < 1
        || ioThreads() < 1 || prefillTokensPerSecond() <= 0
        || !(slowdown() > 0) || Double.isInfinite(slowdown()) || port() < 0 || port() > 65535
        || prefixCacheBlocks() < 0 || timelineCapacity() < 0
        || decodeStepBase().isNegative() || decodeStepPerSeq().isNegative()) {
      throw new IllegalArgumentException("invalid simulator configuration: " + this);
    }
  }

  /**
   * A builder; {@code build()} throws {@link IllegalArgumentException} when a count, the port, the
   * prefill speed, the slowdown or a decode-step duration is out of range (negative, or zero where a count must
   * be positive).
   */
  public static ImmutableSimConfig.Builder builder() {
    return ImmutableSimConfig.builder();
  }

  /** The default configuration (every default above). */
  public static SimConfig defaults() {
    return builder().build();
  }
}
