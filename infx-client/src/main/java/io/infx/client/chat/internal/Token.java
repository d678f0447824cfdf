package io.infx.client.chat.internal;

/** One lexical token of a Jinja template. */
record Token(Kind kind, String text, int line, int col) {

  enum Kind {
    TEXT, VAR_BEGIN, VAR_END, BLOCK_BEGIN, BLOCK_END, NAME, STRING, INT, FLOAT, OP, EOF
  }

  boolean isOp(String t) {
    return kind == Kind.OP && text.equals(t);
  }

  boolean isName(String t) {
    return kind == Kind.NAME && text.equals(t);
  }

  @Override
  public String toString() {
    return kind == Kind.EOF ? "end of template" : "'" + text + "'";
  }
}
