package io.infx.core.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.InfxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Output preflight and the run-directory lock (issue 11: output checked too late; two runs on one --out). */
class OutputSafetyTest {

  @TempDir Path dir;

  @Test
  void aWritableDirectoryPassesAndIsLeftWithoutProbeFiles() throws Exception {
    Path out = dir.resolve("new/nested");
    OutputPreflight.check(out, "--result-dir");
    assertThat(out).isDirectory();
    try (var files = Files.list(out)) {
      assertThat(files.toList()).isEmpty();
    }
  }

  @Test
  void aReadOnlyDirectoryOrAFileInTheWayIsRefusedWithItsName() throws Exception {
    Path ro = Files.createDirectory(dir.resolve("ro"));
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      org.junit.jupiter.api.Assumptions.assumeFalse(Files.isWritable(ro), "running as root: permissions are not enforced");
      assertThatThrownBy(() -> OutputPreflight.check(ro, "--result-dir"))
          .isInstanceOf(InfxException.class).hasMessageContaining("--result-dir " + ro)
          .hasMessageContaining("before sending any request");
      assertThatThrownBy(() -> OutputPreflight.check(ro.resolve("sub"), "--out"))
          .isInstanceOf(InfxException.class).hasMessageContaining("cannot create --out");
    } finally {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Path file = Files.writeString(dir.resolve("f"), "x");
    assertThatThrownBy(() -> OutputPreflight.check(file, "--out"))
        .isInstanceOf(InfxException.class).hasMessageContaining("is not a directory");
  }

  @Test
  void aDirectoryWhereNoFileCanBeCreatedIsRefusedEvenForRoot() {
    Path proc = Path.of("/proc");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(proc), "no /proc on this machine");
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> OutputPreflight.check(proc, "--result-dir"))
        .isInstanceOf(InfxException.class).hasMessageContaining("--result-dir /proc");
    assertThat(System.nanoTime() - t0).as("fails fast").isLessThan(2_000_000_000L);
  }

  @Test
  void aSecondHolderOfTheDirectoryLockIsRefusedUntilTheFirstReleasesIt() {
    try (DirectoryLock first = DirectoryLock.acquire(dir, "infx run")) {
      assertThat(first.file()).exists();
      assertThatThrownBy(() -> DirectoryLock.acquire(dir, "infx run"))
          .isInstanceOf(InfxException.class)
          .hasMessageContaining("in use by another infx run")
          .hasMessageContaining("process " + ProcessHandle.current().pid());
    }
    try (DirectoryLock again = DirectoryLock.acquire(dir, "infx run")) {
      assertThat(again.file()).exists();
    }
  }
}
