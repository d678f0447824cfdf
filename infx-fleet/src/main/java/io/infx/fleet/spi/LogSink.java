package io.infx.fleet.spi;

/** Receives a job's output line by line (thread-safe implementations only). */
@FunctionalInterface
public interface LogSink {

  /**
   * @param source where the line comes from, e.g. {@code server} or {@code slurm-1234}
   * @param line one line without its terminator
   */
  void line(String source, String line);

  /** Drops everything. */
  static LogSink discard() {
    return (s, l) -> { };
  }

  /** Prefixes each line with {@code [source] } and prints it. */
  static LogSink to(java.io.PrintWriter out) {
    return (s, l) -> {
      synchronized (out) {
        out.println("[" + s + "] " + l);
        out.flush();
      }
    };
  }
}
