package io.infx.client.internal;

import java.io.IOException;

/**
 * Reads one OpenAI-compatible streaming chunk (the JSON object of one SSE event) straight from its
 * UTF-8 bytes, taking only what a load generator records and validating the rest without decoding
 * it: strict RFC 8259 JSON (the grammar of Jackson's default parser, which this replaces on the
 * I/O thread), UTF-8 checked inside strings as Jackson checks it, nesting at most
 * {@value #MAX_DEPTH} deep (Jackson's default limit).
 *
 * <p>What it takes (everything else is skipped, but must be well-formed):
 * <ul>
 *   <li>{@code choices[]}: the element count; for each element {@code text} (Completions) and
 *       {@code delta.content} (Chat) — a non-empty string is a token chunk with content —,
 *       {@code delta.reasoning_content} / {@code delta.reasoning} (a non-empty string is a token
 *       chunk) and {@code delta.tool_calls} (a non-empty array is a token chunk);
 *   <li>{@code usage.completion_tokens} and {@code usage.prompt_tokens} when they are JSON
 *       integers (other numbers are ignored; an integer beyond {@code int} is an error, as
 *       Jackson's {@code getIntValue} throws);
 *   <li>{@code error}: the first top-level {@code error} ends the read with its message (an
 *       object's string {@code message}, else the value's text; {@code "error"} for a null, an
 *       array or an object without one) — what follows it is not read.
 * </ul>
 * Content and reasoning text are decoded (escapes and UTF-8 to UTF-16) only into the builders a
 * caller passes, so a run that keeps no text builds none. Nothing is allocated per chunk unless
 * it is malformed or carries an error.
 *
 * <p>Not thread-safe: one reader per stream or per thread; the result fields are overwritten by
 * the next {@link #read}.
 */
public final class ChunkReader {

  /** Deepest nesting accepted (Jackson's {@code StreamReadConstraints} default). */
  public static final int MAX_DEPTH = 1000;

  private static final byte[] CHOICES = ascii("choices");
  private static final byte[] USAGE = ascii("usage");
  private static final byte[] ERROR = ascii("error");
  private static final byte[] TEXT = ascii("text");
  private static final byte[] DELTA = ascii("delta");
  private static final byte[] CONTENT = ascii("content");
  private static final byte[] REASONING_CONTENT = ascii("reasoning_content");
  private static final byte[] REASONING = ascii("reasoning");
  private static final byte[] TOOL_CALLS = ascii("tool_calls");
  private static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
  private static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
  private static final byte[] MESSAGE = ascii("message");

  // ---- the last chunk read ----
  /** Elements of {@code choices}. */
  public int choices;
  /** Whether the chunk carries a token: content, reasoning or a tool call. */
  public boolean token;
  /** Whether the chunk carries non-empty content ({@code text} or {@code delta.content}). */
  public boolean content;
  /** {@code usage.completion_tokens}, or -1. */
  public int completionTokens;
  /** {@code usage.prompt_tokens}, or -1. */
  public int promptTokens;
  /** The in-stream error's message when the chunk has a top-level {@code error}, else null. */
  public String error;

  private byte[] b;
  private int pos;
  private int end;
  private StringBuilder text;
  private StringBuilder reasoning;
  private final byte[] name = new byte[32]; // a field name with escapes, decoded (ASCII keys only)
  private final char[] chars = new char[256]; // ASCII runs on their way into a StringBuilder
  private int nameLen;
  private int nameStart;
  private boolean nameEscaped;
  private String errorMessage; // an error object's message while it is read

  /**
   * Reads the chunk in {@code bytes[off, off + len)}.
   *
   * @param text receives the content text, or null to keep none
   * @param reasoning receives the reasoning text, or null to keep none
   * @throws IOException when the bytes are not one well-formed JSON object (optionally followed
   *     by whitespace), or a usage count overflows an {@code int}
   */
  public void read(byte[] bytes, int off, int len, StringBuilder text, StringBuilder reasoning)
      throws IOException {
    choices = 0;
    token = false;
    content = false;
    completionTokens = -1;
    promptTokens = -1;
    error = null;
    this.b = bytes;
    this.pos = off;
    this.end = off + len;
    this.text = text;
    this.reasoning = reasoning;
    try {
      ws();
      if (pos >= end || b[pos] != '{') {
        throw fail("chunk is not a JSON object");
      }
      pos++;
      if (topLevel()) {
        return; // an error field: the rest is not read
      }
      ws();
      if (pos < end) {
        throw fail("trailing content after the chunk object");
      }
    } finally {
      this.b = null;
      this.text = null;
      this.reasoning = null;
    }
  }

  // the objects whose members are read (else skipped)
  private static final int TOP = 0;
  private static final int CHOICE = 1;
  private static final int DELTA_OBJ = 2;
  private static final int USAGE_OBJ = 3;
  private static final int ERROR_OBJ = 4;

