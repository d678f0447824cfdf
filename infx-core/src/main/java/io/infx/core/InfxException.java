package io.infx.core;

import java.util.Objects;

/**
 * Base of every error infx reports to a user: bad input, a failed run, an unusable environment.
 * The message is meant to be printed as is (no stack trace); {@link #kind()} classifies the error
 * for tools and tests (e.g. {@code usage}, {@code file}, {@code config-validation}), and
 * {@link #exitCode()} is what the command line exits with.
 */
public class InfxException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String kind;
  private final int exitCode;

  public InfxException(String kind, String message) {
    this(kind, message, 1, null);
  }

  public InfxException(String kind, String message, Throwable cause) {
    this(kind, message, 1, cause);
  }

  protected InfxException(String kind, String message, int exitCode, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.exitCode = exitCode;
  }

  /** Classification of the error, e.g. {@code usage}, {@code file}, {@code config-validation}. */
  public String kind() {
    return kind;
  }

  /** Process exit status for the command line: 2 for usage errors, 1 otherwise. */
  public int exitCode() {
    return exitCode;
  }
}
