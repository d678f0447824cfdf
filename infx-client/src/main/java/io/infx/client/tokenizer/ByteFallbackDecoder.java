package io.infx.client.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The decoder of SentencePiece-style {@code tokenizer.json} files (Hugging Face's LLaMA converter:
 * LLaMA 1/2, Mistral, the realserver's vocabulary) done in Java, because the native decode of a
 * 65,536-token prompt costs ~30 ms — most of building a long random prompt. Used only when the
 * file's decoder is exactly {@code Sequence[Replace("▁" → " "), ByteFallback, Fuse,
 * Strip(" ", 1, 0)]}, and {@link HfTokenizer} only keeps it after it decoded the whole vocabulary
 * and random byte-heavy sequences exactly as the native tokenizer does.
 *
 * <p>The rules, as {@code tokenizers}' decoders define them: every token's {@code ▁} becomes a
 * space; a run of byte tokens {@code <0xNN>} becomes its bytes read as UTF-8, or one U+FFFD per
 * byte when they are not valid UTF-8; everything is joined; one leading space is dropped.
 */
final class ByteFallbackDecoder {

  private final String[] text;
  /** The byte of a {@code <0xNN>} token, else -1. */
  private final short[] bytes;

  private ByteFallbackDecoder(String[] text, short[] bytes) {
    this.text = text;
    this.bytes = bytes;
  }

  /** The decoder for {@code root} (a parsed tokenizer.json), when its decoder is the one above. */
  static Optional<ByteFallbackDecoder> of(JsonNode root) {
    if (!isLlamaDecoder(root.path("decoder"))) {
      return Optional.empty();
    }
    JsonNode vocab = root.path("model").path("vocab");
    if (!vocab.isObject()) {
      return Optional.empty();
    }
    int max = -1;
    for (JsonNode id : vocab) {
      max = Math.max(max, id.asInt(-1));
    }
    for (JsonNode a : root.path("added_tokens")) {
      max = Math.max(max, a.path("id").asInt(-1));
    }
    String[] text = new String[max + 1];
    short[] bytes = new short[max + 1];
    for (var it = vocab.fields(); it.hasNext(); ) {
      var e = it.next();
      int id = e.getValue().asInt(-1);
      if (id >= 0) {
        text[id] = e.getKey();
      }
    }
    for (JsonNode a : root.path("added_tokens")) {
      int id = a.path("id").asInt(-1);
      if (id >= 0) {
        text[id] = a.path("content").asText();
      }
    }
    for (int id = 0; id <= max; id++) {
      bytes[id] = -1;
      String t = text[id];
      if (t == null) {
        continue;
      }
      if (t.length() == 6 && t.startsWith("<0x") && t.endsWith(">")) {
        int hi = Character.digit(t.charAt(3), 16);
        int lo = Character.digit(t.charAt(4), 16);
        if (hi >= 0 && lo >= 0) {
          bytes[id] = (short) (hi * 16 + lo);
        }
      }
      text[id] = t.replace('\u2581', ' ');
    }
    return Optional.of(new ByteFallbackDecoder(text, bytes));
  }

  private static boolean isLlamaDecoder(JsonNode d) {
    if (!d.path("type").asText().equals("Sequence") || d.path("decoders").size() != 4) {
      return false;
    }
    JsonNode replace = d.path("decoders").get(0);
    JsonNode strip = d.path("decoders").get(3);
    return replace.path("type").asText().equals("Replace")
        && replace.path("pattern").path("String").asText().equals("\u2581")
        && replace.path("content").asText().equals(" ")
        && d.path("decoders").get(1).path("type").asText().equals("ByteFallback")
        && d.path("decoders").get(2).path("type").asText().equals("Fuse")
        && strip.path("type").asText().equals("Strip")
        && strip.path("content").asText().equals(" ")
        && strip.path("start").asInt(-1) == 1 && strip.path("stop").asInt(-1) == 0;
  }

  /** Ids covered: 0 to size − 1. */
  int size() {
    return text.length;
  }

  /** The text of {@code ids}, or null when an id is not in the vocabulary (the caller decides). */
  String decode(int[] ids) {
    StringBuilder sb = new StringBuilder(ids.length * 5);
    byte[] run = new byte[16];
    int runLen = 0;
    for (int id : ids) {
      if (id < 0 || id >= text.length || text[id] == null) {
        return null;
      }
      short b = bytes[id];
      if (b >= 0) {
        if (runLen == run.length) {
          run = java.util.Arrays.copyOf(run, runLen * 2);
        }
        run[runLen++] = (byte) b;
        continue;
      }
      if (runLen > 0) {
        flush(sb, run, runLen);
        runLen = 0;
      }
      sb.append(text[id]);
    }
    if (runLen > 0) {
      flush(sb, run, runLen);
    }
    if (sb.length() > 0 && sb.charAt(0) == ' ') {
      sb.deleteCharAt(0);
    }
    return sb.toString();
  }

  /** A byte run: its UTF-8 text when valid, else one U+FFFD per byte (as ByteFallback does). */
  private static void flush(StringBuilder sb, byte[] run, int len) {
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      CharBuffer cb = utf8.decode(ByteBuffer.wrap(run, 0, len));
      sb.append(cb);
    } catch (CharacterCodingException e) {
      for (int k = 0; k < len; k++) {
        sb.append('\uFFFD');
      }
    }
  }
}
