package io.infx.core;

import java.util.Objects;

/**
 * Base of every error infx reports to a user: bad input, a failed run, an unusable environment.
 * The message is meant to be printed as is (no stack trace); {@link #kind()} classifies the error
 * for tools and tests (e.g. {@link ErrorKind#USAGE}, {@link ErrorKind#FILE},
 * {@link ErrorKind#CONFIG_VALIDATION}), and {@link #exitCode()} is what the command line exits with
 * (the kind's {@link ErrorKind#exitCode()}).
 */
public class InfxException extends RuntimeException {

  private static final long serialVersionUID = 2L;

  private final ErrorKind kind;

  /**
   * @param kind what went wrong
   * @param message the whole message for a user, printed as is
   */
  public InfxException(ErrorKind kind, String message) {
    this(kind, message, null);
  }

  /**
   * @param kind what went wrong
   * @param message the whole message for a user, printed as is
   * @param cause the underlying exception, or null
   */
  public InfxException(ErrorKind kind, String message, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** Classification of the error; {@link ErrorKind#wireName()} is its printed name. */
  public ErrorKind kind() {
    return kind;
  }

  /** Process exit status for the command line: 2 for usage errors, 1 otherwise. */
  public int exitCode() {
    return kind.exitCode();
  }
}
