package io.infx.matrix.changelog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GithubActionsTest {

  /** Reads a $GITHUB_OUTPUT file the way the runner does. */
  static Map<String, String> readOutputs(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.isEmpty()) {
        continue;
      }
      int heredoc = line.indexOf("<<");
      int eq = line.indexOf('=');
      if (heredoc > 0 && (eq < 0 || heredoc < eq)) {
        String name = line.substring(0, heredoc);
        String delimiter = line.substring(heredoc + 2);
        List<String> value = new java.util.ArrayList<>();
        i++;
        while (!lines[i].equals(delimiter)) {
          value.add(lines[i]);
          i++;
        }
        out.put(name, String.join("\n", value));
      } else {
        out.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return out;
  }

  @Test
  void singleLineValuesAreKeyValueAndOthersHeredocs() {
    Map<String, String> outputs = new LinkedHashMap<>();
    outputs.put("plan", "{\"a\":1}");
    outputs.put("notes", "line one\nEOF\nghadelimiter_\nline four");
    String block = GithubActions.outputBlock(outputs);
    assertThat(block).startsWith("plan={\"a\":1}\nnotes<<ghadelimiter_");
    assertThat(readOutputs(block)).isEqualTo(outputs);
  }

  @Test
  void hostileValuesCannotEndTheBlockOrInjectOutputs() {
    qt().withExamples(200).forAll(strings().allPossible().ofLengthBetween(0, 40))
        .checkAssert(s -> {
          String value = s.replace("\r", "") + "\nevil=1\n" + s;
          Map<String, String> in = Map.of("v", value);
          assertThat(readOutputs(GithubActions.outputBlock(in))).isEqualTo(in);
        });
  }

  @Test
  void namesAreChecked() {
    assertThatThrownBy(() -> GithubActions.outputBlock(Map.of("bad\nname", "x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> GithubActions.outputBlock(Map.of("a=b", "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void appendsToTheOutputFile(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("out");
    Files.writeString(f, "before=1\n");
    GithubActions.appendOutputs(f, Map.of("after", "2"));
    assertThat(Files.readString(f)).isEqualTo("before=1\nafter=2\n");
  }

  @Test
  void chunksHoldAtMost256JobsInOrder() {
    qt().forAll(integers().between(0, 1000)).checkAssert(n -> {
      List<Integer> rows = IntStream.range(0, n).boxed().toList();
      List<List<Integer>> chunks = GithubActions.chunk(rows);
      assertThat(chunks).allSatisfy(c -> assertThat(c).hasSizeBetween(1, 256));
      assertThat(chunks.stream().flatMap(List::stream).toList()).isEqualTo(rows);
      assertThat(chunks).hasSize((n + 255) / 256);
    });
    assertThatThrownBy(() -> GithubActions.chunk(List.of(1), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
