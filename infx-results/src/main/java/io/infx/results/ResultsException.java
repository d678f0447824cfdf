package io.infx.results;

import io.infx.core.InfxException;
import java.util.Objects;

/**
 * A result could not be normalized. {@link #errorKind()} classifies the failure (the conformance
 * corpus's {@code error_kind}); {@link #kind()} returns its id. Thrown before anything is written,
 * except {@link PowerRequiredException}.
 */
public class ResultsException extends InfxException {

  private static final long serialVersionUID = 1L;

  private final ResultsErrorKind errorKind;

  public ResultsException(ResultsErrorKind errorKind, String message) {
    super(errorKind.id(), message);
    this.errorKind = Objects.requireNonNull(errorKind, "errorKind");
  }

  public ResultsException(ResultsErrorKind errorKind, String message, Throwable cause) {
    super(errorKind.id(), message, cause);
    this.errorKind = Objects.requireNonNull(errorKind, "errorKind");
  }

  /** The classification of this failure. */
  public ResultsErrorKind errorKind() {
    return errorKind;
  }
}
