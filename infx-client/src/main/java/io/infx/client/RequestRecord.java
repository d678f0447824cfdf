package io.infx.client;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Everything the client observed about one request: the per-request record the metrics are
 * computed from. All {@code *Nanos} values are {@link System#nanoTime()} readings of this JVM,
 * taken when the bytes arrived (on the I/O thread, before parsing).
 *
 * <p>Definitions (see {@code docs/decisions.md}, section Client):
 * <ul>
 *   <li><b>send</b>: taken immediately before the request is handed to the transport (the
 *       reference's {@code st});
 *   <li><b>intended</b>: when the load model wanted the request sent (its schedule slot for open
 *       loops, the moment a concurrency slot freed for closed loops);
 *   <li><b>first token</b>: the first chunk carrying a token — non-empty {@code text} /
 *       {@code delta.content}, reasoning ({@code reasoning_content} or {@code reasoning}) or a
 *       tool-call delta; role-only and empty chunks never count;
 *   <li><b>first choices chunk</b>: the reference's TTFT point (any chunk with non-empty
 *       {@code choices}, the role-only chat prelude included);
 *   <li><b>E2EL end</b>: as the reference defines it per API — the last chunk with choices for
 *       Completions, the last JSON chunk of any kind (usage included) for Chat.
 * </ul>
 */
public final class RequestRecord {

  /** Which part of a run a request belongs to. */
  public enum Phase { WARMUP, MEASURED }

  static final long NONE = Long.MIN_VALUE;

  private final int index;
  private final Phase phase;
  private final ServingBackend.Api api;
  private final long intendedNanos;
  private final long sendNanos;
  private final long headersNanos;
  private final long firstChoicesNanos;
  private final long firstContentNanos;
  private final long e2elEndNanos;
  private final long endNanos;
  private final long[] tokenChunkNanos;
  private final int[] tokenChunkCumTokens;
  private final int promptTokens;
  private final int usagePromptTokens;
  private final int outputTokens;
  private final TokenSource outputTokenSource;
  private final String generatedText;
  private final int status;
  private final boolean doneSeen;
  private final String requestId;
  private final RequestFailure failure;
  private final boolean cancelled;
  private final int resends;
  private final boolean connectionReused;
  private final long bodyStartNanos;
  private final long requestWrittenNanos;
  private final long firstByteNanos;
  private PerTokenItl.Attribution itlAttribution;
  // tokenizer counts still to make (after the run, off the I/O threads); null once resolved
  private java.util.function.Supplier<PerTokenItl.Attribution> pendingItl;

  RequestRecord(Builder b) {
    this.index = b.index;
    this.phase = b.phase;
    this.api = b.api;
    this.intendedNanos = b.intendedNanos;
    this.sendNanos = b.sendNanos;
    this.headersNanos = b.headersNanos;
    this.firstChoicesNanos = b.firstChoicesNanos;
    this.firstContentNanos = b.firstContentNanos;
    this.e2elEndNanos = b.e2elEndNanos;
    this.endNanos = b.endNanos;
    this.tokenChunkNanos = b.tokenChunkNanos;
    this.tokenChunkCumTokens = b.tokenChunkCumTokens;
    this.promptTokens = b.promptTokens;
    this.usagePromptTokens = b.usagePromptTokens;
    this.outputTokens = b.outputTokens;
    this.outputTokenSource = b.outputTokenSource;
    this.generatedText = b.generatedText == null ? "" : b.generatedText;
    this.status = b.status;
    this.doneSeen = b.doneSeen;
    this.requestId = b.requestId;
    this.failure = b.failure;
    this.cancelled = b.cancelled;
    this.resends = b.resends;
    this.connectionReused = b.connectionReused;
    this.bodyStartNanos = b.bodyStartNanos;
    this.requestWrittenNanos = b.requestWrittenNanos;
    this.firstByteNanos = b.firstByteNanos;
    if (b.itlAttribution != null && b.itlAttribution.tokensPerChunk() != null
        && b.itlAttribution.tokensPerChunk().length != tokenChunkNanos.length) {
      throw new IllegalArgumentException("token counts for " + b.itlAttribution.tokensPerChunk().length
          + " chunks but " + tokenChunkNanos.length + " token chunks");
    }
    this.itlAttribution = b.itlAttribution != null ? b.itlAttribution
        : PerTokenItl.attribute(tokenChunkNanos.length, tokenChunkCumTokens,
            outputTokenSource == TokenSource.USAGE ? outputTokens : -1, null, null);
    this.pendingItl = b.pendingItl;
  }

  /**
   * Makes the tokenizer counts this record still owes (the client defers them so the I/O threads
   * never tokenize); {@link ServeBenchmark} calls it once the measured phase is over.
   */
  synchronized void resolveItl() {
    if (pendingItl != null) {
      PerTokenItl.Attribution a = pendingItl.get();
      if (a.tokensPerChunk() != null && a.tokensPerChunk().length != tokenChunkNanos.length) {
        throw new IllegalStateException("token counts for " + a.tokensPerChunk().length
            + " chunks but " + tokenChunkNanos.length + " token chunks");
      }
      itlAttribution = a;
      pendingItl = null;
    }
  }

  private PerTokenItl.Attribution itl() {
    resolveItl();
    return itlAttribution;
  }

  /**
   * How this request's tokens were attributed to its token chunks for per-token ITL (see
   * {@link PerTokenItl}); {@link ItlPolicy#PER_CHUNK} for a request without token chunks. When
   * the counts need the client's tokenizer they are made after the measured phase (by
   * {@link ServeBenchmark}), or on first use for a record from {@link StreamingClient} — so its
   * {@code fallbackTokenizer} must still be open then.
   */
  public ItlPolicy itlPolicy() {
    return itl().policy();
  }

  /**
   * Tokens carried by each token chunk (length {@link #tokenChunks()}), by {@link #itlPolicy()};
   * empty under {@link ItlPolicy#PER_CHUNK}.
   */
  public Optional<int[]> tokensPerChunk() {
    int[] k = itl().tokensPerChunk();
    return k == null ? Optional.empty() : Optional.of(k.clone());
  }

  /**
   * Appends this request's per-token ITL entries (seconds) to {@code out}: see
   * {@link PerTokenItl#entries}.
   */
  public void perTokenItl(java.util.function.DoubleConsumer out) {
    PerTokenItl.entries(tokenChunkNanos, itl().tokensPerChunk(), out);
  }

  /**
   * How many times the request was sent again because it provably never left (the connection
   * closed before the request was handed to it); {@link #sendNanos()} is the last send.
   */
  public int resends() {
    return resends;
  }

  /** True when the response came over a kept-alive connection that had served an earlier request. */
  public boolean connectionReused() {
    return connectionReused;
  }

  /**
   * When the connection (acquired from the pool or newly connected, request head committed) first
   * asked for the request body, {@link System#nanoTime()} ns.
   */
  public OptionalLong connectionReadyNanos() {
    return opt(bodyStartNanos);
  }

  /** When the whole request body had been handed to the socket, {@link System#nanoTime()} ns. */
  public OptionalLong requestWrittenNanos() {
    return opt(requestWrittenNanos);
  }

  /** When the first byte of the response body arrived, {@link System#nanoTime()} ns. */
  public OptionalLong firstByteNanos() {
    return opt(firstByteNanos);
  }

  /** Position of the request in its phase (prompt order). */
  public int index() {
    return index;
  }

  /** Warm-up or measured. */
  public Phase phase() {
    return phase;
  }

  /** The API the request used (Completions or Chat), which fixes the E2EL end point. */
  public ServingBackend.Api api() {
    return api;
  }

  /** True when the request succeeded: HTTP 200, at least one token, no stream or decode error. */
  public boolean success() {
    return failure == null && !cancelled;
  }

  /** True when the run cancelled the request before it finished (not a failure). */
  public boolean cancelled() {
    return cancelled;
  }

  /** The failure, when the request failed (never present for successes or cancellations). */
  public Optional<RequestFailure> failure() {
    return Optional.ofNullable(failure);
  }

  /** When the load model wanted the request sent ({@link System#nanoTime()} ns). */
  public long intendedNanos() {
    return intendedNanos;
  }

  /** When the request went to the transport, {@link System#nanoTime()} ns (reference's {@code st}). */
  public long sendNanos() {
    return sendNanos;
  }

  /** When the response head arrived (first byte), {@link System#nanoTime()} ns. */
  public OptionalLong headersNanos() {
    return opt(headersNanos);
  }

  /** The reference's TTFT point: the first chunk with non-empty {@code choices}. */
  public OptionalLong firstChoicesNanos() {
    return opt(firstChoicesNanos);
  }

  /** The first chunk carrying a token (content, reasoning or tool call): infx's TTFT point. */
  public OptionalLong firstTokenNanos() {
    return tokenChunkNanos.length == 0 ? OptionalLong.empty() : OptionalLong.of(tokenChunkNanos[0]);
  }

  /** The first chunk with non-empty {@code content}/{@code text} (reasoning excluded). */
  public OptionalLong firstContentNanos() {
    return opt(firstContentNanos);
  }

  /** The end of E2EL as the reference defines it for this API (see the class comment). */
  public OptionalLong e2elEndNanos() {
    return opt(e2elEndNanos);
  }

  /** When the request finished (stream end, failure or cancellation). */
  public long endNanos() {
    return endNanos;
  }

  /** Number of token-carrying chunks. */
  public int tokenChunks() {
    return tokenChunkNanos.length;
  }

  /**
   * Arrival time ({@link System#nanoTime()} ns) of the {@code i}-th token-carrying chunk.
   *
   * @throws ArrayIndexOutOfBoundsException unless {@code 0 <= i < tokenChunks()}
   */
  public long tokenChunkNanos(int i) {
    return tokenChunkNanos[i];
  }

  /** A copy of the token-carrying chunks' arrival times. */
  public long[] tokenChunkTimes() {
    return tokenChunkNanos.clone();
  }

  /**
   * Cumulative {@code completion_tokens} reported on each token chunk, when the server sent
   * continuous usage stats on every token chunk; empty otherwise.
   */
  public Optional<int[]> tokenChunkCumulativeTokens() {
    return tokenChunkCumTokens == null ? Optional.empty() : Optional.of(tokenChunkCumTokens.clone());
  }

  /** Client-side prompt length in tokens (the reference's {@code prompt_len}). */
  public int promptTokens() {
    return promptTokens;
  }

  /** {@code usage.prompt_tokens} as the server reported it. */
  public OptionalInt usagePromptTokens() {
    return usagePromptTokens < 0 ? OptionalInt.empty() : OptionalInt.of(usagePromptTokens);
  }

  /** Output tokens of a successful request (0 for failures); see {@link #outputTokenSource()}. */
  public int outputTokens() {
    return outputTokens;
  }

  /** Where {@link #outputTokens()} came from (usage, tokenizer or chunk count; NONE on failure). */
  public TokenSource outputTokenSource() {
    return outputTokenSource;
  }

  /** The generated text ({@code text} or {@code delta.content}), when the client kept it. */
  public String generatedText() {
    return generatedText;
  }

  /** HTTP status, 0 when no response head arrived. */
  public int status() {
    return status;
  }

  /** Whether {@code data: [DONE]} was received. */
  public boolean doneSeen() {
    return doneSeen;
  }

  /** The server's {@code x-request-id} response header, when it sent one. */
  public Optional<String> requestId() {
    return Optional.ofNullable(requestId);
  }

  /** TTFT in seconds (first token − send), or NaN when no token arrived. */
  public double ttftSeconds() {
    return tokenChunkNanos.length == 0 ? Double.NaN : (tokenChunkNanos[0] - sendNanos) / 1e9;
  }

  /** E2EL in seconds (reference end point − send), or NaN when absent. */
  public double e2elSeconds() {
    return e2elEndNanos == NONE ? Double.NaN : (e2elEndNanos - sendNanos) / 1e9;
  }

  /** Time from the intended send time to the first token, in seconds, or NaN. */
  public double ttftFromIntendedSeconds() {
    return tokenChunkNanos.length == 0 ? Double.NaN : (tokenChunkNanos[0] - intendedNanos) / 1e9;
  }

  /**
   * Lateness: actual − intended send time, in seconds, not clamped (≥ 0 up to clock reads);
   * unlike {@link ServeMetrics#lateness()} it includes any wait for a concurrency slot.
   */
  public double latenessSeconds() {
    return (sendNanos - intendedNanos) / 1e9;
  }

  @Override
  public String toString() {
    return "RequestRecord{" + phase + "#" + index + (success() ? " ok" : cancelled ? " cancelled"
        : " failed " + failure) + ", tokens=" + outputTokens + ", chunks=" + tokenChunkNanos.length
        + ", ttft=" + ttftSeconds() + "s, e2el=" + e2elSeconds() + "s}";
  }

  private static OptionalLong opt(long v) {
    return v == NONE ? OptionalLong.empty() : OptionalLong.of(v);
  }

  /** Assembles a record; used by the engine and by tests that need synthetic records. */
  public static final class Builder {
    int index;
    Phase phase = Phase.MEASURED;
    ServingBackend.Api api = ServingBackend.Api.COMPLETIONS;
    long intendedNanos;
    long sendNanos;
    long headersNanos = NONE;
    long firstChoicesNanos = NONE;
    long firstContentNanos = NONE;
    long e2elEndNanos = NONE;
    long endNanos;
    long[] tokenChunkNanos = new long[0];
    int[] tokenChunkCumTokens;
    int promptTokens;
    int usagePromptTokens = -1;
    int outputTokens;
    TokenSource outputTokenSource = TokenSource.NONE;
    String generatedText;
    int status;
    boolean doneSeen;
    String requestId;
    RequestFailure failure;
    boolean cancelled;
    int resends;
    boolean connectionReused;
    long bodyStartNanos = NONE;
    long requestWrittenNanos = NONE;
    long firstByteNanos = NONE;
    PerTokenItl.Attribution itlAttribution;
    java.util.function.Supplier<PerTokenItl.Attribution> pendingItl;

    /** An attribution to compute later, off the I/O thread (see {@link #resolveItl()}). */
    Builder pendingItlAttribution(java.util.function.Supplier<PerTokenItl.Attribution> v) {
      pendingItl = v;
      return this;
    }

    /**
     * How the tokens were attributed to the token chunks; by default derived from the continuous
     * usage and the usage total alone (no tokenizer).
     */
    public Builder itlAttribution(PerTokenItl.Attribution v) {
      itlAttribution = v;
      return this;
    }

    public Builder resends(int v) {
      resends = v;
      return this;
    }

    public Builder connectionReused(boolean v) {
      connectionReused = v;
      return this;
    }

    /** Wire timestamps (ns, {@link Long#MIN_VALUE} when not seen): body asked for, body written, first body byte. */
    public Builder wire(long bodyStart, long requestWritten, long firstByte) {
      bodyStartNanos = bodyStart;
      requestWrittenNanos = requestWritten;
      firstByteNanos = firstByte;
      return this;
    }

    public Builder index(int v) {
      index = v;
      return this;
    }

    public Builder phase(Phase v) {
      phase = Objects.requireNonNull(v);
      return this;
    }

    public Builder api(ServingBackend.Api v) {
      api = Objects.requireNonNull(v);
      return this;
    }

    public Builder intendedNanos(long v) {
      intendedNanos = v;
      return this;
    }

    public Builder sendNanos(long v) {
      sendNanos = v;
      return this;
    }

    public Builder headersNanos(long v) {
      headersNanos = v;
      return this;
    }

    public Builder firstChoicesNanos(long v) {
      firstChoicesNanos = v;
      return this;
    }

    public Builder firstContentNanos(long v) {
      firstContentNanos = v;
      return this;
    }

    public Builder e2elEndNanos(long v) {
      e2elEndNanos = v;
      return this;
    }

    public Builder endNanos(long v) {
      endNanos = v;
      return this;
    }

    public Builder tokenChunkNanos(long... v) {
      tokenChunkNanos = v.clone();
      return this;
    }

    Builder tokenChunkNanosNoCopy(long[] v) {
      tokenChunkNanos = v;
      return this;
    }

    Builder tokenChunkCumTokens(int[] v) {
      tokenChunkCumTokens = v;
      return this;
    }

    public Builder promptTokens(int v) {
      promptTokens = v;
      return this;
    }

    public Builder usagePromptTokens(int v) {
      usagePromptTokens = v;
      return this;
    }

    public Builder outputTokens(int v, TokenSource source) {
      outputTokens = v;
      outputTokenSource = Objects.requireNonNull(source);
      return this;
    }

    public Builder generatedText(String v) {
      generatedText = v;
      return this;
    }

    public Builder status(int v) {
      status = v;
      return this;
    }

    public Builder doneSeen(boolean v) {
      doneSeen = v;
      return this;
    }

    public Builder requestId(String v) {
      requestId = v;
      return this;
    }

    public Builder failure(RequestFailure v) {
      failure = v;
      return this;
    }

    public Builder cancelled(boolean v) {
      cancelled = v;
      return this;
    }

    public RequestRecord build() {
      return new RequestRecord(this);
    }
  }

  /** A builder with phase MEASURED, API Completions, no optional timestamps and no tokens. */
  public static Builder builder() {
    return new Builder();
  }

  /** Equality of two records' observable timelines (for tests). */
  boolean sameTimeline(RequestRecord o) {
    return Arrays.equals(tokenChunkNanos, o.tokenChunkNanos) && sendNanos == o.sendNanos;
  }
}
