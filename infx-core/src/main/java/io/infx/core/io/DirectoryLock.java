package io.infx.core.io;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on a directory for one process, held through an OS file lock on
 * {@value #FILE_NAME} inside it: a second holder (another process, or another run in this JVM)
 * is refused at once instead of both writing the same files. The OS releases the lock when the
 * process dies, so a crashed run never blocks the next one. The (empty) file stays: deleting it
 * would let a process that opened it just before hold a lock on an unlinked file while a third
 * locks a new one.
 */
public final class DirectoryLock implements AutoCloseable {

  /** Name of the lock file inside the locked directory. */
  public static final String FILE_NAME = ".infx.lock";

  private final Path file;
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(Path file, FileChannel channel, FileLock lock) {
    this.file = file;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Locks {@code dir} (created when missing).
   *
   * @param what what holds the lock, for the message of a refused second holder (e.g. {@code infx run})
   * @throws InfxException kind {@code busy} when another holder has it, {@code file} when the
   *     directory cannot be created or locked
   */
  public static DirectoryLock acquire(Path dir, String what) {
    Path abs = dir.toAbsolutePath().normalize();
    Path file = abs.resolve(FILE_NAME);
    FileChannel ch = null;
    try {
      Files.createDirectories(abs);
      ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.READ);
      FileLock l;
      try {
        l = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        l = null; // held by this JVM
      }
      if (l == null) {
        String holder = holder(ch);
        ch.close();
        throw new InfxException(ErrorKind.BUSY, dir + " is in use by another " + what
            + (holder.isEmpty() ? "" : " (process " + holder + ")")
            + ": wait for it to finish or choose another output directory");
      }
      ch.truncate(0);
      ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
      ch.force(false);
      return new DirectoryLock(file, ch, l);
    } catch (IOException e) {
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // already failing
        }
      }
      throw new InfxException(ErrorKind.FILE, "cannot lock " + dir + ": " + e.getMessage(), e);
    }
  }

  private static String holder(FileChannel ch) {
    try {
      ByteBuffer b = ByteBuffer.allocate(32);
      int n = ch.read(b, 0);
      return n <= 0 ? "" : new String(b.array(), 0, n, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      return "";
    }
  }

  /** The lock file. */
  public Path file() {
    return file;
  }

  /** Releases the lock (the holder's pid is cleared from the file). */
  @Override
  public void close() {
    try {
      channel.truncate(0);
      lock.release();
      channel.close();
    } catch (IOException e) {
      // the OS releases the lock when the channel or the process goes away
    }
  }
}
