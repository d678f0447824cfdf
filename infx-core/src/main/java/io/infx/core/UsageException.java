package io.infx.core;

/** The command line or API was called wrongly (missing or conflicting arguments). Exit status 2. */
public class UsageException extends InfxException {

  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(ErrorKind.USAGE, message);
  }

  /** A usage error naming settings in the library's words (see {@link Wording}). */
  public UsageException(Wording message) {
    super(ErrorKind.USAGE, message);
  }
}
