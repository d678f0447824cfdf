package io.infx.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;

/**
 * {@link ChunkReader} against the reader it replaced on the I/O thread: Jackson's streaming parser
 * walked the way the client walked it until then ({@link JacksonOracle}, kept here as the
 * reference). Both read generated chunks — real engines' shapes with random field orders,
 * whitespace, escapes, multi-byte UTF-8, extra fields and nesting — and the same chunks broken
 * (cut, a byte changed, a byte inserted); they must agree on whether a chunk is malformed and,
 * when it is not, on everything the client records. Two differences are on purpose, both about
 * broken chunks that fail the request either way (now as {@code decode}): the old reader never
 * told Jackson the chunk had ended, so it accepted a number after the object ({@code {} 5}), and
 * it took a chunk cut inside its {@code error} member for an in-stream error; the oracle below
 * refuses these.
 */
class ChunkReaderTest {

  /** What a reader took from one chunk, or that it refused it. */
  record Read(boolean malformed, int choices, boolean token, boolean content, int completion,
      int prompt, String error, String text, String reasoning) {
    static Read refused() {
      return new Read(true, 0, false, false, -1, -1, null, null, null);
    }
  }

  static Read fast(byte[] b) {
    ChunkReader r = new ChunkReader();
    StringBuilder text = new StringBuilder();
    StringBuilder reasoning = new StringBuilder();
    try {
      r.read(b, 0, b.length, text, reasoning);
    } catch (IOException e) {
      return Read.refused();
    }
    return new Read(false, r.choices, r.token, r.content, r.completionTokens, r.promptTokens,
        r.error, r.error != null ? null : text.toString(), r.error != null ? null : reasoning.toString());
  }

  @Test
  void readsRealEnginesChunks() {
    Read r = fast(bytes("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        + "\"delta\":{\"content\":\" caf\\u00e9 \u65e5\"},\"finish_reason\":null}]}"));
    assertThat(r).isEqualTo(new Read(false, 1, true, true, -1, -1, null, " café 日", ""));
    r = fast(bytes("{\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}],\"usage\":"
        + "{\"completion_tokens\":64,\"prompt_tokens\":256,\"total_tokens\":320},\"timings\":{\"prompt_ms\":9.651}}"));
    assertThat(r).isEqualTo(new Read(false, 1, false, false, 64, 256, null, "", ""));
    r = fast(bytes("{\"choices\":[{\"delta\":{\"reasoning_content\":\"hm\",\"tool_calls\":[{\"id\":1}]}}]}"));
    assertThat(r).isEqualTo(new Read(false, 1, true, false, -1, -1, null, "", "hm"));
    r = fast(bytes("{\"error\":{\"message\":\"boom\",\"code\":500}}"));
    assertThat(r.error()).isEqualTo("boom");
  }

  @Test
  void refusesWhatIsNotOneJsonObject() {
    for (String bad : new String[] {"", " ", "[]", "{", "{\"a\":}", "{\"a\":1,}", "{\"a\":01}",
        "{\"a\":1} {}", "{\"a\":tru}", "{\"a\":\"\u0001\"}", "{\"choices\":[1]}", "{'a':1}",
        "{\"usage\":{\"completion_tokens\":12345678901}}", "{\"a\":1.}", "{\"a\":\"\\x\"}"}) {
      assertThat(fast(bytes(bad)).malformed()).as(bad).isTrue();
      assertThat(JacksonOracle.read(bytes(bad)).malformed()).as("oracle: " + bad).isTrue();
    }
    byte[] badUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'};
    assertThat(fast(badUtf8).malformed()).isTrue();
    assertThatThrownBy(() -> new ChunkReader().read(bytes("{\"a\":1}x"), 0, 8, null, null))
        .isInstanceOf(IOException.class).hasMessageContaining("trailing content");
  }

  @Test
  void agreesWithTheJacksonReaderOnGeneratedChunks() {
    qt().withExamples(4000).forAll(SourceDSL.longs().all(), SourceDSL.integers().between(0, 3))
        .checkAssert((seed, mutation) -> {
          Random rnd = new Random(seed);
          byte[] chunk = bytes(ChunkGen.chunk(rnd));
          if (mutation > 0) {
            chunk = ChunkGen.mutate(chunk, rnd, mutation);
          }
          Read expected = JacksonOracle.read(chunk);
          Read actual = fast(chunk);
          assertThat(actual).as(new String(chunk, StandardCharsets.UTF_8)).isEqualTo(expected);
        });
  }

