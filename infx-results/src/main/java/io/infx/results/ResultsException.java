package io.infx.results;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;

/**
 * A result could not be normalized. {@link #kind()} classifies the failure with one of the
 * normalization kinds of {@link ErrorKind} ({@link ErrorKind#MISSING_ENV} …
 * {@link ErrorKind#INVALID_RAW_JSON}); its {@link ErrorKind#wireName()} is the conformance corpus's
 * {@code error_kind}. Thrown before anything is written, except {@link PowerRequiredException}.
 */
public class ResultsException extends InfxException {

  private static final long serialVersionUID = 2L;

  public ResultsException(ErrorKind kind, String message) {
    super(kind, message);
  }

  public ResultsException(ErrorKind kind, String message, Throwable cause) {
    super(kind, message, cause);
  }

  /**
   * The classification of this failure.
   *
   * @deprecated the same as {@link #kind()}, which every {@link InfxException} has
   */
  @Deprecated
  public ErrorKind errorKind() {
    return kind();
  }
}
