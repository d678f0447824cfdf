package io.infx.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

  @TempDir Path dir;

  @Test
  void writesAndReplacesAndCreatesParents() throws IOException {
    Path target = dir.resolve("a/b/agg.json");
    AtomicFiles.writeString(target, "one");
    AtomicFiles.writeString(target, "two");
    assertThat(Files.readString(target)).isEqualTo("two");
    try (var files = Files.list(target.getParent())) {
      assertThat(files).containsExactly(target);
    }
  }

  @Test
  void newFilesAreWorldReadableAndReplacedFilesKeepTheirPermissions() throws IOException {
    Path fresh = dir.resolve("fresh.json");
    AtomicFiles.writeString(fresh, "{}");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)))
        .isEqualTo("rw-r--r--");

    Path kept = dir.resolve("kept.json");
    Files.writeString(kept, "old");
    Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-rw----"));
    AtomicFiles.writeString(kept, "new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)))
        .isEqualTo("rw-rw----");
  }

  @Test
  void failedContentLeavesTargetUntouchedAndNoTemporaryFile() throws IOException {
    Path target = dir.resolve("agg.json");
    AtomicFiles.writeString(target, "finished");
    assertThatThrownBy(() -> AtomicFiles.write(target, out -> {
      out.write("half".getBytes(StandardCharsets.UTF_8));
      throw new IOException("disk gone");
    })).isInstanceOf(InfxException.class).hasMessageContaining("disk gone");
    assertThat(Files.readString(target)).isEqualTo("finished");
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(target);
    }
  }
}
