package io.infx.client.agentx;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A recorded model request of a Weka trace: its timing, token counts and the ids of the 64-token
 * KV blocks its prompt consisted of.
 *
 * @param t recorded start, seconds from the start of the conversation
 * @param streaming {@code true} for type {@code "s"}, {@code false} for {@code "n"} (replayed
 *     identically; the transport is chosen by the replayer)
 * @param model recorded model name
 * @param inputTokens prompt tokens ({@code in}, alias {@code input_length})
 * @param outputTokens generated tokens ({@code out}, alias {@code output_length}); the replay's
 *     {@code max_tokens}
 * @param hashIds ids of the prompt's KV blocks, one per {@code block_size} tokens
 * @param inputTypes e.g. {@code text}, {@code tool_result}
 * @param outputTypes e.g. {@code text}, {@code tool_use}
 * @param stop recorded stop reason ({@code ""}, {@code tool_use}, {@code end_turn}), if any
 * @param apiTime recorded server time, seconds
 * @param thinkTime recorded client gap before this request, seconds
 * @param ttft recorded time to first token, seconds
 */
public record TraceRequest(
    double t,
    boolean streaming,
    String model,
    int inputTokens,
    int outputTokens,
    HashIds hashIds,
    List<String> inputTypes,
    List<String> outputTypes,
    Optional<String> stop,
    OptionalDouble apiTime,
    OptionalDouble thinkTime,
    OptionalDouble ttft)
    implements TraceEntry {

  public TraceRequest {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(hashIds, "hashIds");
    inputTypes = List.copyOf(inputTypes);
    outputTypes = List.copyOf(outputTypes);
    Objects.requireNonNull(stop, "stop");
    Objects.requireNonNull(apiTime, "apiTime");
    Objects.requireNonNull(thinkTime, "thinkTime");
    Objects.requireNonNull(ttft, "ttft");
  }

  /** A request with only the fields replay needs (tests, synthetic corpora). */
  public static TraceRequest of(double t, String model, int in, int out, HashIds ids, double apiTime) {
    return new TraceRequest(t, true, model, in, out, ids, List.of(), List.of(), Optional.empty(),
        OptionalDouble.of(apiTime), OptionalDouble.empty(), OptionalDouble.empty());
  }

  /** Recorded end: {@code t + api_time} (just {@code t} when the server time was not recorded). */
  public double end() {
    return t + apiTime.orElse(0.0);
  }
}
