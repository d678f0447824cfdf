package io.infx.store;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Wording;

/**
 * A store operation failed: the database cannot be opened or migrated, an input directory holds
 * nothing ingestible or holds simulated rows without {@code --allow-simulated}, or a write failed
 * (the run's transaction is then rolled back: nothing is half-written). Kind {@code store}.
 */
public class StoreException extends InfxException {

  private static final long serialVersionUID = 1L;

  public StoreException(String message) {
    super(ErrorKind.STORE, message);
  }

  /** A message naming settings in the library's words (see {@link Wording}). */
  public StoreException(Wording message) {
    super(ErrorKind.STORE, message);
  }

  public StoreException(String message, Throwable cause) {
    super(ErrorKind.STORE, message, cause);
  }
}
