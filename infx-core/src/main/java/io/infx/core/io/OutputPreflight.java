package io.infx.core.io;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.Wording;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks, before any traffic is sent, that results can be written where they will go: the
 * directory exists or can be created, a file can be created in it and atomically replaced, and
 * the disk has room for a small probe. A read-only, full or invalid result directory therefore
 * fails in well under a second instead of after a multi-hour run whose raw result is then lost.
 */
public final class OutputPreflight {

  /** Size of the probe file written and replaced (bytes). */
  public static final int PROBE_BYTES = 64 * 1024;

  /** Free space below which the directory is refused (bytes): the probe plus a raw result. */
  public static final long MIN_FREE_BYTES = 16L << 20;

  private OutputPreflight() {}

  /**
   * Checks {@code dir} (created when missing, as the result writer would).
   *
   * @param what how the directory is named to the user, e.g. {@code the output directory}
   * @throws InfxException kind {@code file} naming the directory and the cause
   */
  public static void check(Path dir, String what) {
    check(dir, Wording.of(what));
  }

  /**
   * Checks {@code dir} (created when missing, as the result writer would).
   *
   * @param what how the directory is named, e.g. {@code Wording.of(setting("resultDir"))}: the
   *     setting's library name, shown by the command line as its flag
   * @throws InfxException kind {@code file} naming the directory and the cause
   */
  public static void check(Path dir, Wording what) {
    Path d = dir.toString().isEmpty() ? Path.of(".") : dir;
    Path abs = d.toAbsolutePath().normalize();
    if (Files.exists(abs) && !Files.isDirectory(abs)) {
      throw new InfxException(ErrorKind.FILE, Wording.of(what, " " + d + " is not a directory"));
    }
    try {
      Files.createDirectories(abs);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, Wording.of("cannot create ", what, " " + d + ": " + cause(e)
          + " (checked before sending any request)"), e);
    }
    if (!Files.isWritable(abs)) {
      throw new InfxException(ErrorKind.FILE, Wording.of(what, " " + d + " is not writable"
          + " (checked before sending any request)"));
    }
    try {
      FileStore store = Files.getFileStore(abs);
      long free = store.getUsableSpace();
      if (free < MIN_FREE_BYTES) {
        throw new InfxException(ErrorKind.FILE, Wording.of(what, " " + d + " has only " + free
            + " bytes free (at least " + MIN_FREE_BYTES + " needed; checked before sending any request)"));
      }
    } catch (IOException e) {
      // no file-store information (some network file systems): the probe below still decides
    }
    Path probe = abs.resolve(".infx-preflight-" + ProcessHandle.current().pid() + "-"
        + Thread.currentThread().getId());
    try {
      byte[] bytes = new byte[PROBE_BYTES];
      AtomicFiles.write(probe, bytes); // create
      AtomicFiles.write(probe, bytes); // atomically replace
    } catch (InfxException e) {
      throw new InfxException(ErrorKind.FILE, Wording.of("cannot write results into ", what, " " + d + ": "
          + e.getMessage() + " (checked before sending any request)"), e);
    } finally {
      try {
        Files.deleteIfExists(probe);
      } catch (IOException ignored) {
        // the probe is hidden and named after this process
      }
    }
  }

  private static String cause(IOException e) {
    String m = e.getMessage();
    return e.getClass().getSimpleName() + (m == null ? "" : " " + m);
  }
}
