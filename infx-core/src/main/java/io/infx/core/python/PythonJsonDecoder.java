package io.infx.core.python;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * JSON read exactly as CPython 3.11's {@code json.load(open(path))} reads it, for tools that must
 * accept, reject and report like the reference: text-mode newline translation, {@code NaN},
 * {@code Infinity} and {@code -Infinity} accepted, duplicate keys keep the last value at the first
 * key's place, integers stay integers (arbitrary size), and a syntax error carries CPython's message
 * and position ({@code Expecting value: line 1 column 41 (char 40)}).
 *
 * <p>Positions are counted in code points of the decoded text, as Python counts {@code str}
 * indices. Nesting deeper than {@value #MAX_DEPTH} is refused (CPython raises
 * {@code RecursionError} near 1000 levels).
 */
public final class PythonJsonDecoder {

  /** Deepest accepted nesting of arrays and objects. */
  public static final int MAX_DEPTH = 900;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final int[] s;
  private int depth;

  private PythonJsonDecoder(int[] codePoints) {
    this.s = codePoints;
  }

  /**
   * CPython's {@code json.JSONDecodeError}: {@link #getMessage()} is its {@code str()}, e.g.
   * {@code Expecting ',' delimiter: line 3 column 5 (char 17)}.
   */
  public static final class DecodeError extends Exception {
    private static final long serialVersionUID = 1L;
    private final String msg;
    private final int pos;
    private final int line;
    private final int column;

    DecodeError(String msg, int[] doc, int pos) {
      super(format(msg, doc, pos));
      this.msg = msg;
      this.pos = pos;
      int l = 1;
      int lastNewline = -1;
      for (int i = 0; i < Math.min(pos, doc.length); i++) {
        if (doc[i] == '\n') {
          l++;
          lastNewline = i;
        }
      }
      this.line = l;
      this.column = pos - lastNewline;
    }

    private static String format(String msg, int[] doc, int pos) {
      int l = 1;
      int lastNewline = -1;
      for (int i = 0; i < Math.min(pos, doc.length); i++) {
        if (doc[i] == '\n') {
          l++;
          lastNewline = i;
        }
      }
      return msg + ": line " + l + " column " + (pos - lastNewline) + " (char " + pos + ")";
    }

    /** The bare message without position, e.g. {@code Expecting value}. */
    public String problem() {
      return msg;
    }

    /** Code-point offset of the problem. */
    public int position() {
      return pos;
    }

    /** 1-based line of the problem. */
    public int line() {
      return line;
    }

    /** 1-based column of the problem (code points). */
    public int column() {
      return column;
    }
  }

  /**
   * A file that could not be decoded as UTF-8: CPython's {@code UnicodeDecodeError} text, e.g.
   * {@code 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte}.
   */
  public static final class EncodingError extends Exception {
    private static final long serialVersionUID = 1L;

    EncodingError(String message) {
      super(message);
    }
  }

  /** {@code json.loads(text)}. */
  public static JsonNode loads(String text) throws DecodeError {
    int[] cps = text.codePoints().toArray();
    PythonJsonDecoder d = new PythonJsonDecoder(cps);
    if (cps.length > 0 && cps[0] == 0xFEFF) {
      throw new DecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", cps, 0);
    }
    int idx = d.skipWhitespace(0);
    int[] end = new int[1];
    JsonNode value = d.scanOnce(idx, end);
    int after = d.skipWhitespace(end[0]);
    if (after != cps.length) {
      throw new DecodeError("Extra data", cps, after);
    }
    return value;
  }

  /**
   * {@code json.load(open(path))} with a UTF-8 locale: the bytes decoded strictly as UTF-8, line
   * endings {@code \r\n} and {@code \r} translated to {@code \n} (text mode), then {@link #loads}.
   *
   * @throws IOException when the file cannot be read (the caller renders it as Python's OSError)
   * @throws EncodingError when the bytes are not UTF-8
   * @throws DecodeError when the text is not JSON
   */
  public static JsonNode load(Path path) throws IOException, EncodingError, DecodeError {
    return loads(readText(path));
  }

