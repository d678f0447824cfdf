package io.infx.client;

import io.infx.client.metrics.SampleStats;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The statistics of one serve run, with the reference's field set (client spec §5; seconds inside
 * {@link SampleStats}, the raw file reports them in ms) and infx's extra views. TTFT, ITL and TPOT are
 * measured from the first token-carrying chunk (docs/decisions.md › Client); the reference's
 * first-chunk-with-choices TTFT is {@link #ttftFirstChoices()}.
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

  /** Per prompt TTFT in seconds (0.0 unless successful), for detailed output (a copy). */
  public double[] ttfts() {
    return b.ttfts.clone();
  }

  /** Per prompt ITL gaps in seconds (a copy: rows in prompt order, empty unless successful). */
  public double[][] itls() {
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

  /** Send → first token-carrying chunk, in seconds, successful requests (infx's TTFT point). */
  public SampleStats ttft() {
    return b.ttft;
  }

  /**
   * TPOT = (E2EL − TTFT) / (output tokens − 1), in s/token, successful requests with > 1 token
   * (spec §5.1).
   */
  public SampleStats tpot() {
    return b.tpot;
  }

  /**
   * Gaps between consecutive token-carrying chunks, in seconds, pooled over successful requests.
   */
  public SampleStats itl() {
    return b.itl;
  }

  /**
   * Send → the reference's E2EL end point (see {@link RequestRecord}), in seconds, successful
   * requests.
   */
  public SampleStats e2el() {
    return b.e2el;
  }

  /**
   * ITL per token in seconds, successful requests: each chunk gap spread evenly over the tokens
   * the chunk carried, by each request's {@link ItlPolicy} (definition and sources:
   * {@link PerTokenItl}). Under {@link ItlPolicy#PER_CHUNK} a request contributes its chunk gaps.
   */
  public SampleStats itlPerToken() {
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
   * The reference's TTFT, in seconds: send → first chunk with non-empty choices (role prelude
   * included).
   */
  public SampleStats ttftFirstChoices() {
    return b.ttftFirstChoices;
  }

  /** Send → response head, in seconds, successful requests. */
  public SampleStats ttftFirstByte() {
    return b.ttftFirstByte;
  }

  /**
   * Send → first non-empty content (reasoning excluded), in seconds, successful requests that had
   * one.
   */
  public SampleStats ttftFirstContent() {
    return b.ttftFirstContent;
  }

  /**
   * TTFT from the intended send time, in seconds (coordinated-omission safe), successful requests.
   */
  public SampleStats ttftFromIntended() {
    return b.ttftFromIntended;
  }

  /**
   * E2EL from the intended send time, in seconds (coordinated-omission safe), successful requests.
   */
  public SampleStats e2elFromIntended() {
    return b.e2elFromIntended;
  }

  /** Actual send − max(intended, slot freed), in seconds, clamped at 0, every sent request. */
  public SampleStats lateness() {
    return b.lateness;
  }

  /**
   * Slot freed − intended send time, in seconds, clamped at 0, every sent request (non-zero only
   * for an open loop with a ceiling).
   */
  public SampleStats queueWait() {
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
    SampleStats ttft;
    SampleStats tpot;
    SampleStats itl;
    SampleStats e2el;
    SampleStats itlPerToken;
    Map<ItlPolicy, Integer> itlPolicies = new java.util.EnumMap<>(ItlPolicy.class);
    java.util.SortedMap<Integer, Long> tokensPerChunk = new java.util.TreeMap<>();
    SampleStats ttftFirstChoices;
    SampleStats ttftFirstByte;
    SampleStats ttftFirstContent;
    SampleStats ttftFromIntended;
    SampleStats e2elFromIntended;
    SampleStats lateness;
    SampleStats queueWait;
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
