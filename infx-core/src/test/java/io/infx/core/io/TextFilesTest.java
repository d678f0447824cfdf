package io.infx.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11: a symlink loop was "does not exist", non-UTF-8 input was "Input length = 1". */
class TextFilesTest {

  @TempDir Path dir;

  @Test
  void aSymlinkLoopADanglingLinkAndAMissingFileAreToldApart() throws Exception {
    Path a = dir.resolve("a.yaml");
    Path b = dir.resolve("b.yaml");
    Files.createSymbolicLink(a, b);
    Files.createSymbolicLink(b, a);
    assertThatThrownBy(() -> TextFiles.readUtf8(a, "a.yaml")).isInstanceOf(InfxException.class)
        .hasMessage("'a.yaml' is a symbolic link loop");
    Path dangling = Files.createSymbolicLink(dir.resolve("d.yaml"), dir.resolve("gone.yaml"));
    assertThatThrownBy(() -> TextFiles.readUtf8(dangling, "d.yaml"))
        .hasMessage("'d.yaml' is a symbolic link to a missing file");
    assertThatThrownBy(() -> TextFiles.readUtf8(dir.resolve("none.yaml"), "none.yaml"))
        .hasMessage("'none.yaml' does not exist");
  }

  @Test
  void nonUtf8BytesAreLocated() throws Exception {
    Path f = Files.write(dir.resolve("latin1.txt"), new byte[] {'o', 'k', '\n', 'c', 'a', 'f', (byte) 0xE9, '\n'});
    assertThatThrownBy(() -> TextFiles.readUtf8(f, "latin1.txt"))
        .hasMessageStartingWith("latin1.txt:2:4: not UTF-8 text (byte 0xE9 at offset 6)")
        .hasMessageNotContaining("Input length");
    Path ok = Files.writeString(dir.resolve("ok.txt"), "héllo 日本\n");
    assertThat(TextFiles.readUtf8(ok, "ok.txt")).isEqualTo("héllo 日本\n");
  }
}
