package io.infx.core.tree;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Location;
import io.infx.core.Violation;
import io.infx.core.ValidationException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * An input document: a file (read when needed) or an in-memory text, with the label users see in
 * error locations ({@code label:line:column}). For files the label is the path as the user wrote it,
 * so messages match what they typed even when the file was resolved against another directory.
 */
public final class Source {

  private final String label;
  private final Path path;
  private final String text;

  private Source(String label, Path path, String text) {
    this.label = Objects.requireNonNull(label, "label");
    this.path = path;
    this.text = text;
  }

  /** The file {@code path}, labelled as written. */
  public static Source file(Path path) {
    return new Source(path.toString(), path, null);
  }

  /** The file {@code path}, labelled {@code label} (e.g. the relative path the user typed). */
  public static Source file(Path path, String label) {
    return new Source(label, Objects.requireNonNull(path, "path"), null);
  }

  /** An in-memory document, e.g. a file's content at another git revision. */
  public static Source text(String label, String text) {
    return new Source(label, null, Objects.requireNonNull(text, "text"));
  }

  public String label() {
    return label;
  }

  /** The file behind this source, if it is one. */
  public Optional<Path> path() {
    return Optional.ofNullable(path);
  }

  /** Whether the source can be read: always for texts; for files, an existing regular file. */
  public boolean exists() {
    return path == null || Files.isRegularFile(path);
  }

  /**
   * Why a file source cannot be read, worded to follow its name: {@code does not exist},
   * {@code is a directory, not a file}, {@code is a symbolic link loop}, …
   */
  public String whyMissing() {
    if (path != null && Files.isDirectory(path)) {
      return "is a directory, not a file";
    }
    return path == null ? "is readable" : io.infx.core.io.TextFiles.whyMissing(path);
  }

  /**
   * The document's text.
   *
   * @throws InfxException kind {@code file} when the file is missing, a directory or unreadable
   * @throws ValidationException kind {@code input} when it exceeds {@code limits.maxBytes()} or is
   *     not valid UTF-8
   */
  public String read(TreeLimits limits) {
    if (path == null) {
      if (text.length() > limits.maxBytes()) {
        throw tooLarge(text.length(), limits);
      }
      return text;
    }
    try {
      if (Files.isDirectory(path)) {
        throw new InfxException(ErrorKind.FILE, "'" + label + "' is a directory, not a file");
      }
      long size = Files.size(path);
      if (size > limits.maxBytes()) {
        throw tooLarge(size, limits);
      }
      byte[] bytes = Files.readAllBytes(path);
      try {
        return StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(java.nio.ByteBuffer.wrap(bytes))
            .toString();
      } catch (CharacterCodingException e) {
        throw new ValidationException(ErrorKind.INPUT, java.util.List.of(Violation.builder()
            .ruleId("input.encoding")
            .location(new Location(label, 1, 1))
            .message("'" + label + "' is not valid UTF-8 text")
            .build()));
      }
    } catch (NoSuchFileException e) {
      throw new InfxException(ErrorKind.FILE, "'" + label + "' " + io.infx.core.io.TextFiles.whyMissing(path));
    } catch (AccessDeniedException e) {
      throw new InfxException(ErrorKind.FILE, "'" + label + "' cannot be read: permission denied");
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "'" + label + "' cannot be read: " + e.getMessage(), e);
    }
  }

  private ValidationException tooLarge(long size, TreeLimits limits) {
    return new ValidationException(ErrorKind.INPUT, java.util.List.of(Violation.builder()
        .ruleId("input.too-large")
        .location(new Location(label, 1, 1))
        .expected("at most " + limits.maxBytes() + " bytes")
        .actual(size + " bytes")
        .message("'" + label + "' is too large to be a configuration file")
        .build()));
  }

  @Override
  public String toString() {
    return label;
  }
}
