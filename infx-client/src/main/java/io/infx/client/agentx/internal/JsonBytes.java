package io.infx.client.agentx.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable UTF-8 byte buffer for writing JSON request bodies without intermediate strings:
 * prompt text goes from the synthesizer straight into the body, escaped on the way, and the body
 * is copied out once at its exact size. Not thread-safe (one per worker thread).
 */
final class JsonBytes {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private byte[] buf;
  private int len;

  JsonBytes(int capacity) {
    buf = new byte[capacity];
  }

  void reset() {
    len = 0;
  }

  int capacity() {
    return buf.length;
  }

  /** The bytes written, copied at their exact size. */
  byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  /** Appends ASCII that needs no escaping (structural JSON written by the caller). */
  JsonBytes raw(String ascii) {
    int n = ascii.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) ascii.charAt(i);
    }
    return this;
  }

  JsonBytes raw(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
    return this;
  }

  JsonBytes number(long v) {
    return raw(Long.toString(v));
  }

  /** A complete JSON string value, quotes included. */
  JsonBytes string(CharSequence s) {
    raw("\"");
    escaped(s);
    return raw("\"");
  }

  /** Appends {@code s} escaped for the inside of a JSON string, encoded as UTF-8. */
  JsonBytes escaped(CharSequence s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
        if (len == buf.length) {
          ensure(n - i);
        }
        buf[len++] = (byte) c;
      } else {
        special(s, i, c);
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        }
      }
    }
    return this;
  }

  private void special(CharSequence s, int i, char c) {
    ensure(12);
    switch (c) {
      case '"' -> { buf[len++] = '\\'; buf[len++] = '"'; }
      case '\\' -> { buf[len++] = '\\'; buf[len++] = '\\'; }
      case '\n' -> { buf[len++] = '\\'; buf[len++] = 'n'; }
      case '\r' -> { buf[len++] = '\\'; buf[len++] = 'r'; }
      case '\t' -> { buf[len++] = '\\'; buf[len++] = 't'; }
      default -> {
        if (c < 0x20) {
          buf[len++] = '\\';
          buf[len++] = 'u';
          buf[len++] = '0';
          buf[len++] = '0';
          buf[len++] = HEX[c >> 4];
          buf[len++] = HEX[c & 0xF];
        } else if (c < 0x800) {
          buf[len++] = (byte) (0xC0 | (c >> 6));
          buf[len++] = (byte) (0x80 | (c & 0x3F));
        } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(i + 1));
          buf[len++] = (byte) (0xF0 | (cp >> 18));
          buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          buf[len++] = (byte) (0x80 | (cp & 0x3F));
        } else if (Character.isSurrogate(c)) {
          buf[len++] = (byte) 0xEF; // a lone surrogate becomes U+FFFD
          buf[len++] = (byte) 0xBF;
          buf[len++] = (byte) 0xBD;
        } else {
          buf[len++] = (byte) (0xE0 | (c >> 12));
          buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3F));
          buf[len++] = (byte) (0x80 | (c & 0x3F));
        }
      }
    }
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more + 1024));
    }
  }
}
