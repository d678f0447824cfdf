package io.infx.client;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One streaming request ready to send: its API, endpoint path, the JSON body bytes and what the
 * client knows about it. Build bodies with {@link RequestBodies}.
 *
 * @param api Completions or Chat Completions (selects how the stream is read)
 * @param endpoint path appended to the client's base URL, e.g. {@code /v1/completions}
 * @param body the UTF-8 JSON body (not copied: do not modify after creating the request)
 * @param promptTokens the client-side prompt length in tokens (recorded as {@code input_lens})
 * @param headers extra request headers (e.g. session-affinity headers), in order
 */
public record InferenceRequest(
    ServingBackend.Api api, String endpoint, byte[] body, int promptTokens,
    List<Map.Entry<String, String>> headers) {

  public InferenceRequest {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(body, "body");
    headers = List.copyOf(headers);
  }

  public InferenceRequest(ServingBackend.Api api, String endpoint, byte[] body, int promptTokens) {
    this(api, endpoint, body, promptTokens, List.of());
  }

  /** A copy with one more header. */
  public InferenceRequest withHeader(String name, String value) {
    var h = new java.util.ArrayList<>(headers);
    h.add(Map.entry(name, value));
    return new InferenceRequest(api, endpoint, body, promptTokens, h);
  }
}