  /** The top-level object's members, after its '{'; true when an error field ended the read. */
  private boolean topLevel() throws IOException {
    return members(TOP);
  }

  /** An object's members after its '{', each read per {@link #member}; true when an error ended the read. */
  private boolean members(int object) throws IOException {
    ws();
    if (peek() == '}') {
      pos++;
      return false;
    }
    do {
      fieldName();
      if (member(object)) {
        return true;
      }
    } while (!endOfMembers('}'));
    return false;
  }

  /** One member's value (its name just read) in {@code object}; true when an error ended the read. */
  private boolean member(int object) throws IOException {
    byte v = peek();
    switch (object) {
      case TOP -> {
        if (nameIs(CHOICES) && v == '[') {
          pos++;
          choicesArray();
        } else if (nameIs(USAGE) && v == '{') {
          pos++;
          members(USAGE_OBJ);
        } else if (nameIs(ERROR)) {
          error = errorMessage();
          return true;
        } else {
          skipValue(1);
        }
      }
      case CHOICE -> {
        if (nameIs(TEXT)) {
          contentValue();
        } else if (nameIs(DELTA) && v == '{') {
          pos++;
          members(DELTA_OBJ);
        } else {
          skipValue(3);
        }
      }
      case DELTA_OBJ -> {
        if (nameIs(CONTENT)) {
          contentValue();
        } else if ((nameIs(REASONING_CONTENT) || nameIs(REASONING)) && v == '"') {
          pos++;
          if (string(reasoning) > 0) {
            token = true;
          }
        } else if (nameIs(TOOL_CALLS) && v == '[') {
          pos++;
          ws();
          if (peek() == ']') {
            pos++;
          } else {
            token = true;
            do {
              skipValue(5);
            } while (!endOfMembers(']'));
          }
        } else {
          skipValue(4);
        }
      }
      case USAGE_OBJ -> {
        boolean completion = nameIs(COMPLETION_TOKENS);
        if ((completion || nameIs(PROMPT_TOKENS)) && (v == '-' || (v >= '0' && v <= '9'))) {
          int start = pos;
          if (number()) { // an integer
            int n = (int) parseLong(start, pos);
            if (completion) {
              completionTokens = n;
            } else {
              promptTokens = n;
            }
          }
        } else {
          skipValue(2);
        }
      }
      default -> { // ERROR_OBJ
        if (nameIs(MESSAGE) && v == '"') {
          pos++;
          StringBuilder sb = new StringBuilder();
          string(sb);
          errorMessage = sb.toString();
        } else {
          skipValue(2);
        }
      }
    }
    return false;
  }

  private void choicesArray() throws IOException {
    ws();
    if (peek() == ']') {
      pos++;
      return;
    }
    do {
      if (peek() != '{') {
        // the Jackson reader stopped at such an element and failed on the rest of the chunk
        throw fail("a choices element that is not an object");
      }
      pos++;
      choices++;
      members(CHOICE);
    } while (!endOfMembers(']'));
  }

  private void contentValue() throws IOException {
    if (peek() == '"') {
      pos++;
      if (string(text) > 0) {
        token = true;
        content = true;
      }
    } else {
      skipValue(4);
    }
  }

  private String errorMessage() throws IOException {
    byte c = peek();
    if (c == '{') {
      pos++;
      errorMessage = "";
      members(ERROR_OBJ);
      return errorMessage;
    }
    if (c == '"') {
      pos++;
      StringBuilder sb = new StringBuilder();
      string(sb);
      return sb.toString();
    }
    if (c == '[') {
      return "error"; // Jackson's getValueAsString(default) for an array (not read further)
    }
    int start = pos;
    if (c == '-' || (c >= '0' && c <= '9')) {
      number(false); // what follows is never read: Jackson stopped at the number's last digit
    } else {
      skipValue(1);
    }
    if (pos >= end) {
      throw fail("incomplete chunk object"); // a number or literal the chunk's end cut off
    }
    // Jackson's getValueAsString(default): the default for null, the text of other scalars
    return c == 'n' ? "error" : new String(b, start, pos - start, java.nio.charset.StandardCharsets.US_ASCII);
  }

  // ---- grammar ----

  /** After a member or element: ',' (false: another follows) or the closing byte (true: done). */
  private boolean endOfMembers(char close) throws IOException {
    ws();
    byte c = peek();
    if (c == ',') {
      pos++;
      ws();
      byte n = peek();
      if (n == '}' || n == ']') {
        throw fail("trailing comma");
      }
      return false;
    }
    if (c == close) {
      pos++;
      return true;
    }
    throw fail("expected ',' or '" + close + "'");
  }

