package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.tokenizer.HfTokenizer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Per-chunk token counts with a real SentencePiece-style {@code tokenizer.json} (LLaMA converter:
 * a {@code ▁} is prepended to every encoded text), from {@code ../shared/realserver/tokenizer}.
 */
class PerTokenItlHfTest {

  @Test
  void chunksThatStartAWordAreNotCountedTwice() {
    Path dir = SharedDir.find("realserver/tokenizer").orElse(null);
    Assumptions.assumeTrue(dir != null, "no " + SharedDir.describe("realserver/tokenizer")
        + ": skipped (the LLaMA tokenizer.json is not here)");
    try (HfTokenizer t = HfTokenizer.load(dir.resolve("tokenizer.json"), "llama")) {
      // one LLaMA token each, as llama-server streams them: "Hello", "▁world", "▁this", "▁is"
      List<String> chunks = List.of("Hello", " world", " this", " is");
      for (String c : chunks.subList(1, chunks.size())) {
        assertThat(t.count(c)).as("counted alone, '%s' gets a second ▁", c).isGreaterThan(1);
      }
      PerTokenItl.Attribution a = PerTokenItl.attribute(4, null, -1, chunks, t);
      assertThat(a.tokensPerChunk()).containsExactly(1, 1, 1, 1);
    }
  }
}
