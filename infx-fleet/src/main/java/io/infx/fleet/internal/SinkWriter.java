package io.infx.fleet.internal;

import io.infx.fleet.spi.LogSink;
import java.io.PrintWriter;
import java.io.Writer;

/** A {@link PrintWriter} whose lines go to a {@link LogSink}. */
public final class SinkWriter extends Writer {

  private final LogSink sink;
  private final String source;
  private final StringBuilder line = new StringBuilder();

  private SinkWriter(LogSink sink, String source) {
    this.sink = sink;
    this.source = source;
  }

  public static PrintWriter of(LogSink sink, String source) {
    return new PrintWriter(new SinkWriter(sink, source), true);
  }

  @Override
  public synchronized void write(char[] cbuf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      char c = cbuf[i];
      if (c == '\n') {
        emit();
      } else if (c != '\r') {
        line.append(c);
      }
    }
  }

  private void emit() {
    sink.line(source, line.toString());
    line.setLength(0);
  }

  @Override
  public synchronized void flush() {
    // lines are emitted as they complete
  }

  @Override
  public synchronized void close() {
    if (line.length() > 0) {
      emit();
    }
  }
}
