package io.infx.core.io;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The rule for names that become file names (exp-name, {@code RESULT_FILENAME}, runner names,
 * artifact names) and for the parts they are made of: one path segment that stays inside its
 * directory. Checked where such names are made (generation, launch) so that a bad name is refused
 * with a located error before any file is written.
 */
public final class FileNames {

  /** Longest file name most file systems accept, in UTF-8 bytes. */
  public static final int MAX_BYTES = 255;

  /**
   * Regular expression a name part must match: no {@code /}, {@code \} or control character
   * (used in {@code @Pattern} constraints of config types).
   */
  public static final String PART_REGEX = "[^/\\\\\\x00-\\x1F\\x7F]*";

  /** Why a part must match {@link #PART_REGEX}. */
  public static final String PART_MESSAGE = "must not contain '/', '\\' or control characters:"
      + " it becomes part of file names (exp-name, RESULT_FILENAME)";

  private FileNames() {}

  /**
   * Why {@code name} cannot be used as a file name, or empty when it can: it must be non-empty,
   * not {@code .} or {@code ..}, free of {@code /}, {@code \} and control characters, and at most
   * {@link #MAX_BYTES} UTF-8 bytes.
   */
  public static Optional<String> problem(@Nullable String name) {
    if (name == null || name.isEmpty()) {
      return Optional.of("is empty");
    }
    if (name.equals(".") || name.equals("..")) {
      return Optional.of("is '" + name + "', which names a directory");
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || c == '\\') {
        return Optional.of("contains '" + c + "' at position " + (i + 1)
            + " (a file name must stay inside its directory)");
      }
      if (c < 0x20 || c == 0x7F) {
        return Optional.of("contains the control character U+" + String.format("%04X", (int) c)
            + " at position " + (i + 1));
      }
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      return Optional.of("is " + bytes + " bytes long (at most " + MAX_BYTES + ")");
    }
    return Optional.empty();
  }

  /** Whether {@code name} is a usable file name ({@link #problem(String)} is empty). */
  public static boolean isSafe(@Nullable String name) {
    return problem(name).isEmpty();
  }
}
