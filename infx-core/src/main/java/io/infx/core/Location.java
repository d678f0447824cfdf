package io.infx.core;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A position in a user's input file: the file as the user named it, and a 1-based line and column.
 * Rendered the way compilers do, {@code file:line:column}, so editors and terminals can jump to it.
 *
 * @param source the file name as given by the user (or a label such as {@code <stdin>}); never null
 * @param line 1-based line number
 * @param column 1-based column number
 */
public record Location(String source, int line, int column) {

  public Location {
    Objects.requireNonNull(source, "source");
    if (line < 1 || column < 1) {
      throw new IllegalArgumentException("line and column are 1-based: " + line + ":" + column);
    }
  }

  /** A location in {@code file}, named as the user gave it. */
  public static Location of(Path file, int line, int column) {
    return new Location(file.toString(), line, column);
  }

  @Override
  public String toString() {
    return source + ":" + line + ":" + column;
  }
}