  /** The text of {@code path} as Python's {@code open(path).read()} returns it (UTF-8 locale). */
  public static String readText(Path path) throws IOException, EncodingError {
    byte[] bytes = Files.readAllBytes(path);
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (MalformedInputException e) {
      int at = firstMalformed(bytes);
      throw new EncodingError(String.format("'utf-8' codec can't decode byte 0x%02x in position %d: %s",
          bytes[at] & 0xff, at, (bytes[at] & 0xc0) == 0x80 || (bytes[at] & 0xff) >= 0xf8
              ? "invalid start byte" : "invalid continuation byte"));
    } catch (CharacterCodingException e) {
      throw new EncodingError("'utf-8' codec can't decode: " + e.getMessage());
    }
    if (text.indexOf('\r') >= 0) {
      text = text.replace("\r\n", "\n").replace('\r', '\n');
    }
    return text;
  }

  private static int firstMalformed(byte[] bytes) {
    for (int i = 0; i < bytes.length; ) {
      int b = bytes[i] & 0xff;
      int n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
      if (n == 0 || i + n > bytes.length) {
        return i;
      }
      for (int k = 1; k < n; k++) {
        if ((bytes[i + k] & 0xc0) != 0x80) {
          return i;
        }
      }
      i += n;
    }
    return 0;
  }

  private static boolean isWhitespace(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }

  private int skipWhitespace(int idx) {
    while (idx < s.length && isWhitespace(s[idx])) {
      idx++;
    }
    return idx;
  }

