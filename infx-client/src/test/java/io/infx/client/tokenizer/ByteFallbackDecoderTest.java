package io.infx.client.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import org.junit.jupiter.api.Test;

/**
 * The Java LLaMA decoder on a hand-made vocabulary, expected texts worked out from the rules of
 * {@code tokenizers}' Replace/ByteFallback/Fuse/Strip decoders (not from the class itself).
 */
class ByteFallbackDecoderTest {

  private static final String DECODER = "{\"type\":\"Sequence\",\"decoders\":["
      + "{\"type\":\"Replace\",\"pattern\":{\"String\":\"\u2581\"},\"content\":\" \"},"
      + "{\"type\":\"ByteFallback\"},{\"type\":\"Fuse\"},"
      + "{\"type\":\"Strip\",\"content\":\" \",\"start\":1,\"stop\":0}]}";

  private static JsonNode tokenizerJson(String decoder) throws Exception {
    return Json.mapper().readTree("{\"added_tokens\":[{\"id\":0,\"content\":\"<s>\"}],"
        + "\"decoder\":" + decoder + ",\"model\":{\"type\":\"BPE\",\"vocab\":{\"<s>\":0,"
        + "\"<0x41>\":1,\"<0xC3>\":2,\"<0xA9>\":3,\"\u2581a\":4,\"b\":5,\"<0xFF>\":6,"
        + "\"\u2581\u2581\":7,\"<0xZZ>\":8}}}");
  }

  @Test
  void decodesByTheLlamaDecoderRules() throws Exception {
    ByteFallbackDecoder d = ByteFallbackDecoder.of(tokenizerJson(DECODER)).orElseThrow();
    assertThat(d.decode(new int[] {4, 5})).isEqualTo("ab"); // " ab", one leading space dropped
    assertThat(d.decode(new int[] {5, 4})).isEqualTo("b a");
    assertThat(d.decode(new int[] {7, 4})).isEqualTo("  a"); // only one of three spaces dropped
    assertThat(d.decode(new int[] {1, 4})).isEqualTo("A a"); // <0x41> is "A"
    assertThat(d.decode(new int[] {2, 3, 5})).isEqualTo("\u00e9b"); // C3 A9 is é
    // C3 alone is broken UTF-8: one U+FFFD per byte of the run, then the run ends at ▁a
    assertThat(d.decode(new int[] {2, 4})).isEqualTo("\uFFFD a");
    assertThat(d.decode(new int[] {6, 2})).isEqualTo("\uFFFD\uFFFD");
    assertThat(d.decode(new int[] {0, 4})).isEqualTo("<s> a"); // special tokens are kept
    assertThat(d.decode(new int[] {8})).isEqualTo("<0xZZ>"); // not a byte: plain text
    assertThat(d.decode(new int[] {})).isEmpty();
    assertThat(d.decode(new int[] {9})).as("unknown id: left to the native decoder").isNull();
  }

  @Test
  void anyOtherDecoderIsNotTakenOver() throws Exception {
    assertThat(ByteFallbackDecoder.of(tokenizerJson("{\"type\":\"ByteLevel\"}"))).isEmpty();
    assertThat(ByteFallbackDecoder.of(tokenizerJson(DECODER.replace("\"start\":1", "\"start\":2"))))
        .isEmpty();
  }
}
