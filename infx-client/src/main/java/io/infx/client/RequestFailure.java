package io.infx.client;

import java.util.Objects;

/**
 * Why one request failed.
 *
 * @param kind the failure class
 * @param message one-line description (the HTTP reason phrase for status errors, as the reference
 *     records it; the exception or in-stream error message otherwise)
 * @param status HTTP status when a response head arrived, else 0
 * @param body the first bytes of an error response body or the offending chunk (at most 2 KiB),
 *     or {@code ""}
 */
public record RequestFailure(FailureClass kind, String message, int status, String body) {
  public RequestFailure {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(body, "body");
  }
}
