package io.infx.client;

import io.infx.client.metrics.Stats;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The statistics of one serve run. Reference fields follow client spec §5 (seconds inside
 * {@link Stats}; the raw file reports them in ms); the rest are infx's extra views.
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

  public int sent() {
    return b.sent;
  }

  public int completed() {
    return b.completed;
  }

  public int failed() {
    return b.failed;
  }

  public int cancelled() {
    return b.cancelled;
  }

  public int notSent() {
    return b.notSent;
  }

  /** Accounting law: sent = completed + failed + cancelled, requested = sent + not sent. */
  public boolean conserved() {
    return b.sent == b.completed + b.failed + b.cancelled && b.requested == b.sent + b.notSent;
  }

  public double durationSeconds() {
    return b.durationSeconds;
  }

  public long totalInputTokens() {
    return b.totalInputTokens;
  }

  public long totalOutputTokens() {
    return b.totalOutputTokens;
  }

  /** Completed requests per second. */
  public double requestThroughput() {
    return b.requestThroughput;
  }

  /** Good requests per second, when goodput SLOs were given. */
  public OptionalDouble requestGoodput() {
    return b.requestGoodput == null ? OptionalDouble.empty() : OptionalDouble.of(b.requestGoodput);
  }

  /** Output tokens per second. */
  public double outputThroughput() {
    return b.outputThroughput;
  }

  /** Input + output tokens per second. */
  public double totalTokenThroughput() {
    return b.totalTokenThroughput;
  }

  public int[] inputLens() {
    return b.inputLens.clone();
  }

  public int[] outputLens() {
    return b.outputLens.clone();
  }

  /** Per request TTFT in seconds (0.0 for failed), for detailed output. */
  public double[] ttfts() {
    return b.ttfts.clone();
  }

  /** Per request ITL gaps in seconds (a copy: rows are requests, in send order). */
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

  /** TTFT to the first token-carrying chunk (seconds). */
  public Stats ttft() {
    return b.ttft;
  }

  /** TPOT = (E2EL − TTFT) / (output tokens − 1), requests with more than one token. */
  public Stats tpot() {
    return b.tpot;
  }

  /** Gaps between consecutive token-carrying chunks, pooled over requests. */
  public Stats itl() {
    return b.itl;
  }

  public Stats e2el() {
    return b.e2el;
  }

  /** ITL per token (chunk gap divided by the tokens it carried). */
  public Stats itlPerToken() {
    return b.itlPerToken;
  }

  /** The reference's TTFT: first chunk with non-empty choices (role prelude included). */
  public Stats ttftFirstChoices() {
    return b.ttftFirstChoices;
  }

  /** Time to the response head. */
  public Stats ttftFirstByte() {
    return b.ttftFirstByte;
  }

  /** Time to the first non-empty content (reasoning excluded). */
  public Stats ttftFirstContent() {
    return b.ttftFirstContent;
  }

  /** TTFT measured from the intended send time (coordinated-omission safe). */
  public Stats ttftFromIntended() {
    return b.ttftFromIntended;
  }

  public Stats e2elFromIntended() {
    return b.e2elFromIntended;
  }

  /** Actual − intended send time, beyond any wait for a concurrency slot. */
  public Stats lateness() {
    return b.lateness;
  }

  /** Time waiting for a concurrency slot after the intended time (open loop with a ceiling). */
  public Stats queueWait() {
    return b.queueWait;
  }

  public Map<FailureClass, Integer> failuresByClass() {
    return Map.copyOf(b.failuresByClass);
  }

  /** The first failures, in prompt order. */
  public List<RequestFailure> firstFailures() {
    return List.copyOf(b.firstFailures);
  }

  public Map<TokenSource, Integer> tokenSources() {
    return Map.copyOf(b.tokenSources);
  }

  public int streamsWithoutDone() {
    return b.streamsWithoutDone;
  }

  /** Successful requests whose server {@code prompt_tokens} differ from the client's count. */
  public int usagePromptMismatches() {
    return b.usagePromptMismatches;
  }

  /** Most requests in flight at once, observed at the client. */
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
    Stats ttft;
    Stats tpot;
    Stats itl;
    Stats e2el;
    Stats itlPerToken;
    Stats ttftFirstChoices;
    Stats ttftFirstByte;
    Stats ttftFirstContent;
    Stats ttftFromIntended;
    Stats e2elFromIntended;
    Stats lateness;
    Stats queueWait;
    Map<FailureClass, Integer> failuresByClass;
    List<RequestFailure> firstFailures;
    Map<TokenSource, Integer> tokenSources;
    int streamsWithoutDone;
    int usagePromptMismatches;
    int peakConcurrency;

    ServeMetrics build() {
      return new ServeMetrics(this);
    }
  }
}
