package io.infx.core.io;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads user-supplied text files with errors a user can act on: a missing file, a dangling
 * symbolic link and a symbolic-link loop are told apart (a loop used to be reported as "does not
 * exist"), and bytes that are not UTF-8 are reported with their line and column (instead of the
 * JDK's "Input length = 1").
 */
public final class TextFiles {

  private TextFiles() {}

  /**
   * The whole file as UTF-8 text.
   *
   * @param label how the file is named in messages (usually the path as given)
   * @throws InfxException kind {@code file} when the file is missing, unreadable or not UTF-8
   */
  public static String readUtf8(Path file, String label) {
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw new InfxException(ErrorKind.FILE, "'" + label + "' is a directory, not a file");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new InfxException(ErrorKind.FILE, "'" + label + "' " + whyMissing(file));
    } catch (AccessDeniedException e) {
      throw new InfxException(ErrorKind.FILE, "'" + label + "' cannot be read: permission denied");
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "'" + label + "' " + whyUnreadable(file, e), e);
    }
    return decodeUtf8(bytes, label);
  }

  /**
   * {@code bytes} decoded as UTF-8.
   *
   * @throws InfxException kind {@code file} naming the line and column of the first invalid byte
   */
  public static String decodeUtf8(byte[] bytes, String label) {
    java.util.Objects.requireNonNull(bytes, "bytes");
    java.util.Objects.requireNonNull(label, "label");
    CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    CoderResult r = d.decode(in, out, true);
    if (r.isError()) {
      int at = in.position();
      int line = 1;
      int col = 1;
      for (int i = 0; i < at; i++) {
        if (bytes[i] == '\n') {
          line++;
          col = 1;
        } else if ((bytes[i] & 0xC0) != 0x80) {
          col++; // count characters, not continuation bytes
        }
      }
      throw new InfxException(ErrorKind.FILE, label + ":" + line + ":" + col
          + ": not UTF-8 text (byte 0x" + String.format("%02X", bytes[at] & 0xFF)
          + " at offset " + at + "); is this a binary file or another encoding?");
    }
    d.flush(out);
    out.flip();
    return out.toString();
  }

  /** Why a path that could not be opened is missing: absent, a dangling link or a link loop. */
  public static String whyMissing(Path file) {
    if (Files.isSymbolicLink(file)) {
      try {
        file.toRealPath();
      } catch (FileSystemException e) {
        if (e.getMessage() != null && e.getMessage().contains("Too many levels of symbolic links")) {
          return "is a symbolic link loop";
        }
        return "is a symbolic link to a missing file";
      } catch (IOException e) {
        return "is a symbolic link that cannot be resolved: " + e.getMessage();
      }
    }
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return "cannot be opened";
    }
    return "does not exist";
  }

  private static String whyUnreadable(Path file, IOException e) {
    String m = e.getMessage() == null ? "" : e.getMessage();
    if (m.contains("Too many levels of symbolic links")) {
      return "is a symbolic link loop";
    }
    return "cannot be read: " + m;
  }
}
