package io.infx.cli;

import io.infx.client.StopSignal;
import io.infx.fleet.bench.Signals;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * SIGINT/SIGTERM for the benchmark commands: the first signal asks the run to stop (no more
 * requests, a bounded grace for those in flight, then the result of what finished is written,
 * marked incomplete); a second one ends the process at once. The command then exits
 * {@code 128 + signal}, as a shell expects of an interrupted program.
 */
final class Interrupts {

  private final StopSignal stop = new StopSignal();
  private final AtomicInteger signal = new AtomicInteger();

  private Interrupts() {}

  /** Installs the handlers (process-wide; the last installed wins). */
  static Interrupts install(PrintWriter err, String graceText) {
    Interrupts i = new Interrupts();
    Signals.onTermination(n -> {
      String name = n == 2 ? "SIGINT" : n == 15 ? "SIGTERM" : "signal " + n;
      if (i.stop.request(name)) {
        i.signal.set(n);
        err.println("infx: " + name + ": no new requests; waiting up to " + graceText
            + " for those in flight, then saving what finished (signal again to abort)");
        err.flush();
      } else {
        Runtime.getRuntime().halt(128 + n);
      }
    });
    return i;
  }

  StopSignal stop() {
    return stop;
  }

  /** {@code 128 + N} after signal N, else {@code normal}. */
  int exitCode(int normal) {
    int n = signal.get();
    return n == 0 ? normal : 128 + n;
  }
}
