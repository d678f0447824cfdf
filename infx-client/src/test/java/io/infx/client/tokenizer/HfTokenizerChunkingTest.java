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
        assertThat(text.length()).isGreaterThan(HfTokenizer.CHUNK_CHARS);
        assertThat(t.encode(text)).as("round " + round).isEqualTo(t.encodeWhole(text));
      }
    }
  }
}
