package io.infx.client.chat.internal;

import io.infx.client.chat.internal.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a template into tokens the way jinja2's lexer does with the settings transformers uses:
 * {@code trim_blocks} (the first newline after a block or comment tag is removed),
 * {@code lstrip_blocks} (spaces and tabs before a block or comment tag at the start of a line are
 * removed, unless the tag opens with {@code +}), {@code -} whitespace control on either side of
 * any tag, {@code \r\n} and {@code \r} normalised to {@code \n}, and one trailing newline of the
 * source dropped ({@code keep_trailing_newline=False}).
 */
final class Lexer {

  private final String src;
  private final List<Token> out = new ArrayList<>();
  private int pos;
  private int line = 1;
  private int lineStart;

  private Lexer(String src) {
    this.src = src;
  }

  static List<Token> tokenize(String source) {
    String s = source.replace("\r\n", "\n").replace('\r', '\n');
    if (s.endsWith("\n")) {
      s = s.substring(0, s.length() - 1);
    }
    Lexer lx = new Lexer(s);
    lx.run();
    return lx.out;
  }

  private void run() {
    boolean stripNextLeading = false;
    boolean trimNextNewline = false;
    while (pos < src.length()) {
      int open = nextTagOpen(pos);
      int textEnd = open < 0 ? src.length() : open;
      String text = src.substring(pos, textEnd);
      int textLine = line;
      int textCol = pos - lineStart + 1;
      if (stripNextLeading) {
        text = stripLeading(text);
      } else if (trimNextNewline && text.startsWith("\n")) {
        text = text.substring(1);
      }
      stripNextLeading = false;
      trimNextNewline = false;
      advanceTo(textEnd);
      if (open < 0) {
        emitText(text, textLine, textCol);
        break;
      }
      char kind = src.charAt(open + 1);
      char mod = open + 2 < src.length() ? src.charAt(open + 2) : 0;
      if (mod == '-') {
        text = stripTrailing(text);
      } else if ((kind == '%' || kind == '#') && mod != '+') {
        text = lstripBlock(text);
      }
      emitText(text, textLine, textCol);
      int bodyStart = open + 2 + (mod == '-' || mod == '+' ? 1 : 0);
      if (kind == '#') {
        int close = src.indexOf("#}", bodyStart);
        if (close < 0) {
          throw new TemplateError("missing end of comment tag", line);
        }
        boolean minus = close > bodyStart && src.charAt(close - 1) == '-';
        advanceTo(close + 2);
        stripNextLeading = minus;
        trimNextNewline = !minus;
        continue;
      }
      if (kind == '%' && isRawTag(bodyStart)) {
        lexRaw(open, bodyStart);
        continue;
      }
      Kind begin = kind == '{' ? Kind.VAR_BEGIN : Kind.BLOCK_BEGIN;
      out.add(new Token(begin, kind == '{' ? "{{" : "{%", line, open - lineStart + 1));
      advanceTo(bodyStart);
      String closer = kind == '{' ? "}}" : "%}";
      int end = lexExpression(closer);
      stripNextLeading = end == END_MINUS;
      trimNextNewline = kind == '%' && end == END_PLAIN;
    }
    out.add(new Token(Kind.EOF, "", line, pos - lineStart + 1));
  }

  private boolean isRawTag(int bodyStart) {
    int i = bodyStart;
    while (i < src.length() && Character.isWhitespace(src.charAt(i))) {
      i++;
    }
    return src.startsWith("raw", i) && (i + 3 >= src.length() || !isNameChar(src.charAt(i + 3)));
  }

