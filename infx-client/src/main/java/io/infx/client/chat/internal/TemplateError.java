package io.infx.client.chat.internal;

/**
 * A Jinja error: a syntax error (with line and column in the template) or a runtime error
 * ({@code raise_exception}, an undefined value used, a type error), worded like jinja2's.
 */
public final class TemplateError extends RuntimeException {
  private final int line;

  public TemplateError(String message, int line) {
    super(message);
    this.line = line;
  }

  public TemplateError(String message) {
    this(message, 0);
  }

  /** 1-based template line, or 0 when unknown. */
  public int line() {
    return line;
  }
}
