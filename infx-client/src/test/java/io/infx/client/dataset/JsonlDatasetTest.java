package io.infx.client.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.InfxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * JSON Lines prompts: {@code {"prompt": ..., "output_tokens": n?}} per line, blank lines skipped,
 * {@code limit} prompts (cycling a shorter file), counts by the client tokenizer, and an error
 * that names the file and the physical line of the first bad entry.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JsonlDatasetTest {

  private static final BuiltinTokenizer TOK = BuiltinTokenizer.instance();

  private static Path write(Path dir, String... lines) throws Exception {
    Path f = dir.resolve("prompts.jsonl");
    Files.writeString(f, String.join("\n", lines) + "\n");
    return f;
  }

  @Test
  void readsPromptsOutputLengthsAndTokenCounts(@TempDir Path dir) throws Exception {
    Path f = write(dir,
        "{\"prompt\": \"Hello, world!\", \"output_tokens\": 7}",
        "",
        "{\"prompt\": \"one two three\"}",
        "   ",
        "{\"prompt\": \"caf\\u00e9 \\\"quoted\\\"\", \"output_tokens\": 1, \"extra\": true}");
    List<Prompt> ps = JsonlDataset.read(f, TOK, 32, 3);
    assertThat(ps).extracting(Prompt::text)
        .containsExactly("Hello, world!", "one two three", "café \"quoted\"");
    assertThat(ps).extracting(Prompt::outputTokens).containsExactly(7, 32, 1);
    // "Hello" "," " world" "!" = 4; " two" and " three" after "one" = 3
    assertThat(ps.get(0).promptTokens()).isEqualTo(4);
    assertThat(ps.get(1).promptTokens()).isEqualTo(3);
    assertThat(ps.get(2).promptTokens()).isEqualTo(TOK.count("café \"quoted\""));
  }

  @Test
  void numPromptsTruncatesOrCycles(@TempDir Path dir) throws Exception {
    Path f = write(dir, "{\"prompt\": \"a\"}", "{\"prompt\": \"b\"}", "{\"prompt\": \"c\"}");
    assertThat(JsonlDataset.read(f, TOK, 4, 2)).extracting(Prompt::text).containsExactly("a", "b");
    assertThat(JsonlDataset.read(f, TOK, 4, 7)).extracting(Prompt::text)
        .containsExactly("a", "b", "c", "a", "b", "c", "a");
  }

  @Test
  void aBadLineIsReportedWithFileAndLine(@TempDir Path dir) throws Exception {
    // line 4 (blank line 2 still counts as a line) is not JSON
    Path f = write(dir, "{\"prompt\": \"ok\"}", "", "{\"prompt\": \"ok too\"}",
        "{\"prompt\": \"broken\"", "{\"prompt\": \"after\"}");
    assertThatThrownBy(() -> JsonlDataset.read(f, TOK, 4, 10))
        .isInstanceOf(InfxException.class)
        .hasMessageContaining(f + ":4:")
        .hasMessageContaining("not valid JSON");

    Path noPrompt = write(dir, "{\"prompt\": \"ok\"}", "{\"text\": \"no prompt key\"}");
    assertThatThrownBy(() -> JsonlDataset.read(noPrompt, TOK, 4, 10))
        .isInstanceOf(InfxException.class).hasMessageContaining(noPrompt + ":2:")
        .hasMessageContaining("\"prompt\"");

    Path numeric = write(dir, "{\"prompt\": 12}");
    assertThatThrownBy(() -> JsonlDataset.read(numeric, TOK, 4, 10))
        .isInstanceOf(InfxException.class).hasMessageContaining(numeric + ":1:");

    for (String bad : new String[] {"0", "-3", "2.5", "\"8\""}) {
      Path f2 = write(dir, "{\"prompt\": \"x\"}", "{\"prompt\": \"y\", \"output_tokens\": " + bad
          + "}");
      assertThatThrownBy(() -> JsonlDataset.read(f2, TOK, 4, 10)).as(bad)
          .isInstanceOf(InfxException.class).hasMessageContaining(f2 + ":2:")
          .hasMessageContaining("output_tokens");
    }
  }

  @Test
  void emptyOrMissingFilesAreClearErrors(@TempDir Path dir) throws Exception {
    Path empty = write(dir, "", "  ");
    assertThatThrownBy(() -> JsonlDataset.read(empty, TOK, 4, 1))
        .isInstanceOf(InfxException.class).hasMessageContaining("no prompts");
    Path missing = dir.resolve("nope.jsonl");
    assertThatThrownBy(() -> JsonlDataset.read(missing, TOK, 4, 1))
        .isInstanceOf(InfxException.class).hasMessageContaining(missing.toString());
  }
}
