package io.infx.fleet.bench;

import java.util.function.IntConsumer;

/**
 * SIGTERM/SIGINT handling for programs that own a {@link io.infx.fleet.spi.Lifecycle}: the handler
 * gets the signal number (so the program can exit {@code 128+N} after its cleanups). Uses the
 * JDK's {@code sun.misc.Signal} (module {@code jdk.unsupported}); when it is unavailable,
 * nothing is installed and the JVM's default handling applies.
 */
public final class Signals {

  private Signals() {}

  /** Installs {@code handler} for TERM and INT. */
  public static void onTermination(IntConsumer handler) {
    for (String name : new String[] {"TERM", "INT"}) {
      try {
        sun.misc.Signal.handle(new sun.misc.Signal(name), s -> handler.accept(s.getNumber()));
      } catch (IllegalArgumentException | LinkageError e) {
        // signal not supported here
      }
    }
  }
}
