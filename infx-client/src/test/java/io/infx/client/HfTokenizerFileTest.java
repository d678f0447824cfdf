package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.dataset.Prompt;
import io.infx.client.dataset.RandomDataset;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.client.tokenizer.HfTokenizer;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.client.tokenizer.Tokenizers;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Hugging Face {@code tokenizer.json} through DJL: the shared script
 * {@code bench/fastsse/make_tokenizer.py} writes a WordLevel tokenizer (ids: {@code [UNK]} = 0,
 * {@code w1}..{@code w3999} = 1..3999, whitespace pre-tokenizer), and {@code --tokenizer} given as
 * the file, as a directory holding it, or as a Hugging Face cache repo directory must load it and
 * count tokens by those rules. Skipped, with the reason, when python3 or the script is missing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HfTokenizerFileTest {

  @TempDir
  static Path tmp;
  static Path file;

  @BeforeAll
  static void makeTokenizer() throws Exception {
    Optional<Path> dir = SharedDir.find("bench/fastsse");
    Path script = dir.map(d -> d.resolve("make_tokenizer.py")).orElse(null);
    assumeTrue(script != null && Files.isRegularFile(script),
        "make_tokenizer.py not found at " + SharedDir.describe("bench/fastsse")
            + "; real tokenizer.json tests skipped");
    file = tmp.resolve("tok").resolve("tokenizer.json");
    Files.createDirectories(file.getParent());
    Process p;
    try {
      p = new ProcessBuilder("python3", script.toString(), file.toString())
          .redirectErrorStream(true).start();
    } catch (java.io.IOException e) {
      assumeTrue(false, "python3 is not available (" + e.getMessage()
          + "); real tokenizer.json tests skipped");
      return;
    }
    String log = new String(p.getInputStream().readAllBytes());
    assumeTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0,
        "python3 make_tokenizer.py failed: " + log);
    assertThat(file).isRegularFile();
  }

  private static final String TEXT = "w1 w2  w3999\tw17 hello w4000";

  private static void assertCountsLikeTheWordLevelVocabulary(Tokenizer t) {
    // whitespace split; w1..w3999 are their own ids; "hello" and "w4000" are [UNK] (id 0)
    assertThat(t.encode(TEXT)).containsExactly(1, 2, 3999, 17, 0, 0);
    assertThat(t.count(TEXT)).isEqualTo(6);
    assertThat(t.count("")).isZero();
    // the base vocabulary: [UNK] plus w1..w3999
    assertThat(t.vocabSize()).isEqualTo(4000);
  }

  @Test
  void aFileADirectoryAndACacheRepoDirectoryAllResolve() throws Exception {
    URI nowhere = URI.create("http://127.0.0.1:9");
    try (Tokenizer t = Tokenizers.resolve(Optional.of(file.toString()), "m", nowhere)
        .tokenizer()) {
      assertThat(t).isInstanceOf(HfTokenizer.class);
      assertThat(t.id()).isEqualTo(file.toString());
      assertCountsLikeTheWordLevelVocabulary(t);
    }
    try (Tokenizer t = Tokenizers.resolve(Optional.of(file.getParent().toString()), "m", nowhere)
        .tokenizer()) {
      assertCountsLikeTheWordLevelVocabulary(t);
    }
    // a Hugging Face cache layout: models--org--name/{refs/main, snapshots/<rev>/tokenizer.json}
    Path repo = tmp.resolve("models--org--name");
    Path snap = repo.resolve("snapshots").resolve("abc123");
    Files.createDirectories(snap);
    Files.copy(file, snap.resolve("tokenizer.json"));
    Files.createDirectories(repo.resolve("refs"));
    Files.writeString(repo.resolve("refs/main"), "abc123\n");
    assertThat(Tokenizers.locate(repo.toString())).hasValue(snap.resolve("tokenizer.json"));
    try (Tokenizer t = Tokenizers.resolve(Optional.of(repo.toString()), "m", nowhere)
        .tokenizer()) {
      assertCountsLikeTheWordLevelVocabulary(t);
    }
    // the model path itself is tried when --tokenizer is absent
    try (Tokenizer t = Tokenizers.resolve(Optional.empty(), file.getParent().toString(), nowhere)
        .tokenizer()) {
      assertCountsLikeTheWordLevelVocabulary(t);
    }
  }

  @Test
  void aMissingTokenizerIsAClearErrorNeverADownload() {
    Path missing = tmp.resolve("empty-dir");
    assertThatThrownBy(() -> {
      Files.createDirectories(missing);
      Tokenizers.resolve(Optional.of(missing.toString()), "m", URI.create("http://127.0.0.1:9"));
    }).isInstanceOf(InfxException.class).hasMessageContaining("no tokenizer.json found")
        .hasMessageContaining(missing.toString());
  }

  @Test
  void randomPromptsWithTheRealTokenizerHaveExactLengths() {
    try (Tokenizer t = HfTokenizer.load(file, "wordlevel")) {
      List<Prompt> ps = RandomDataset.generate(t, 50, 5, 1.0, 3, 20, 1);
      for (Prompt p : ps) {
        // ratio 1.0: exactly prefix + ISL tokens, by the tokenizer's own count of the text
        assertThat(p.promptTokens()).isEqualTo(53);
        assertThat(t.count(p.text())).isEqualTo(53);
        int[] ids = t.encode(p.text());
        for (int j = 4; j < ids.length; j++) {
          // consecutive ids mod V after the prefix; "[UNK]" is id 0 and re-encodes to 0
          assertThat(ids[j]).isEqualTo((ids[j - 1] + 1) % 4000);
        }
      }
    }
  }

  @Test
  void aServeJobWithTokenizerFileCountsInputLensWithIt(@TempDir Path dir) throws Exception {
    try (SimServer sim = SimServer.start(SimConfig.defaults())) {
      ServeJob.Outcome o = ServeJob.builder().backend(ServingBackend.VLLM).baseUrl(sim.baseUri())
          .model("org/model").tokenizer(file.toString()).numPrompts(6).randomInputLen(30)
          .randomOutputLen(2).randomRangeRatio(1.0).maxConcurrency(3).saveResult(true)
          .resultDir(dir).resultFilename("raw.json").progress(false)
          .deadlines(Deadlines.all(Duration.ofSeconds(20))).build()
          .run(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
      assertThat(o.metrics().completed()).isEqualTo(6);
      JsonNode raw = Json.mapper().readTree(o.rawFile().orElseThrow().toFile());
      assertThat(raw.get("tokenizer_id").asText()).isEqualTo(file.toString());
      assertThat(raw.get("input_lens")).hasSize(6)
          .allSatisfy(n -> assertThat(n.asInt()).isEqualTo(30));
      assertThat(raw.get("total_input_tokens").asInt()).isEqualTo(180);
    }
  }
}
