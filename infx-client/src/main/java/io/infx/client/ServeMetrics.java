package io.infx.client;

import io.infx.client.metrics.LatencyStats;
import io.infx.client.metrics.SampleStats;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The statistics of one serve run, with the reference's field set (client spec §5) and infx's
 * extra views. TTFT, ITL and TPOT are measured from the first token-carrying chunk
 * (docs/decisions.md › Client); the reference's first-chunk-with-choices TTFT is
 * {@link #ttftFirstChoices()}.
 *
 * <p><b>Units.</b> A number carries its unit in its name ({@code durationSeconds()},
 * {@code ttftsSeconds()}, {@code ttft().percentileMillis(99)}); a {@link java.time.Duration}
 * ({@code ttft().percentile(99)}) needs none; throughputs are per second (req/s, tok/s) as in the
 * reference's field names. Every latency distribution is a {@link LatencyStats}, whose
 * {@code *Millis} values equal the raw file's {@code *_ms} fields exactly.
 *
 * <p><b>Empty.</b> A distribution without samples is {@link LatencyStats#isEmpty() empty}: its
 * statistics are empty {@link java.util.OptionalDouble}s, not the 0.0 the raw file writes.
 *
 * <pre>{@code
 * ServeMetrics m = result.metrics(MetricOptions.defaults());
 * double p99TtftMs = m.ttft().percentileMillis(99).orElseThrow();
 * Duration medianTpot = m.tpot().median().orElse(Duration.ZERO); // per output token
 * }</pre>
 */
public final class ServeMetrics {

  private final Builder b;

  private ServeMetrics(Builder b) {
    this.b = b;
  }

  /** Prompts of the measured phase (the reference's {@code num_prompts}). */
  public int requested() {
    return b.requested;
  }

  /** Measured requests handed to the transport (requested − not sent). */
  public int sent() {
    return b.sent;
  }

  /** Successful requests (the reference's {@code completed}, client spec §5.2). */
  public int completed() {
    return b.completed;
  }

  /** Sent requests that failed (cancellations excluded); see {@link #failuresByClass()}. */
  public int failed() {
    return b.failed;
  }

  /** Sent requests the run cancelled (timeout or interrupt): neither completed nor failed. */
  public int cancelled() {
    return b.cancelled;
  }

  /** Prompts never sent because the run timed out first. */
  public int notSent() {
    return b.notSent;
  }

  /** Accounting law: sent = completed + failed + cancelled, requested = sent + not sent. */
  public boolean conserved() {
    return b.sent == b.completed + b.failed + b.cancelled && b.requested == b.sent + b.notSent;
  }

  /** Measured-phase wall time in seconds, the divisor of every throughput here. */
  public double durationSeconds() {
    return b.durationSeconds;
  }

  /** Σ client-side prompt tokens over successful requests (server usage ignored, spec §5.2). */
  public long totalInputTokens() {
    return b.totalInputTokens;
  }

  /** Σ output tokens over successful requests, in tokens (failures contribute 0, spec §5.2). */
  public long totalOutputTokens() {
    return b.totalOutputTokens;
  }

  /** Completed requests / duration, in req/s (the reference's {@code request_throughput}). */
  public double requestThroughput() {
    return b.requestThroughput;
  }

  /**
   * Good requests / duration, in req/s, present only when goodput SLOs were given: a successful
   * request is good when each SLO (ms) holds, TPOT counting 0 for one-token requests (spec §5.2).
   */
  public OptionalDouble requestGoodput() {
    return b.requestGoodput == null ? OptionalDouble.empty() : OptionalDouble.of(b.requestGoodput);
  }

  /** Total output tokens / duration, in tok/s (the reference's {@code output_throughput}). */
  public double outputThroughput() {
    return b.outputThroughput;
  }

  /** (Total input + output tokens) / duration, in tok/s ({@code total_token_throughput}). */
  public double totalTokenThroughput() {
    return b.totalTokenThroughput;
  }

  /** Per prompt client-side prompt tokens, failed and unsent prompts included (a copy). */
  public int[] inputLens() {
    return b.inputLens.clone();
  }

  /** Per prompt output tokens, 0 unless successful (a copy). */
  public int[] outputLens() {
    return b.outputLens.clone();
  }

  /**
   * Per prompt TTFT in seconds (0.0 unless successful: the reference's detailed {@code ttfts}
   * list), a copy.
   */
  public double[] ttftsSeconds() {
    return b.ttfts.clone();
  }

  /** Per prompt ITL gaps in seconds (a copy: rows in prompt order, empty unless successful). */
  public double[][] itlsSeconds() {
    double[][] copy = new double[b.itls.length][];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = b.itls[i].clone();
    }
    return copy;
  }

  /** The same gaps without a copy, for the raw-result writer of this package. */
  double[][] itlsView() {
    return b.itls;
  }

  /** Per request generated text ("" unless texts were kept, e.g. {@code --save-detailed}). */
  public String[] generatedTexts() {
    return b.generatedTexts.clone();
  }

  /** Per request error message ("" for a success), as the reference's {@code errors} list. */
  public String[] errors() {
    return b.errors.clone();
  }

  /**
   * TTFT: send → first token-carrying chunk, successful requests (infx's TTFT point). Histogram:
   * {@link ServeResult#ttftHistogram()}.
   */
  public LatencyStats ttft() {
    return b.ttft;
  }

  /**
   * TPOT, time per output token after the first: (E2EL − TTFT) / (output tokens − 1) of each
   * successful request with more than one output token (client spec §5.1); values are per token
   * (ms/token, {@code Duration} per token). Empty when no request produced more than one token.
   * Histogram: {@link ServeResult#tpotHistogram()}.
   */
  public LatencyStats tpot() {
    return b.tpot;
  }

  /**
   * ITL: gaps between consecutive token-carrying chunks, pooled over successful requests.
   * Histogram: {@link ServeResult#itlHistogram()}.
   */
  public LatencyStats itl() {
    return b.itl;
  }

  /**
   * E2EL: send → the reference's E2EL end point (see {@link RequestRecord}), successful requests.
   * Histogram: {@link ServeResult#e2elHistogram()}.
   */
  public LatencyStats e2el() {
    return b.e2el;
  }

  /**
   * ITL per token, successful requests: each chunk gap spread evenly over the tokens
   * the chunk carried, by each request's {@link ItlPolicy} (definition and sources:
   * {@link PerTokenItl}). Under {@link ItlPolicy#PER_CHUNK} a request contributes its chunk gaps.
   */
  public LatencyStats itlPerToken() {
    return b.itlPerToken;
  }

  /** Successful requests by the policy that attributed their tokens to chunks. */
  public Map<ItlPolicy, Integer> itlPolicies() {
    return java.util.Collections.unmodifiableMap(b.itlPolicies);
  }

  /**
   * The run's per-token ITL policy: the one every successful request used, else the least exact
   * one any used (so a run is per-chunk as soon as one request is); empty without a successful
   * request. See {@link #itlPolicies()} for the counts.
   */
  public java.util.Optional<ItlPolicy> itlPolicy() {
    ItlPolicy worst = null;
    for (ItlPolicy p : b.itlPolicies.keySet()) {
      worst = p; // EnumMap iterates in declaration order: most to least exact
    }
    return java.util.Optional.ofNullable(worst);
  }

  /**
   * How many token chunks carried 0, 1, 2, … tokens (successful requests whose counts are known,
   * i.e. not {@link ItlPolicy#PER_CHUNK}), ascending by tokens.
   */
  public java.util.SortedMap<Integer, Long> tokensPerChunk() {
    return java.util.Collections.unmodifiableSortedMap(b.tokensPerChunk);
  }

  /**
   * The reference's TTFT: send → first chunk with non-empty choices (role prelude
   * included).
   */
  public LatencyStats ttftFirstChoices() {
    return b.ttftFirstChoices;
  }

  /** Send → response head, successful requests. */
  public LatencyStats ttftFirstByte() {
    return b.ttftFirstByte;
  }

  /**
   * Send → first non-empty content (reasoning excluded), successful requests that had one.
   */
  public LatencyStats ttftFirstContent() {
    return b.ttftFirstContent;
  }

  /**
   * TTFT from the intended send time (coordinated-omission safe), successful requests.
   */
  public LatencyStats ttftFromIntended() {
    return b.ttftFromIntended;
  }

  /**
   * E2EL from the intended send time (coordinated-omission safe), successful requests.
   */
  public LatencyStats e2elFromIntended() {
    return b.e2elFromIntended;
  }

  /** Actual send − max(intended, slot freed), clamped at 0, every sent request. */
  public LatencyStats lateness() {
    return b.lateness;
  }

  /**
   * Slot freed − intended send time, clamped at 0, every sent request (non-zero only
   * for an open loop with a ceiling).
   */
  public LatencyStats queueWait() {
    return b.queueWait;
  }

  /** Failed requests counted by class (classes with no failure are absent). */
  public Map<FailureClass, Integer> failuresByClass() {
    return Map.copyOf(b.failuresByClass);
  }

  /** The first failures, in prompt order, at most {@link MetricOptions#keepFailures()}. */
  public List<RequestFailure> firstFailures() {
    return List.copyOf(b.firstFailures);
  }

  /** Successful requests counted by where their output token count came from. */
  public Map<TokenSource, Integer> tokenSources() {
    return Map.copyOf(b.tokenSources);
  }

  /** Successful requests whose stream ended without {@code data: [DONE]}. */
  public int streamsWithoutDone() {
    return b.streamsWithoutDone;
  }

  /** Successful requests whose server {@code prompt_tokens} differ from the client's count. */
  public int usagePromptMismatches() {
    return b.usagePromptMismatches;
  }

  /**
   * Re-sends over all sent requests: requests sent again because they provably never left (the
   * connection closed before the request was handed to it); see {@link RequestRecord#resends()}.
   */
  public int resends() {
    return b.resends;
  }

  /** Input lengths as the server counted them vs the client's (see {@link InputLengthCheck}). */
  public InputLengthCheck inputLengthCheck() {
    return b.inputLengthCheck;
  }

  /**
   * Distribution of the server's {@code usage.prompt_tokens} (tokens, not seconds) over the
   * successful requests that reported it.
   */
  public SampleStats serverInputLengths() {
    return b.serverIsl;
  }

  /** Histogram of the server's prompt lengths: up to 32 equal-width bins, low edge → requests. */
  public java.util.SortedMap<Integer, Integer> serverInputLengthHistogram() {
    return java.util.Collections.unmodifiableSortedMap(b.serverIslHistogram);
  }

  /**
   * Most requests in flight at once at the client: sweep over [send, end] of every sent request.
   */
  public int peakConcurrency() {
    return b.peakConcurrency;
  }

  /**
   * {@code ServeMetrics{completed=40/40, failed=0, cancelled=0, duration=1.234s, ttft=…, tpot=…,
   * itl=…, e2el=…}} with the four distributions in ms ({@link LatencyStats#toString()}).
   */
  @Override
  public String toString() {
    return "ServeMetrics{completed=" + b.completed + "/" + b.requested + ", failed=" + b.failed
        + ", cancelled=" + b.cancelled + (b.notSent > 0 ? ", notSent=" + b.notSent : "")
        + ", duration=" + String.format(java.util.Locale.ROOT, "%.3fs", b.durationSeconds)
        + ", ttft=" + b.ttft + ", tpot=" + b.tpot + ", itl=" + b.itl + ", e2el=" + b.e2el + "}";
  }

  static final class Builder {
    int requested;
    int sent;
    int completed;
    int failed;
    int cancelled;
    int notSent;
    double durationSeconds;
    long totalInputTokens;
    long totalOutputTokens;
    double requestThroughput;
    Double requestGoodput;
    double outputThroughput;
    double totalTokenThroughput;
    int[] inputLens;
    int[] outputLens;
    double[] ttfts;
    double[][] itls;
    String[] generatedTexts;
    String[] errors;
    LatencyStats ttft;
    LatencyStats tpot;
    LatencyStats itl;
    LatencyStats e2el;
    LatencyStats itlPerToken;
    Map<ItlPolicy, Integer> itlPolicies = new java.util.EnumMap<>(ItlPolicy.class);
    java.util.SortedMap<Integer, Long> tokensPerChunk = new java.util.TreeMap<>();
    LatencyStats ttftFirstChoices;
    LatencyStats ttftFirstByte;
    LatencyStats ttftFirstContent;
    LatencyStats ttftFromIntended;
    LatencyStats e2elFromIntended;
    LatencyStats lateness;
    LatencyStats queueWait;
    Map<FailureClass, Integer> failuresByClass;
    List<RequestFailure> firstFailures;
    Map<TokenSource, Integer> tokenSources;
    int streamsWithoutDone;
    int usagePromptMismatches;
    int peakConcurrency;
    int resends;
    InputLengthCheck inputLengthCheck;
    SampleStats serverIsl;
    java.util.SortedMap<Integer, Integer> serverIslHistogram;

    ServeMetrics build() {
      return new ServeMetrics(this);
    }
  }
}