  @Test
  void nestingIsLimitedLikeJackson() {
    String deep = "{\"x\":" + "[".repeat(1200) + "]".repeat(1200) + "}";
    assertThat(fast(bytes(deep)).malformed()).isTrue();
    assertThat(JacksonOracle.read(bytes(deep)).malformed()).isTrue();
    String ok = "{\"x\":" + "[".repeat(500) + "]".repeat(500) + "}";
    assertThat(fast(bytes(ok)).malformed()).isFalse();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Chunks shaped like vLLM's, SGLang's and llama.cpp's, with random variations. */
  static final class ChunkGen {
    private static final String[] WORDS = {"", " the", " caf\\u00e9", "\u65e5\u672c", "\\n",
        " \\\"q\\\"", "\\ud83d\\ude00", "\ud83d\ude00", " \u0441\u043b\u043e\u0432\u043e", "\\/",
        "\\t\\b\\f\\r", "a\\\\b", "\u00e9"};

    static String chunk(Random r) {
      List<String> fields = new ArrayList<>();
      fields.add(q("id") + ":" + q("chatcmpl-" + r.nextInt(1000)));
      fields.add(q("object") + ":" + q(r.nextBoolean() ? "chat.completion.chunk" : "text_completion"));
      fields.add(q("created") + ":" + r.nextInt(Integer.MAX_VALUE));
      if (r.nextInt(4) > 0) {
        fields.add(q("choices") + ":" + choices(r));
      }
      if (r.nextInt(3) == 0) {
        fields.add(q("usage") + ":" + usage(r));
      }
      if (r.nextInt(8) == 0) {
        fields.add(q("error") + ":" + any(r, 0, true));
      }
      if (r.nextInt(3) == 0) {
        fields.add(q(r.nextBoolean() ? "timings" : "system_fingerprint") + ":" + any(r, 0, false));
      }
      if (r.nextInt(10) == 0) {
        fields.add("\"cho\\u0069ces\":" + choices(r)); // an escaped name is the same name
      }
      java.util.Collections.shuffle(fields, r);
      return ws(r) + obj(r, fields) + ws(r);
    }

    static String choices(Random r) {
      if (r.nextInt(10) == 0) {
        return r.nextBoolean() ? "null" : "[]";
      }
      List<String> els = new ArrayList<>();
      int n = 1 + (r.nextInt(6) == 0 ? r.nextInt(3) : 0);
      for (int i = 0; i < n; i++) {
        List<String> f = new ArrayList<>();
        f.add(q("index") + ":" + i);
        f.add(q("finish_reason") + ":" + (r.nextBoolean() ? "null" : q("length")));
        if (r.nextBoolean()) {
          f.add(q("text") + ":" + stringOrOther(r));
        } else {
          f.add(q("delta") + ":" + delta(r));
        }
        if (r.nextInt(4) == 0) {
          f.add(q("logprobs") + ":" + any(r, 0, false));
        }
        java.util.Collections.shuffle(f, r);
        els.add(obj(r, f));
      }
      return "[" + ws(r) + String.join("," + ws(r), els) + ws(r) + "]";
    }

    static String delta(Random r) {
      if (r.nextInt(10) == 0) {
        return "{}";
      }
      List<String> f = new ArrayList<>();
      if (r.nextBoolean()) {
        f.add(q("role") + ":" + q("assistant"));
      }
      if (r.nextInt(4) > 0) {
        f.add(q("content") + ":" + stringOrOther(r));
      }
      if (r.nextInt(4) == 0) {
        // a string, empty or not, or null: the Jackson reader skipped no other kind of value here
        f.add(q(r.nextBoolean() ? "reasoning_content" : "reasoning") + ":"
            + (r.nextInt(4) == 0 ? "null" : q(WORDS[r.nextInt(WORDS.length)])));
      }
      if (r.nextInt(5) == 0) {
        f.add(q("tool_calls") + ":" + (r.nextBoolean() ? "[]"
            : "[" + any(r, 1, false) + (r.nextBoolean() ? "," + any(r, 1, false) : "") + "]"));
      }
      java.util.Collections.shuffle(f, r);
      return obj(r, f);
    }

    static String usage(Random r) {
      List<String> f = new ArrayList<>();
      f.add(q("completion_tokens") + ":" + number(r));
      if (r.nextBoolean()) {
        f.add(q("prompt_tokens") + ":" + number(r));
      }
      f.add(q("total_tokens") + ":" + r.nextInt(5000));
      if (r.nextBoolean()) {
        f.add(q("prompt_tokens_details") + ":{" + q("cached_tokens") + ":" + r.nextInt(100) + "}");
      }
      java.util.Collections.shuffle(f, r);
      return obj(r, f);
    }

    static String number(Random r) {
      return switch (r.nextInt(8)) {
        case 0 -> "-" + r.nextInt(100);
        case 1 -> r.nextInt(100) + ".5";
        case 2 -> r.nextInt(9) + "e2";
        case 3 -> "null";
        case 4 -> q("12");
        case 5 -> String.valueOf(r.nextInt(Integer.MAX_VALUE));
        default -> String.valueOf(r.nextInt(5000));
      };
    }

    static String stringOrOther(Random r) {
      return r.nextInt(8) == 0 ? any(r, 1, false) : q(WORDS[r.nextInt(WORDS.length)]
          + (r.nextBoolean() ? WORDS[r.nextInt(WORDS.length)] : ""));
    }

    static String any(Random r, int depth, boolean errorShapes) {
      int k = r.nextInt(depth > 3 ? 5 : 7);
      return switch (k) {
        case 0 -> "null";
        case 1 -> r.nextBoolean() ? "true" : "false";
        case 2 -> number(r);
        case 3, 4 -> q(WORDS[r.nextInt(WORDS.length)]);
        case 5 -> {
          List<String> f = new ArrayList<>();
          if (errorShapes && r.nextBoolean()) {
            f.add(q("message") + ":" + (r.nextInt(4) == 0 ? "7" : q("boom" + WORDS[r.nextInt(WORDS.length)])));
          }
          for (int i = r.nextInt(3); i > 0; i--) {
            f.add(q("k" + i) + ":" + any(r, depth + 1, false));
          }
          yield obj(r, f);
        }
        default -> {
          List<String> e = new ArrayList<>();
          for (int i = r.nextInt(3); i > 0; i--) {
            e.add(any(r, depth + 1, false));
          }
          yield "[" + String.join(",", e) + "]";
        }
      };
    }

    static String obj(Random r, List<String> fields) {
      StringBuilder sb = new StringBuilder("{");
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          sb.append(ws(r)).append(',');
        }
        sb.append(ws(r)).append(fields.get(i).replace(":", r.nextInt(6) == 0 ? " : " : ":"));
      }
      return sb.append(ws(r)).append('}').toString();
    }

