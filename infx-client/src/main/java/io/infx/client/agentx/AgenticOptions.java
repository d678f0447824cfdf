package io.infx.client.agentx;

import io.infx.client.Deadlines;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.InfxStyle;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Settings of one AgentX replay (spec {@code agentx.md} §1). Defaults are InferenceX's: 3600 s
 * profiling, 10 one-token warmup requests per lane, seed 42, start points in [0.25, 0.75] of each
 * trace, 300 s per-tree and 10 s whole-system idle caps, 30 s drain, 0.10 live error threshold.
 *
 * <pre>{@code
 * AgenticOptions o = AgenticOptions.builder()
 *     .baseUri(URI.create("http://localhost:8888")).model("org/model").users(64)
 *     .build();
 * }</pre>
 */
@Value.Immutable
@InfxStyle
public abstract class AgenticOptions {

  /** Minimum profiling duration of a valid submission (shorter runs are stamped invalid). */
  public static final Duration MIN_VALID_DURATION = Duration.ofSeconds(900);

  /** How session-affinity headers are sent, besides {@code X-Request-ID}/{@code X-Correlation-ID}. */
  public enum Affinity {
    /** No affinity header. */
    NONE,
    /** {@code X-Session-ID: <correlation id>}. */
    SESSION,
    /** {@code X-Dynamo-Session-ID} (+ {@code X-Dynamo-Parent-Session-ID} on children). */
    DYNAMO,
    /** {@code X-SMG-Routing-Key: <correlation id>}. */
    SMG
  }

  /** Server base URL, e.g. {@code http://localhost:8888}; {@code /v1/chat/completions} is appended. */
  public abstract URI baseUri();

  /** Model name sent on the wire (every recorded model is rewritten to it). */
  public abstract String model();

  /** Live session trees (the {@code conc} of the run), ≥ 1. */
  public abstract int users();

  /** Profiling window. Default 3600 s; below 900 s the run is stamped {@code submission_valid=false}. */
  @Value.Default
  public Duration duration() {
    return fast() ? Duration.ofSeconds(1200) : Duration.ofSeconds(3600);
  }

  /** One-token warmup requests per lane after the primers. Default 10 (1 in fast mode). */
  @Value.Default
  public int warmupRequestsPerLane() {
    return fast() ? 1 : 10;
  }

  /** Fast mode ({@code agentx-fast}): 1200 s, one warmup request per lane; diagnostic only. */
  @Value.Default
  public boolean fast() {
    return false;
  }

  /** Seed of start points, lane draws and synthesized text. Default 42. */
  @Value.Default
  public long seed() {
    return 42;
  }

  /** Lower bound of the start point t* as a fraction of a trace's span. Default 0.25. */
  @Value.Default
  public double startRatioMin() {
    return 0.25;
  }

  /** Upper bound of the start point t*. Default 0.75. */
  @Value.Default
  public double startRatioMax() {
    return 0.75;
  }

  /** A tree idle this long has its pending timers advanced. Default 300 s. */
  @Value.Default
  public Duration traceIdleGapCap() {
    return Duration.ofSeconds(300);
  }

  /** When nothing runs anywhere, the next dispatch is at most this far. Default 10 s. */
  @Value.Default
  public Duration systemIdleGapCap() {
    return Duration.ofSeconds(10);
  }

  /** Drain: how long in-flight requests may finish after the window. Default 30 s. */
  @Value.Default
  public Duration grace() {
    return Duration.ofSeconds(30);
  }

  /** Longest wait for in-flight warmup requests before profiling. Default 1800 s. */
  @Value.Default
  public Duration warmupGrace() {
    return Duration.ofSeconds(1800);
  }

  /**
   * Ends the run early when requested (SIGINT/SIGTERM in {@code infx bench agentic}): no new
   * turn is sent, in-flight requests get {@link #grace()}, the rest are cancelled, and the exports
   * are written as for a cancelled run.
   */
  @Value.Auxiliary
  public abstract java.util.Optional<io.infx.client.StopSignal> stop();

  /**
   * Receives a snapshot of the run about once a second (requests done, in flight, errors, time
   * left; see {@link AgenticProgress}), from the replay's thread. {@code infx bench agentic} draws
   * it with {@link AgenticProgress#onto(io.infx.client.ProgressBar)}. Default: none.
   */
  @Value.Auxiliary
  public abstract java.util.Optional<AgenticProgress.Listener> progress();

  /** Live error ratio above which the run is cancelled. Default 0.10. */
  @Value.Default
  public double failedRequestThreshold() {
    return 0.10;
  }

  /** Affinity headers. Default none. */
  @Value.Default
  public Affinity affinity() {
    return Affinity.NONE;
  }

  /** Extra body fields (the reference's {@code --extra-inputs}). */
  public abstract Map<String, Object> extraBody();

  /**
   * Run id mixed into the cache-bust markers. Default: random per run, so a repeated run never
   * finds its prompts warm; set it to make markers reproducible.
   */
  public abstract Optional<String> runId();

  /** Tokenizer for synthesized text. Default: the built-in one (exact token counts). */
  public abstract Optional<Tokenizer> tokenizer();

  /** Client deadlines (the defaults allow 30-minute prefills). */
  @Value.Default
  public Deadlines deadlines() {
    return Deadlines.defaults();
  }

  /** HTTP connection pool size. Default: 4 per user, at least 64. */
  @Value.Default
  public int maxConnections() {
    return Math.max(64, users() * 4);
  }

  /** Prometheus endpoints to scrape into {@code server_metrics_export.json}. */
  public abstract List<URI> serverMetricsUrls();

  @Value.Check
  protected void check() {
    if (users() < 1) {
      throw new IllegalArgumentException("users must be >= 1, got " + users());
    }
    if (duration().isNegative() || duration().isZero()) {
      throw new IllegalArgumentException("duration must be positive, got " + duration());
    }
    if (warmupRequestsPerLane() < 0) {
      throw new IllegalArgumentException("warmupRequestsPerLane must be >= 0");
    }
    if (!(startRatioMin() >= 0 && startRatioMin() <= startRatioMax() && startRatioMax() <= 1)) {
      throw new IllegalArgumentException("start ratios must satisfy 0 <= min <= max <= 1");
    }
    if (!(failedRequestThreshold() >= 0 && failedRequestThreshold() <= 1)) {
      throw new IllegalArgumentException("failedRequestThreshold must be in [0, 1]");
    }
  }

  public static ImmutableAgenticOptions.Builder builder() {
    return ImmutableAgenticOptions.builder();
  }
}
