package io.infx.core;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * Base of every error infx reports to a user: bad input, a failed run, an unusable environment.
 * The message is meant to be printed as is (no stack trace); {@link #kind()} classifies the error
 * for tools and tests (e.g. {@link ErrorKind#USAGE}, {@link ErrorKind#FILE},
 * {@link ErrorKind#CONFIG_VALIDATION}), and {@link #exitCode()} is what the command line exits with
 * (the kind's {@link ErrorKind#exitCode()}).
 *
 * <p>A message built from a {@link Wording} names settings in the library's words
 * ({@code numPrompts}); {@link #message(UnaryOperator)} shows them in a front end's words (the
 * command line's {@code --num-prompts}).
 */
public class InfxException extends RuntimeException {

  private static final long serialVersionUID = 2L;

  private final ErrorKind kind;
  private final Wording wording;

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
  public InfxException(ErrorKind kind, String message, @Nullable Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.wording = null;
  }

  /**
   * @param kind what went wrong
   * @param message the message, naming settings in the library's words
   */
  public InfxException(ErrorKind kind, Wording message) {
    this(kind, message, null);
  }

  /**
   * @param kind what went wrong
   * @param message the message, naming settings in the library's words
   * @param cause the underlying exception, or null
   */
  public InfxException(ErrorKind kind, Wording message, @Nullable Throwable cause) {
    super(Objects.requireNonNull(message, "message").toString(), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.wording = message;
  }

  /** Classification of the error; {@link ErrorKind#wireName()} is its printed name. */
  public ErrorKind kind() {
    return kind;
  }

  /** The settings the message names, by their library names (empty for a plain message). */
  public List<String> settings() {
    return wording == null ? List.of() : wording.settings();
  }

  /**
   * The message with each named setting shown as {@code settingName.apply(libraryName)}, e.g. a
   * command line's flag; a plain message is returned as is. {@link #getMessage()} is the message
   * in the library's words.
   */
  public String message(UnaryOperator<String> settingName) {
    return wording == null ? getMessage() : wording.render(settingName);
  }

  /** Process exit status for the command line: 2 for usage errors, 1 otherwise. */
  public int exitCode() {
    return kind.exitCode();
  }
}