    static String ws(Random r) {
      return switch (r.nextInt(12)) {
        case 0 -> " ";
        case 1 -> "\n";
        case 2 -> "\t \r\n";
        default -> "";
      };
    }

    static String q(String s) {
      return "\"" + s + "\"";
    }

    /** Breaks a chunk: cut it (1), change a byte (2) or insert one (3). */
    static byte[] mutate(byte[] b, Random r, int how) {
      if (b.length == 0) {
        return b;
      }
      int at = r.nextInt(b.length);
      byte[] pick = {'"', '\\', '{', '}', '[', ']', ',', ':', '0', '-', 'e', '.', 't', 'n', ' ',
          (byte) 0xC3, (byte) 0xA9, (byte) 0xFF, 0x01, 'x'};
      byte x = pick[r.nextInt(pick.length)];
      return switch (how) {
        case 1 -> java.util.Arrays.copyOf(b, at);
        case 2 -> {
          byte[] c = b.clone();
          c[at] = x;
          yield c;
        }
        default -> {
          byte[] c = new byte[b.length + 1];
          System.arraycopy(b, 0, c, 0, at);
          c[at] = x;
          System.arraycopy(b, at, c, at + 1, b.length - at);
          yield c;
        }
      };
    }
  }

  /** The client's chunk reading before {@link ChunkReader}: Jackson's non-blocking parser. */
  static final class JacksonOracle {
    private static final JsonFactory JSON = new JsonFactory();
    private int choices;
    private boolean token;
    private boolean content;
    private int completion = -1;
    private int prompt = -1;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();

    static Read read(byte[] b) {
      JacksonOracle o = new JacksonOracle();
      try {
        JsonParser p = JSON.createNonBlockingByteArrayParser();
        ((com.fasterxml.jackson.core.async.ByteArrayFeeder) p.getNonBlockingInputFeeder())
            .feedInput(b, 0, b.length);
        p.getNonBlockingInputFeeder().endOfInput(); // the whole chunk is there
        if (p.nextToken() != JsonToken.START_OBJECT) {
          throw new IOException("chunk is not a JSON object");
        }
        JsonToken tok;
        while ((tok = p.nextToken()) == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken v = p.nextToken();
          switch (name) {
            case "choices" -> {
              if (v == JsonToken.START_ARRAY) {
                o.choices(p);
              } else {
                skip(p, v);
              }
            }
            case "usage" -> {
              if (v == JsonToken.START_OBJECT) {
                o.usage(p);
              } else {
                skip(p, v);
              }
            }
            case "error" -> {
              if (v == null || v == JsonToken.NOT_AVAILABLE) {
                // difference on purpose: the old reader took a chunk cut after "error" for an
                // in-stream error named "error"; it is a truncated chunk (both fail the request)
                throw new IOException("incomplete chunk object");
              }
              String msg = v == JsonToken.START_OBJECT ? errorMessage(p) : p.getValueAsString("error");
              return new Read(false, o.choices, o.token, o.content, o.completion, o.prompt, msg,
                  null, null);
            }
            default -> skip(p, v);
          }
        }
        if (tok != JsonToken.END_OBJECT) {
          throw new IOException("incomplete chunk object");
        }
        // only whitespace may follow (Jackson's own next token lets a lone '-' at the end pass)
        for (long k = p.currentLocation().getByteOffset(); k < b.length; k++) {
          byte c = b[(int) k];
          if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            throw new IOException("trailing content after the chunk object");
          }
        }
      } catch (IOException | RuntimeException e) {
        return Read.refused();
      }
      return new Read(false, o.choices, o.token, o.content, o.completion, o.prompt, null,
          o.text.toString(), o.reasoning.toString());
    }

    private void choices(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.START_OBJECT) {
        choices++;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String name = p.currentName();
          JsonToken v = p.nextToken();
          if (name.equals("text")) {
            content(p, v);
          } else if (name.equals("delta") && v == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String d = p.currentName();
              JsonToken dv = p.nextToken();
              switch (d) {
                case "content" -> content(p, dv);
                case "reasoning_content", "reasoning" -> {
                  if (dv == JsonToken.VALUE_STRING && p.getTextLength() > 0) {
                    token = true;
                    reasoning.append(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
                  }
                }
                case "tool_calls" -> {
                  if (dv == JsonToken.START_ARRAY) {
                    JsonToken first = p.nextToken();
                    if (first != JsonToken.END_ARRAY) {
                      token = true;
                      skip(p, first);
                      skip(p, JsonToken.START_ARRAY, 1);
                    }
                  } else {
                    skip(p, dv);
                  }
                }
                default -> skip(p, dv);
              }
            }
          } else {
            skip(p, v);
          }
        }
      }
    }

    private void content(JsonParser p, JsonToken v) throws IOException {
      if (v != JsonToken.VALUE_STRING) {
        skip(p, v);
        return;
      }
      int len = p.getTextLength();
      if (len == 0) {
        return;
      }
      token = true;
      content = true;
      text.append(p.getTextCharacters(), p.getTextOffset(), len);
    }

    private void usage(JsonParser p) throws IOException {
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (v == JsonToken.VALUE_NUMBER_INT) {
          if (name.equals("completion_tokens")) {
            completion = p.getIntValue();
          } else if (name.equals("prompt_tokens")) {
            prompt = p.getIntValue();
          }
        } else {
          skip(p, v);
        }
      }
    }

    private static void skip(JsonParser p, JsonToken t) throws IOException {
      if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
        skip(p, t, 1);
      } else if (t == null || t == JsonToken.NOT_AVAILABLE) {
        throw new IOException("incomplete chunk object");
      }
    }

    private static void skip(JsonParser p, JsonToken ignored, int depth) throws IOException {
      while (depth > 0) {
        JsonToken t = p.nextToken();
        if (t == null || t == JsonToken.NOT_AVAILABLE) {
          throw new IOException("incomplete chunk object");
        }
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
          depth++;
        } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
          depth--;
        }
      }
    }

    private static String errorMessage(JsonParser p) throws IOException {
      String msg = "";
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals("message") && v == JsonToken.VALUE_STRING) {
          msg = p.getText();
        } else {
          skip(p, v);
        }
      }
      if (t != JsonToken.END_OBJECT) {
        // on purpose too: the old reader took the message of an error object cut short
        throw new IOException("incomplete chunk object");
      }
      return msg;
    }
  }
}
