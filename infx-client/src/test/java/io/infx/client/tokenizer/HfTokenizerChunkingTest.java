package io.infx.client.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Piecewise encoding of long texts gives exactly the ids of encoding the whole text, on the real
 * LLaMA vocabulary of {@code ../shared/realserver/tokenizer} (skipped, with the reason, when
 * absent). Texts are built as the random dataset builds them: random and consecutive ids decoded.
 */
class HfTokenizerChunkingTest {

  private static Path tokenizerJson() {
    String env = System.getenv("INFX_SHARED");
    Path base = env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("infx.repo.root", ".")).toAbsolutePath().resolve("../shared");
    return base.resolve("realserver/tokenizer/tokenizer.json").normalize();
  }

  @Test
  void longTextsEncodeInPiecesToTheSameIdsAsWhole() {
    Path f = tokenizerJson();
    assumeTrue(Files.isRegularFile(f), "no LLaMA tokenizer.json at " + f);
    try (HfTokenizer t = HfTokenizer.load(f, "llama")) {
      assertThat(t.chunked()).as("the LLaMA converter's tokenizer.json is provably chunkable").isTrue();
      SplittableRandom rng = new SplittableRandom(7);
      for (int round = 0; round < 6; round++) {
        int n = 3000 + rng.nextInt(6000);
        int[] ids = new int[n];
        int off = rng.nextInt(t.vocabSize());
        for (int j = 0; j < n; j++) {
          ids[j] = round % 2 == 0 ? rng.nextInt(t.vocabSize()) : (off + j) % t.vocabSize();
        }
        String text = t.decode(ids);
        assertThat(t.encode(text)).as("round " + round).isEqualTo(t.encodeWhole(text));
        // a second pass is served from the word cache and must not differ
        assertThat(t.encode(text)).as("round " + round + ", cached").isEqualTo(t.encodeWhole(text));
      }
    }
  }

  /**
   * Added tokens split the text before normalisation, so the space before {@code <s>} becomes a
   * {@code ▁} token of its own and the space after it a doubled {@code ▁}: cutting there would
   * drop a token. Also leading, trailing and repeated spaces, and short texts.
   */
  @Test
  void spacesNextToAddedTokensAndEdgeSpacingEncodeAsWhole() {
    Path f = tokenizerJson();
    assumeTrue(Files.isRegularFile(f), "no LLaMA tokenizer.json at " + f);
    try (HfTokenizer t = HfTokenizer.load(f, "llama")) {
      for (String text : new String[] {"foo <s>bar baz", "foo<s> bar baz", "a </s> b <unk> c",
          "x <s> <s> y", " leading space", "trailing space ", "two  spaces here", "", " ", "a",
          "tab\there and\nnew line", "héllo wörld 日本 語 🙂 x", "<s>", "a <s>", "<s> a"}) {
        assertThat(t.encode(text)).as("'%s'", text).isEqualTo(t.encodeWhole(text));
      }
      // the same words again, from the cache, in a different arrangement
      String mixed = "bar baz foo <s>bar two  spaces a </s> b";
      assertThat(t.encode(mixed)).isEqualTo(t.encodeWhole(mixed));
    }
  }

  /** The Java decoder takes over on the LLaMA vocabulary and gives the native decoder's text. */
  @Test
  void javaDecoderGivesTheNativeText() {
    Path f = tokenizerJson();
    assumeTrue(Files.isRegularFile(f), "no LLaMA tokenizer.json at " + f);
    try (HfTokenizer t = HfTokenizer.load(f, "llama")) {
      assertThat(t.fastDecode()).as("the LLaMA decoder is done in Java").isTrue();
      SplittableRandom rng = new SplittableRandom(99);
      for (int round = 0; round < 200; round++) {
        int n = 1 + rng.nextInt(3000);
        int[] ids = new int[n];
        int off = rng.nextInt(t.vocabSize());
        for (int j = 0; j < n; j++) {
          ids[j] = switch (round % 3) {
            case 0 -> rng.nextInt(t.vocabSize());
            case 1 -> (off + j) % t.vocabSize();
            default -> rng.nextBoolean() ? 3 + rng.nextInt(256) : rng.nextInt(t.vocabSize());
          };
        }
        assertThat(t.decode(ids)).as("round " + round).isEqualTo(t.decodeNative(ids));
      }
    }
  }
}
