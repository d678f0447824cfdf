package io.infx.client;

import java.io.PrintWriter;
import java.util.Locale;

/** A one-line progress bar on stderr (carriage-return redraw), like the reference's tqdm bar. */
final class ProgressBar {

  private final PrintWriter err;
  private RequestRecord.Phase phase;
  private String last = "";

  ProgressBar(PrintWriter err) {
    this.err = err;
  }

  synchronized void update(ServeBenchmark.Progress p) {
    if (phase != null && phase != p.phase()) {
      err.println();
    }
    phase = p.phase();
    int width = 30;
    int filled = p.total() == 0 ? width : (int) ((long) p.finished() * width / p.total());
    double secs = p.elapsedNanos() / 1e9;
    double rate = secs > 0 ? p.finished() / secs : 0;
    String line = String.format(Locale.ROOT, "\r%-8s |%s%s| %d/%d [%.1fs, %.1f req/s, %d in flight%s]",
        phase == RequestRecord.Phase.WARMUP ? "warm-up" : "measured",
        "#".repeat(filled), " ".repeat(width - filled), p.finished(), p.total(), secs, rate,
        p.inFlight(), p.failed() > 0 ? ", " + p.failed() + " failed" : "");
    if (!line.equals(last)) {
      err.print(line);
      err.flush();
      last = line;
    }
  }

  synchronized void finish() {
    if (phase != null) {
      err.println();
      err.flush();
    }
  }
}