  /** {@code {% raw %}…{% endraw %}}: the body is text, whitespace control still applies. */
  private void lexRaw(int open, int bodyStart) {
    int close = src.indexOf("%}", bodyStart);
    boolean minusAfterOpen = close > 0 && src.charAt(close - 1) == '-';
    int end = close + 2;
    java.util.regex.Matcher m = java.util.regex.Pattern
        .compile("\\{%([-+]?)\\s*endraw\\s*(-?)%}").matcher(src);
    if (close < 0 || !m.find(end)) {
      throw new TemplateError("missing end of raw directive", line);
    }
    String body = src.substring(end, m.start());
    if (minusAfterOpen) {
      body = stripLeading(body);
    } else if (body.startsWith("\n")) {
      body = body.substring(1);
    }
    if (m.group(1).equals("-")) {
      body = stripTrailing(body);
    } else if (!m.group(1).equals("+")) {
      body = lstripBlock(body);
    }
    int l = line;
    int c = end - lineStart + 1;
    advanceTo(m.end());
    emitText(body, l, c);
    if (!m.group(2).equals("-") && pos < src.length() && src.charAt(pos) == '\n') {
      advanceTo(pos + 1);
    } else if (m.group(2).equals("-")) {
      int p = pos;
      while (p < src.length() && Character.isWhitespace(src.charAt(p))) {
        p++;
      }
      advanceTo(p);
    }
  }

  private void emitText(String text, int l, int c) {
    if (!text.isEmpty()) {
      out.add(new Token(Kind.TEXT, text, l, c));
    }
  }

  private int nextTagOpen(int from) {
    int i = from;
    while (true) {
      i = src.indexOf('{', i);
      if (i < 0 || i + 1 >= src.length()) {
        return -1;
      }
      char c = src.charAt(i + 1);
      if (c == '{' || c == '%' || c == '#') {
        return i;
      }
      i++;
    }
  }

  private static final int END_PLAIN = 0;
  private static final int END_MINUS = 1;
  private static final int END_PLUS = 2;

  /** Lexes up to the closing tag; says how it closed (plain, {@code -} or {@code +}). */
  private int lexExpression(String closer) {
    while (true) {
      skipSpaces();
      if (pos >= src.length()) {
        throw new TemplateError("unexpected end of template, expected '" + closer + "'", line);
      }
      if (src.charAt(pos) == '-' && src.startsWith(closer, pos + 1)) {
        out.add(new Token(closer.equals("}}") ? Kind.VAR_END : Kind.BLOCK_END, closer, line, col()));
        advanceTo(pos + 3);
        return END_MINUS;
      }
      if (src.charAt(pos) == '+' && closer.equals("%}") && src.startsWith(closer, pos + 1)) {
        out.add(new Token(Kind.BLOCK_END, closer, line, col()));
        advanceTo(pos + 3);
        return END_PLUS;
      }
      if (src.startsWith(closer, pos)) {
        out.add(new Token(closer.equals("}}") ? Kind.VAR_END : Kind.BLOCK_END, closer, line, col()));
        advanceTo(pos + 2);
        return END_PLAIN;
      }
      lexOne();
    }
  }

