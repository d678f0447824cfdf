package io.infx.client.agentx.internal;

import io.infx.client.RequestFailure;
import io.infx.client.RequestRecord;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * Turns what the client observed about one replayed request ({@link RequestRecord}, monotonic
 * nanoseconds) into its export record ({@link ReplayRecord}, epoch nanoseconds and ms), the way
 * AIPerf fills {@code profile_export.jsonl} (spec {@code agentx.md} §3.1): error types, context
 * overflow detection, ITL as {@code (latency − TTFT) / (OSL − 1)}.
 */
final class ReplayRecords {

  /** Error substrings that mean the prompt no longer fits the model's context. */
  private static final String[] OVERFLOW_MARKERS = {
      "context length", "maximum context", "context_length_exceeded", "prompt is too long",
      "context window", "too many tokens"};

  private ReplayRecords() {}

  /**
   * Completes {@code identity} (session, ids, turn, warmup flag, blocks filled in) with the
   * observation.
   *
   * @param rec the client's record, or {@code null} when the transport produced none
   * @param failure why there is no record (when {@code rec} is {@code null}), or {@code null}
   * @param contentTokens the prompt's tokens as synthesized (used when the server reports none)
   * @param intendedNanos when the schedule wanted the request sent (monotonic ns)
   * @param sendWallNs when the engine handed the request over (epoch ns)
   * @param nowWallNs the completion time (epoch ns), for a request without a record
   * @param wall maps a monotonic reading to epoch ns
   */
  static ReplayRecord complete(ImmutableReplayRecord.Builder identity, boolean warmup,
      RequestRecord rec, Throwable failure, int contentTokens, long intendedNanos, long sendWallNs,
      long nowWallNs, LongUnaryOperator wall) {
    identity.warmup(warmup);
    double lateness = warmup || rec == null ? 0 : Math.max(0, rec.sendNanos() - intendedNanos) / 1e6;
    identity.latenessMs(lateness);
    if (rec == null) {
      String msg = failure == null ? "no record" : failure.toString();
      return identity.startNs(sendWallNs).endNs(nowWallNs).inputTokens(contentTokens)
          .failure(new ReplayRecord.Failure(0, "ClientError", msg)).build();
    }
    identity.startNs(wall.applyAsLong(rec.sendNanos()));
    if (rec.headersNanos().isPresent()) {
      identity.ackNs(wall.applyAsLong(rec.headersNanos().getAsLong()));
    }
    long endNanos = rec.e2elEndNanos().orElse(rec.endNanos());
    if (rec.cancelled()) {
      long cancelledAt = wall.applyAsLong(rec.endNanos());
      return identity.endNs(cancelledAt).cancelled(true).cancellationNs(cancelledAt)
          .inputTokens(rec.usagePromptTokens().orElse(contentTokens))
          .failure(new ReplayRecord.Failure(499, "RequestCancelled",
              "cancelled at the end of the benchmark"))
          .build();
    }
    identity.endNs(wall.applyAsLong(endNanos));
    if (!rec.success()) {
      RequestFailure f = rec.failure().orElseThrow();
      String message = f.body().isEmpty() ? f.message() : f.message() + ": " + f.body();
      return identity.inputTokens(contentTokens).contextOverflow(isOverflow(message))
          .failure(new ReplayRecord.Failure(f.status() > 0 ? f.status() : 0, errorType(f),
              oneLine(message)))
          .build();
    }
    int osl = rec.outputTokens();
    double ttft = rec.firstTokenNanos().isPresent()
        ? (rec.firstTokenNanos().getAsLong() - rec.sendNanos()) / 1e6 : Double.NaN;
    double latency = (endNanos - rec.sendNanos()) / 1e6;
    double itl = osl >= 2 && Double.isFinite(ttft) ? (latency - ttft) / (osl - 1) : Double.NaN;
    double fullItl = osl >= 2 && rec.firstContentNanos().isPresent()
        ? (endNanos - rec.firstContentNanos().getAsLong()) / 1e6 / (osl - 1) : Double.NaN;
    return identity.inputTokens(rec.usagePromptTokens().orElse(contentTokens)).outputTokens(osl)
        .ttftMs(ttft).latencyMs(latency).itlMs(itl).fullResponseItlMs(fullItl).build();
  }

  static boolean isOverflow(String message) {
    String m = message.toLowerCase(Locale.ROOT);
    for (String k : OVERFLOW_MARKERS) {
      if (m.contains(k)) {
        return true;
      }
    }
    return false;
  }

  private static String errorType(RequestFailure f) {
    return switch (f.kind()) {
      case CONNECT -> "ConnectError";
      case TIMEOUT -> "TimeoutError";
      case HTTP_4XX, HTTP_5XX, HTTP_OTHER -> "HTTPStatusError";
      case STREAM -> "StreamError";
      case DECODE -> "DecodeError";
      case OVERSIZE -> "OversizeError";
      case CLIENT -> "ClientError";
    };
  }

  private static String oneLine(String s) {
    String t = s.replace('\n', ' ').replace('\r', ' ');
    return t.length() > 2000 ? t.substring(0, 2000) : t;
  }
}
