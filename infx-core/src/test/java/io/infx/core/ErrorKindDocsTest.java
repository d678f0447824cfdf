package io.infx.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/errors.md lists every error kind with its wire name, constant and exit status. */
class ErrorKindDocsTest {

  @Test
  void everyKindIsDocumented() throws IOException {
    Path doc = Path.of("..", "docs", "errors.md");
    assumeTrue(Files.isRegularFile(doc), "docs/errors.md not found beside the module (run from the repository)");
    String text = Files.readString(doc);
    for (ErrorKind k : ErrorKind.values()) {
      assertThat(text).as("docs/errors.md row of %s", k)
          .contains("| `" + k.wireName() + "` | `" + k.name() + "` | " + k.exitCode() + " |");
    }
  }
}
