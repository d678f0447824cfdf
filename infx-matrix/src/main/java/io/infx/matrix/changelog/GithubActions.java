package io.infx.matrix.changelog;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Helpers for handing a plan to GitHub Actions.
 *
 * <p>{@link #outputBlock} renders step outputs in the {@code $GITHUB_OUTPUT} file format: a value
 * without line breaks as {@code name=value}, any other value as a heredoc
 * {@code name<<DELIMITER … DELIMITER} whose delimiter is random and checked against every line of
 * the value, so no value can end the block early or inject another output. {@link #chunk} splits
 * a bucket into matrices of at most {@value #MAX_MATRIX_JOBS} jobs, GitHub's per-matrix limit.
 */
public final class GithubActions {

  /** GitHub's limit on the jobs one matrix may generate. */
  public static final int MAX_MATRIX_JOBS = 256;

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");
  private static final SecureRandom RANDOM = new SecureRandom();

  private GithubActions() {}

  /**
   * Splits {@code rows} into consecutive chunks of at most {@code max} rows, order kept; an
   * empty list gives no chunks.
   *
   * @throws IllegalArgumentException when {@code max < 1}
   */
  public static <T> List<List<T>> chunk(List<T> rows, int max) {
    if (max < 1) {
      throw new IllegalArgumentException("chunk size must be at least 1: " + max);
    }
    List<List<T>> chunks = new ArrayList<>();
    for (int i = 0; i < rows.size(); i += max) {
      chunks.add(List.copyOf(rows.subList(i, Math.min(rows.size(), i + max))));
    }
    return chunks;
  }

  /** {@link #chunk(List, int)} with GitHub's limit of {@value #MAX_MATRIX_JOBS}. */
  public static <T> List<List<T>> chunk(List<T> rows) {
    return chunk(rows, MAX_MATRIX_JOBS);
  }

  /**
   * Renders outputs in the {@code $GITHUB_OUTPUT} format, in map order.
   *
   * @throws IllegalArgumentException for an output name GitHub would not accept
   */
  public static String outputBlock(Map<String, String> outputs) {
    StringBuilder sb = new StringBuilder();
    outputs.forEach((name, value) -> {
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("invalid GitHub output name: '" + name + "'");
      }
      if (value.indexOf('\n') < 0 && value.indexOf('\r') < 0) {
        sb.append(name).append('=').append(value).append('\n');
        return;
      }
      String delimiter = delimiterFor(value);
      // The runner joins the lines between header and delimiter, so the value's own final
      // newline survives only because one more line break always precedes the delimiter.
      sb.append(name).append("<<").append(delimiter).append('\n')
          .append(value).append('\n')
          .append(delimiter).append('\n');
    });
    return sb.toString();
  }

  /** A delimiter that occurs in no line of {@code value}. */
  static String delimiterFor(String value) {
    while (true) {
      byte[] bytes = new byte[16];
      RANDOM.nextBytes(bytes);
      String d = "ghadelimiter_" + HexFormat.of().formatHex(bytes);
      if (!value.contains(d)) {
        return d;
      }
    }
  }

  /**
   * Appends outputs to the file GitHub names in {@code $GITHUB_OUTPUT} (or any file).
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public static void appendOutputs(Path file, Map<String, String> outputs) {
    String block = outputBlock(outputs);
    try {
      Files.writeString(file, block, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot append to " + file + ": " + e.getMessage(), e);
    }
  }
}