  private static final String[] OPS = {
      "//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "(", ")", "[",
      "]", "{", "}", ",", ".", ":", "|", "=", ";"
  };

  private void lexOne() {
    char c = src.charAt(pos);
    int l = line;
    int co = col();
    if (c == '\'' || c == '"') {
      int i = pos + 1;
      StringBuilder raw = new StringBuilder();
      while (i < src.length() && src.charAt(i) != c) {
        if (src.charAt(i) == '\\' && i + 1 < src.length()) {
          raw.append(src.charAt(i)).append(src.charAt(i + 1));
          i += 2;
        } else {
          raw.append(src.charAt(i++));
        }
      }
      if (i >= src.length()) {
        throw new TemplateError("unexpected end of string at line " + l + ", column " + co, l);
      }
      out.add(new Token(Kind.STRING, unescape(raw.toString()), l, co));
      advanceTo(i + 1);
      return;
    }
    if (Character.isDigit(c)) {
      int i = pos;
      while (i < src.length() && (Character.isDigit(src.charAt(i)) || src.charAt(i) == '_')) {
        i++;
      }
      boolean isFloat = false;
      if (i + 1 < src.length() && src.charAt(i) == '.' && Character.isDigit(src.charAt(i + 1))) {
        isFloat = true;
        i++;
        while (i < src.length() && (Character.isDigit(src.charAt(i)) || src.charAt(i) == '_')) {
          i++;
        }
      }
      if (i < src.length() && (src.charAt(i) == 'e' || src.charAt(i) == 'E')) {
        int j = i + 1;
        if (j < src.length() && (src.charAt(j) == '+' || src.charAt(j) == '-')) {
          j++;
        }
        if (j < src.length() && Character.isDigit(src.charAt(j))) {
          isFloat = true;
          i = j;
          while (i < src.length() && Character.isDigit(src.charAt(i))) {
            i++;
          }
        }
      }
      out.add(new Token(isFloat ? Kind.FLOAT : Kind.INT, src.substring(pos, i).replace("_", ""), l, co));
      advanceTo(i);
      return;
    }
    if (Character.isLetter(c) || c == '_') {
      int i = pos;
      while (i < src.length() && isNameChar(src.charAt(i))) {
        i++;
      }
      out.add(new Token(Kind.NAME, src.substring(pos, i), l, co));
      advanceTo(i);
      return;
    }
    for (String op : OPS) {
      if (src.startsWith(op, pos)) {
        out.add(new Token(Kind.OP, op, l, co));
        advanceTo(pos + op.length());
        return;
      }
    }
    throw new TemplateError("unexpected char '" + c + "' at line " + l + ", column " + co, l);
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** Python string-literal escapes, as jinja2 decodes them ({@code unicode-escape}). */
  static String unescape(String raw) {
    if (raw.indexOf('\\') < 0) {
      return raw;
    }
    StringBuilder sb = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\' || i + 1 >= raw.length()) {
        sb.append(c);
        continue;
      }
      char n = raw.charAt(++i);
      switch (n) {
        case 'n' -> sb.append('\n');
        case 't' -> sb.append('\t');
        case 'r' -> sb.append('\r');
        case '\\' -> sb.append('\\');
        case '\'' -> sb.append('\'');
        case '"' -> sb.append('"');
        case 'a' -> sb.append('\u0007');
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'v' -> sb.append('\u000b');
        case '0' -> sb.append('\0');
        case '\n' -> { }
        case 'x', 'u', 'U' -> {
          int len = n == 'x' ? 2 : n == 'u' ? 4 : 8;
          if (i + len < raw.length()) {
            String hex = raw.substring(i + 1, i + 1 + len);
            if (hex.chars().allMatch(ch -> Character.digit(ch, 16) >= 0)) {
              sb.appendCodePoint(Integer.parseInt(hex, 16));
              i += len;
              break;
            }
          }
          sb.append('\\').append(n);
        }
        default -> sb.append('\\').append(n);
      }
    }
    return sb.toString();
  }

  private static String stripLeading(String s) {
    int i = 0;
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return s.substring(i);
  }

  private static String stripTrailing(String s) {
    int i = s.length();
    while (i > 0 && Character.isWhitespace(s.charAt(i - 1))) {
      i--;
    }
    return s.substring(0, i);
  }

  /** lstrip_blocks: drop spaces/tabs between the last newline (or text start at line start) and the tag. */
  private String lstripBlock(String text) {
    int i = text.length();
    while (i > 0 && (text.charAt(i - 1) == ' ' || text.charAt(i - 1) == '\t')) {
      i--;
    }
    if (i == text.length()) {
      return text;
    }
    if (i > 0 && text.charAt(i - 1) == '\n') {
      return text.substring(0, i);
    }
    if (i == 0 && atLineStart(pos - text.length())) {
      return "";
    }
    return text;
  }

  /** Whether {@code at} is at the start of a line of the source. */
  private boolean atLineStart(int at) {
    return at == 0 || src.charAt(at - 1) == '\n';
  }

  private void skipSpaces() {
    while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
      advanceTo(pos + 1);
    }
  }

  private int col() {
    return pos - lineStart + 1;
  }

  private void advanceTo(int p) {
    for (int i = pos; i < p; i++) {
      if (src.charAt(i) == '\n') {
        line++;
        lineStart = i + 1;
      }
    }
    pos = p;
  }
}
