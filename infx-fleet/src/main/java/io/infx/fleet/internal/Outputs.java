package io.infx.fleet.internal;

import io.infx.fleet.spi.BackendException;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;

/** Copying job outputs into a launcher's workspace. */
public final class Outputs {

  private Outputs() {}

  /**
   * Copies every file under {@code from} into {@code to}, keeping relative paths; a file that
   * already is the destination file (same path, or a bind mount of it) is not copied. Idempotent.
   *
   * @throws BackendException (retriable, storage) when a copy fails
   */
  public static void copyTree(Path from, Path to) {
    Path src = from.toAbsolutePath().normalize();
    Path dst = to.toAbsolutePath().normalize();
    if (src.equals(dst) || !Files.isDirectory(src)) {
      return;
    }
    try {
      Files.walkFileTree(src, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
          if (dir.startsWith(dst)) {
            return FileVisitResult.SKIP_SUBTREE;
          }
          Files.createDirectories(dst.resolve(src.relativize(dir)));
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Path target = dst.resolve(src.relativize(file));
          if (!(Files.exists(target) && Files.isSameFile(file, target))) {
            Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
          }
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new BackendException("cannot copy outputs from " + src + " to " + dst + ": " + e.getMessage(), true, e);
    }
  }
}