  /** A member's name and its ':'; leaves the position at the value's first byte. */
  private void fieldName() throws IOException {
    ws();
    if (peek() != '"') {
      throw fail("expected a field name");
    }
    pos++;
    nameStart = pos;
    nameEscaped = false;
    while (true) {
      if (pos >= end) {
        throw fail("unterminated field name");
      }
      byte c = b[pos];
      if (c == '"') {
        nameLen = pos - nameStart; // plain ASCII: compared in place by nameIs
        pos++;
        break;
      }
      if (c == '\\' || c < 0x20) { // an escape, a control byte or (negative) a UTF-8 byte
        escapedName();
        break;
      }
      pos++;
    }
    ws();
    if (peek() != ':') {
      throw fail("expected ':'");
    }
    pos++;
    ws();
    if (pos >= end) {
      throw fail("missing value");
    }
  }

  /** The rare name with an escape or a non-ASCII byte: decoded (only short ASCII names can match a key). */
  private void escapedName() throws IOException {
    nameEscaped = true;
    int n = 0;
    for (int i = nameStart; i < pos; i++, n++) {
      if (n < name.length) {
        name[n] = b[i];
      }
    }
    boolean ascii = true;
    while (true) {
      if (pos >= end) {
        throw fail("unterminated field name");
      }
      if (b[pos] == '"') {
        pos++;
        break;
      }
      int ch = stringChar();
      if (ch >= 0x80) {
        ascii = false;
      }
      if (n < name.length) {
        name[n] = (byte) ch;
      }
      n++;
    }
    nameLen = ascii ? n : -1;
  }

