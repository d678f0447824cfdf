package io.infx.core.io;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes files so that readers see either the old content or the complete new content, never a
 * half-written file: the bytes go to a temporary sibling, are forced to disk, and the sibling is
 * renamed over the target. An interrupted run therefore loses no finished result.
 */
public final class AtomicFiles {

  private AtomicFiles() {}

  /** Functional body that writes the file's content. */
  @FunctionalInterface
  public interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  /**
   * Atomically replaces {@code target} with {@code bytes}; parent directories are created.
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public static void write(Path target, byte[] bytes) {
    write(target, out -> out.write(bytes));
  }

  /** Atomically replaces {@code target} with {@code text} encoded as UTF-8. */
  public static void writeString(Path target, String text) {
    write(target, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Atomically replaces {@code target} with what {@code content} writes. When {@code content}
   * throws, the target is left untouched and the temporary file removed.
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public static void write(Path target, Content content) {
    Path abs = target.toAbsolutePath();
    Path dir = abs.getParent();
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
      // createTempFile makes the file private (0600); results are meant to be shared like any file.
      setReadableLikeOrdinaryFile(tmp, abs);
      try (OutputStream out = Files.newOutputStream(tmp, StandardOpenOption.WRITE)) {
        content.writeTo(out);
      }
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      try {
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
      }
      tmp = null;
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot write " + target + ": " + describe(e), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // best effort: the temporary file is hidden and named after the target
        }
      }
    }
  }

  private static final Set<PosixFilePermission> ORDINARY = PosixFilePermissions.fromString("rw-r--r--");

  /** Keeps the target's permissions when it exists, else gives the usual rw-r--r--. */
  private static void setReadableLikeOrdinaryFile(Path tmp, Path target) throws IOException {
    if (!Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
      return;
    }
    Set<PosixFilePermission> perms = Files.exists(target)
        ? Files.getPosixFilePermissions(target)
        : ORDINARY;
    Files.setPosixFilePermissions(tmp, perms);
  }

  private static String describe(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : " " + m);
  }
}
