package io.infx.results;

import io.infx.core.ErrorKind;

/**
 * {@code REQUIRE_POWER} is set and the power measurement is invalid. Thrown <em>after</em> the
 * aggregate (with {@code "power_valid": 0}) and the power sidecar were written, as the reference
 * does: they are the audit trail of the failed measurement.
 */
public final class PowerRequiredException extends ResultsException {

  private static final long serialVersionUID = 1L;

  private final transient ProcessedResult result;

  public PowerRequiredException(String message, ProcessedResult result) {
    super(ErrorKind.POWER_REQUIRED, message);
    this.result = result;
  }

  /** What was written before the failure. */
  public ProcessedResult result() {
    return result;
  }
}