  private boolean matches(int idx, String word) {
    if (idx + word.length() > s.length) {
      return false;
    }
    for (int i = 0; i < word.length(); i++) {
      if (s[idx + i] != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** CPython's {@code scan_once}: the value at {@code idx}; its end goes to {@code end[0]}. */
  private JsonNode scanOnce(int idx, int[] end) throws DecodeError {
    if (idx < 0 || idx >= s.length) {
      throw new DecodeError("Expecting value", s, idx);
    }
    int c = s[idx];
    switch (c) {
      case '"':
        return NODES.textNode(scanString(idx + 1, end));
      case '{':
        return enter(() -> parseObject(idx + 1, end));
      case '[':
        return enter(() -> parseArray(idx + 1, end));
      case 'n':
        if (matches(idx, "null")) {
          end[0] = idx + 4;
          return NODES.nullNode();
        }
        break;
      case 't':
        if (matches(idx, "true")) {
          end[0] = idx + 4;
          return NODES.booleanNode(true);
        }
        break;
      case 'f':
        if (matches(idx, "false")) {
          end[0] = idx + 5;
          return NODES.booleanNode(false);
        }
        break;
      case 'N':
        if (matches(idx, "NaN")) {
          end[0] = idx + 3;
          return NODES.numberNode(Double.NaN);
        }
        break;
      case 'I':
        if (matches(idx, "Infinity")) {
          end[0] = idx + 8;
          return NODES.numberNode(Double.POSITIVE_INFINITY);
        }
        break;
      case '-':
        if (matches(idx, "-Infinity")) {
          end[0] = idx + 9;
          return NODES.numberNode(Double.NEGATIVE_INFINITY);
        }
        break;
      default:
        break;
    }
    return matchNumber(idx, end);
  }

  private interface Scan {
    JsonNode run() throws DecodeError;
  }

  private JsonNode enter(Scan scan) throws DecodeError {
    if (++depth > MAX_DEPTH) {
      throw new IllegalStateException(
          "maximum recursion depth exceeded while decoding a JSON document");
    }
    try {
      return scan.run();
    } finally {
      depth--;
    }
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private JsonNode matchNumber(int start, int[] end) throws DecodeError {
    int idx = start;
    int endIdx = s.length - 1;
    if (s[idx] == '-') {
      idx++;
      if (idx > endIdx) {
        throw new DecodeError("Expecting value", s, start);
      }
    }
    if (s[idx] >= '1' && s[idx] <= '9') {
      idx++;
      while (idx <= endIdx && isDigit(s[idx])) {
        idx++;
      }
    } else if (s[idx] == '0') {
      idx++;
    } else {
      throw new DecodeError("Expecting value", s, start);
    }
    boolean isFloat = false;
    if (idx < endIdx && s[idx] == '.' && isDigit(s[idx + 1])) {
      isFloat = true;
      idx += 2;
      while (idx <= endIdx && isDigit(s[idx])) {
        idx++;
      }
    }
    if (idx < endIdx && (s[idx] == 'e' || s[idx] == 'E')) {
      int eStart = idx;
      idx++;
      if (idx < endIdx && (s[idx] == '-' || s[idx] == '+')) {
        idx++;
      }
      while (idx <= endIdx && isDigit(s[idx])) {
        idx++;
      }
      if (isDigit(s[idx - 1])) {
        isFloat = true;
      } else {
        idx = eStart;
      }
    }
    String literal = new String(s, start, idx - start);
    end[0] = idx;
    if (isFloat) {
      return NODES.numberNode(Double.parseDouble(literal));
    }
    BigInteger big = new BigInteger(literal);
    if (big.bitLength() < 32) {
      return NODES.numberNode(big.intValue());
    }
    if (big.bitLength() < 64) {
      return NODES.numberNode(big.longValue());
    }
    return NODES.numberNode(big);
  }

  private String scanString(int endStart, int[] endOut) throws DecodeError {
    int begin = endStart - 1;
    int end = endStart;
    int len = s.length;
    StringBuilder out = new StringBuilder();
    while (true) {
      int c = 0;
      int next;
      for (next = end; next < len; next++) {
        c = s[next];
        if (c == '"' || c == '\\') {
          break;
        } else if (c <= 0x1f) {
          throw new DecodeError("Invalid control character at", s, next);
        }
      }
      if (!(c == '"' || c == '\\') || next >= len) {
        throw new DecodeError("Unterminated string starting at", s, begin);
      }
      for (int i = end; i < next; i++) {
        out.appendCodePoint(s[i]);
      }
      next++;
      if (c == '"') {
        end = next;
        break;
      }
      if (next == len) {
        throw new DecodeError("Unterminated string starting at", s, begin);
      }
      c = s[next];
      if (c != 'u') {
        end = next + 1;
        switch (c) {
          case '"' -> out.append('"');
          case '\\' -> out.append('\\');
          case '/' -> out.append('/');
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          default -> throw new DecodeError("Invalid \\escape", s, end - 2);
        }
      } else {
        next++;
        end = next + 4;
        if (end >= len) {
          throw new DecodeError("Invalid \\uXXXX escape", s, next - 1);
        }
        int u = hex4(next, end);
        next = end;
        if (Character.isHighSurrogate((char) u) && end + 6 < len
            && s[next] == '\\' && s[next + 1] == 'u') {
          int low = hex4(next + 2, next + 6);
          if (Character.isLowSurrogate((char) low)) {
            u = Character.toCodePoint((char) u, (char) low);
            end += 6;
          }
        }
        out.appendCodePoint(u);
      }
    }
    endOut[0] = end;
    return out.toString();
  }

  private int hex4(int from, int to) throws DecodeError {
    int u = 0;
    for (int i = from; i < to; i++) {
      int d = Character.digit(s[i], 16);
      if (d < 0 || s[i] > 'f') {
        throw new DecodeError("Invalid \\uXXXX escape", s, to - 5);
      }
      u = (u << 4) | d;
    }
    return u;
  }

  private JsonNode parseObject(int idx, int[] endOut) throws DecodeError {
    ObjectNode obj = NODES.objectNode();
    int endIdx = s.length - 1;
    idx = skipWhitespace(idx);
    if (idx > endIdx || s[idx] != '}') {
      int[] end = new int[1];
      while (true) {
        if (idx > endIdx || s[idx] != '"') {
          throw new DecodeError("Expecting property name enclosed in double quotes", s, idx);
        }
        String key = scanString(idx + 1, end);
        idx = skipWhitespace(end[0]);
        if (idx > endIdx || s[idx] != ':') {
          throw new DecodeError("Expecting ':' delimiter", s, idx);
        }
        idx = skipWhitespace(idx + 1);
        JsonNode value = scanOnce(idx, end);
        obj.set(key, value);
        idx = skipWhitespace(end[0]);
        if (idx <= endIdx && s[idx] == '}') {
          break;
        }
        if (idx > endIdx || s[idx] != ',') {
          throw new DecodeError("Expecting ',' delimiter", s, idx);
        }
        idx = skipWhitespace(idx + 1);
      }
    }
    endOut[0] = idx + 1;
    return obj;
  }

  private JsonNode parseArray(int idx, int[] endOut) throws DecodeError {
    ArrayNode arr = NODES.arrayNode();
    int endIdx = s.length - 1;
    idx = skipWhitespace(idx);
    if (idx > endIdx || s[idx] != ']') {
      int[] end = new int[1];
      while (true) {
        arr.add(scanOnce(idx, end));
        idx = skipWhitespace(end[0]);
        if (idx <= endIdx && s[idx] == ']') {
          break;
        }
        if (idx > endIdx || s[idx] != ',') {
          throw new DecodeError("Expecting ',' delimiter", s, idx);
        }
        idx = skipWhitespace(idx + 1);
      }
    }
    endOut[0] = idx + 1;
    return arr;
  }
}
