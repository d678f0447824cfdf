package io.infx.fleet.spi;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;

/** A backend could not do what was asked (submit, query, cancel, fetch). */
public class BackendException extends InfxException {

  private static final long serialVersionUID = 1L;

  private final boolean retriable;

  public BackendException(String message, boolean retriable) {
    super(ErrorKind.BACKEND, message);
    this.retriable = retriable;
  }

  public BackendException(String message, boolean retriable, Throwable cause) {
    super(ErrorKind.BACKEND, message, cause);
    this.retriable = retriable;
  }

  /** True when the cause is the infrastructure's (scheduler down, quota), not the input's. */
  public boolean retriable() {
    return retriable;
  }
}
