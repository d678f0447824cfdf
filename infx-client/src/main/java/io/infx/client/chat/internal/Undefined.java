package io.infx.client.chat.internal;

/**
 * jinja2's default {@code Undefined}: renders as the empty string, is falsy, iterates as empty and
 * has length 0; any other use (attribute, arithmetic, call) is an error naming what was undefined.
 */
final class Undefined {
  final String hint;

  Undefined(String hint) {
    this.hint = hint;
  }

  TemplateError error() {
    return new TemplateError("UndefinedError: " + hint);
  }
}
