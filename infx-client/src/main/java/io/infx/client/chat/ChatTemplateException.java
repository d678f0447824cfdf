package io.infx.client.chat;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Wording;

/**
 * A chat template that cannot be loaded (no template, unreadable file, syntax error with line and
 * column) or that refused to render (its own {@code raise_exception}, e.g. "System role not
 * supported", or a type error). A user error: the CLI prints the message, not a stack trace.
 */
public final class ChatTemplateException extends InfxException {
  public ChatTemplateException(String message) {
    super(ErrorKind.CHAT_TEMPLATE, message);
  }

  /** A message naming settings in the library's words (see {@link Wording}). */
  public ChatTemplateException(Wording message) {
    super(ErrorKind.CHAT_TEMPLATE, message);
  }

  public ChatTemplateException(String message, Throwable cause) {
    super(ErrorKind.CHAT_TEMPLATE, message, cause);
  }
}
