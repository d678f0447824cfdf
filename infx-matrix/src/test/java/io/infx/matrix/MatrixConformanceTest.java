package io.infx.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.core.InfxException;
import io.infx.core.python.PythonJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every generator case of the shared matrix corpus ({@code conformance/matrix/cases}), run
 * in-process through {@link GeneratorCommandLine} (the same parser and pipeline as
 * {@code infx generate}). Success cases must print the expected rows exactly: values, row order
 * and key order (compared as the reference's {@code json.dumps} text of both). Error cases must
 * fail with the expected error kind, a non-zero exit status, and the {@code message_contains} text.
 */
class MatrixConformanceTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path work;

  @TestFactory
  Stream<DynamicTest> corpusCases() throws IOException {
    Path corpus = Corpus.matrix();
    JsonNode index = JSON.readTree(corpus.resolve("index.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : index.get("cases")) {
      String dir = c.get("dir").asText();
      tests.add(DynamicTest.dynamicTest(dir + " [" + c.get("kind").asText() + "]", () -> runCase(corpus, dir)));
    }
    return tests.stream();
  }

  private void runCase(Path corpus, String dir) throws IOException {
    Path caseDir = corpus.resolve(dir);
    JsonNode spec = JSON.readTree(caseDir.resolve("case.json").toFile());
    List<String> args = new ArrayList<>();
    spec.get("args").forEach(a -> args.add(a.asText()));
    // A fresh working directory: configs/ plus the case's own inputs, as the reference saw them.
    Path cwd = Files.createDirectories(work.resolve(caseDir.getFileName().toString()));
    Files.createSymbolicLink(cwd.resolve("configs"), corpus.resolve("configs"));
    try (Stream<Path> files = Files.list(caseDir)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".yaml")) {
          Files.createSymbolicLink(cwd.resolve(name), f);
        }
      }
    }
    Path expected = caseDir.resolve("expected.json");
    if (Files.exists(expected)) {
      Matrix matrix;
      try {
        matrix = GeneratorCommandLine.run(args, cwd);
      } catch (InfxException e) {
        fail("expected rows, got " + e.kind().wireName() + " error: " + e.getMessage());
        return;
      }
      Object want = JSON.readValue(expected.toFile(), Object.class);
      String wantText = PythonJson.dumpsValue(want);
      String gotText = matrix.toJson();
      if (!gotText.equals(wantText)) {
        List<?> wantRows = (List<?>) want;
        assertThat(matrix.size()).as("row count").isEqualTo(wantRows.size());
        for (int i = 0; i < wantRows.size(); i++) {
          assertThat(matrix.get(i).toJson()).as("row " + i).isEqualTo(PythonJson.dumpsValue(wantRows.get(i)));
        }
      }
      return;
    }
    JsonNode err = JSON.readTree(caseDir.resolve("expected-error.json").toFile());
    try {
      Matrix m = GeneratorCommandLine.run(args, cwd);
      fail("expected a " + err.get("error_kind").asText() + " error, got " + m.size() + " rows");
    } catch (InfxException e) {
      assertThat(e.exitCode()).as("exit status").isNotZero();
      assertThat(e.getMessage()).as("error message").contains(err.get("message_contains").asText());
      assertThat(e.kind().wireName()).as("error kind").isEqualTo(err.get("error_kind").asText());
      assertThat(e.exitCode()).as("exit status").isEqualTo(err.get("error_kind").asText().equals("usage") ? 2 : 1);
    }
  }
}