  private boolean nameIs(byte[] key) {
    if (nameLen != key.length) {
      return false;
    }
    if (nameEscaped) {
      for (int i = 0; i < key.length; i++) {
        if (name[i] != key[i]) {
          return false;
        }
      }
      return true;
    }
    for (int i = 0; i < key.length; i++) {
      if (b[nameStart + i] != key[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Skips one value starting at the position; {@code depth} is the nesting of the value's
   * container (for the depth limit).
   */
  private void skipValue(int depth) throws IOException {
    byte c = peek();
    switch (c) {
      case '"' -> {
        pos++;
        string(null);
      }
      case '{' -> {
        pos++;
        checkDepth(depth + 1);
        ws();
        if (peek() == '}') {
          pos++;
          return;
        }
        do {
          fieldName();
          skipValue(depth + 1);
        } while (!endOfMembers('}'));
      }
      case '[' -> {
        pos++;
        checkDepth(depth + 1);
        ws();
        if (peek() == ']') {
          pos++;
          return;
        }
        do {
          skipValue(depth + 1);
        } while (!endOfMembers(']'));
      }
      case 't' -> literal("true");
      case 'f' -> literal("false");
      case 'n' -> literal("null");
      default -> {
        if (c == '-' || (c >= '0' && c <= '9')) {
          number();
        } else {
          throw fail("unexpected character");
        }
      }
    }
  }

  private void checkDepth(int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw fail("nesting deeper than " + MAX_DEPTH);
    }
  }

  private void literal(String word) throws IOException {
    int n = word.length();
    if (end - pos < n) {
      throw fail("truncated literal");
    }
    for (int i = 0; i < n; i++) {
      if (b[pos + i] != word.charAt(i)) {
        throw fail("unexpected character");
      }
    }
    pos += n;
    // Jackson's rule: a byte from '0' up, other than ']' and '}', continues the token
    if (pos < end && b[pos] >= '0' && b[pos] != ']' && b[pos] != '}') { // signed, as Jackson reads
      throw fail("unexpected character after " + word);
    }
  }

  private static boolean isIdentifierByte(byte c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  /** A JSON number; true when it is an integer (no fraction, no exponent). */
  private boolean number() throws IOException {
    return number(true);
  }

  /**
   * A JSON number; true when it is an integer. {@code checkEnd}: a letter, digit or '.' right
   * after it is an error here (Jackson reports it with the next token).
   */
  private boolean number(boolean checkEnd) throws IOException {
    boolean integer = true;
    if (peek() == '-') {
      pos++;
    }
    if (pos >= end) {
      throw fail("truncated number");
    }
    byte c = b[pos];
    if (c == '0') {
      pos++;
      if (pos < end && b[pos] >= '0' && b[pos] <= '9') {
        throw fail("leading zero");
      }
    } else if (c >= '1' && c <= '9') {
      while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
        pos++;
      }
    } else {
      throw fail("malformed number");
    }
    if (pos < end && b[pos] == '.') {
      integer = false;
      pos++;
      digits();
    }
    if (pos < end && (b[pos] == 'e' || b[pos] == 'E')) {
      integer = false;
      pos++;
      if (pos < end && (b[pos] == '+' || b[pos] == '-')) {
        pos++;
      }
      digits();
    }
    if (checkEnd && pos < end && (isIdentifierByte(b[pos]) || b[pos] == '.')) {
      throw fail("malformed number");
    }
    return integer;
  }

  private void digits() throws IOException {
    int start = pos;
    while (pos < end && b[pos] >= '0' && b[pos] <= '9') {
      pos++;
    }
    if (pos == start) {
      throw fail("malformed number");
    }
  }

  private long parseLong(int start, int stop) throws IOException {
    boolean neg = b[start] == '-';
    int i = neg ? start + 1 : start;
    if (stop - i > 10) {
      throw fail("number out of int range");
    }
    long v = 0;
    for (; i < stop; i++) {
      v = v * 10 + (b[i] - '0');
    }
    v = neg ? -v : v;
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw fail("number out of int range");
    }
    return v;
  }

  /**
   * A string's contents after its opening quote, through its closing quote; appended to
   * {@code out} decoded when it is not null. Returns the number of UTF-16 chars.
   */
  private int string(StringBuilder out) throws IOException {
    int chars = 0;
    int run = pos; // start of a run of plain ASCII, appended in one go
    while (true) {
      if (pos >= end) {
        throw fail("unterminated string");
      }
      int c = b[pos] & 0xFF;
      if (c == '"') {
        if (out != null) {
          appendAscii(out, run, pos);
        }
        chars += pos - run;
        pos++;
        return chars;
      }
      if (c >= 0x20 && c < 0x80 && c != '\\') {
        pos++;
        continue;
      }
      if (out != null) {
        appendAscii(out, run, pos);
      }
      chars += pos - run;
      int ch = stringChar();
      if (ch > 0xFFFF) {
        chars += 2;
        if (out != null) {
          out.append(Character.highSurrogate(ch)).append(Character.lowSurrogate(ch));
        }
      } else {
        chars++;
        if (out != null) {
          out.append((char) ch);
        }
      }
      run = pos;
    }
  }

  /** Appends ASCII bytes through a reused char buffer: one append call per run, not per char. */
  private void appendAscii(StringBuilder out, int from, int to) {
    while (from < to) {
      int n = Math.min(to - from, chars.length);
      for (int i = 0; i < n; i++) {
        chars[i] = (char) b[from + i];
      }
      out.append(chars, 0, n);
      from += n;
    }
  }

  /**
   * One character of a string at the position (an escape, a UTF-8 sequence or a plain byte),
   * consumed; the code point, or for a {@code \\u} escape the UTF-16 unit (surrogates are not
   * paired, as in Jackson).
   */
  private int stringChar() throws IOException {
    int c = b[pos] & 0xFF;
    if (c < 0x20) {
      throw fail("control character in a string");
    }
    if (c == '\\') {
      if (end - pos < 2) {
        throw fail("truncated escape");
      }
      byte e = b[pos + 1];
      pos += 2;
      switch (e) {
        case '"':
          return '"';
        case '\\':
          return '\\';
        case '/':
          return '/';
        case 'b':
          return '\b';
        case 'f':
          return '\f';
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case 'u': {
          if (end - pos < 4) {
            throw fail("truncated \\u escape");
          }
          int v = 0;
          for (int i = 0; i < 4; i++) {
            int d = Character.digit(b[pos + i], 16);
            if (d < 0 || b[pos + i] > 'f') {
              throw fail("malformed \\u escape");
            }
            v = (v << 4) | d;
          }
          pos += 4;
          return v;
        }
        default:
          throw fail("unrecognized escape");
      }
    }
    if (c < 0x80) {
      pos++;
      return c;
    }
    // UTF-8 as Jackson reads it: a lead byte C0–F7 and its continuation bytes 80–BF
    int need;
    int cp;
    if (c >= 0xC0 && c <= 0xDF) {
      need = 1;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF7) {
      need = 3;
      cp = c & 0x07;
    } else {
      throw fail("invalid UTF-8 start byte");
    }
    if (end - pos <= need) {
      throw fail("truncated UTF-8 sequence");
    }
    for (int i = 1; i <= need; i++) {
      int d = b[pos + i] & 0xFF;
      if ((d & 0xC0) != 0x80) {
        throw fail("invalid UTF-8 middle byte");
      }
      cp = (cp << 6) | (d & 0x3F);
    }
    pos += need + 1;
    return cp;
  }

  private byte peek() throws IOException {
    if (pos >= end) {
      throw fail("incomplete chunk object");
    }
    return b[pos];
  }

  private void ws() {
    while (pos < end) {
      byte c = b[pos];
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
        pos++;
      } else {
        return;
      }
    }
  }

  private IOException fail(String what) {
    return new IOException(what + " at byte " + (pos < 0 ? 0 : pos));
  }

  private static byte[] ascii(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
