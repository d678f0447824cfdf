package io.infx.fleet.internal;

import io.infx.fleet.spi.LogSink;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Follows a growing log file and hands complete lines to a {@link LogSink}; {@link #drain()} also
 * flushes a last unterminated line. Not thread-safe; one follower per file.
 */
public final class LogTail {

  private final Path file;
  private final String source;
  private final LogSink sink;
  private long offset;
  private final StringBuilder partial = new StringBuilder();

  public LogTail(Path file, String source, LogSink sink) {
    this.file = file;
    this.source = source;
    this.sink = sink;
  }

  /** Emits the complete lines written since the last call. */
  public void poll() {
    if (!Files.exists(file)) {
      return;
    }
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long len = raf.length();
      if (len < offset) {
        offset = 0; // truncated
      }
      if (len == offset) {
        return;
      }
      raf.seek(offset);
      byte[] buf = new byte[(int) Math.min(len - offset, 1 << 20)];
      raf.readFully(buf);
      offset += buf.length;
      partial.append(new String(buf, StandardCharsets.UTF_8));
      int nl;
      while ((nl = partial.indexOf("\n")) >= 0) {
        String line = partial.substring(0, nl);
        partial.delete(0, nl + 1);
        sink.line(source, line.endsWith("\r") ? line.substring(0, line.length() - 1) : line);
      }
    } catch (IOException e) {
      // transient (file rotated on a network FS); try again on the next poll
    }
  }

  /** Emits everything left, including an unterminated last line. */
  public void drain() {
    poll();
    if (partial.length() > 0) {
      sink.line(source, partial.toString());
      partial.setLength(0);
    }
  }
}
