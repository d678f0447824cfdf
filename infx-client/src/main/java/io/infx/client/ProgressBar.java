package io.infx.client;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The one-line live progress of a benchmark on stderr (carriage-return redraw), like the
 * reference's tqdm bar: {@code label |#####     | detail}. The one home of that line for
 * {@code infx bench serve} (requests of a fixed-size phase, {@link #update(ServeBenchmark.Progress)})
 * and {@code infx bench agentic} (a time-bounded window, through {@link #show}); a new phase label
 * starts a new line, an unchanged line is not redrawn.
 */
public final class ProgressBar {

  private static final int WIDTH = 30;

  private final PrintWriter err;
  private String label;
  private String last = "";

  /** A bar drawn on {@code err} (stderr of the command). */
  public ProgressBar(PrintWriter err) {
    this.err = err;
  }

  synchronized void update(ServeBenchmark.Progress p) {
    double secs = p.elapsedNanos() / 1e9;
    double rate = secs > 0 ? p.finished() / secs : 0;
    show(p.phase() == RequestRecord.Phase.WARMUP ? "warm-up" : "measured",
        p.total() == 0 ? 1 : (double) p.finished() / p.total(),
        String.format(Locale.ROOT, "%d/%d [%.1fs, %.1f req/s, %d in flight%s]", p.finished(),
            p.total(), secs, rate, p.inFlight(), p.failed() > 0 ? ", " + p.failed() + " failed" : ""));
  }

  /**
   * Draws (or redraws) the line.
   *
   * @param phaseLabel what runs, e.g. {@code warm-up}; a different label than the previous call's
   *     ends the previous line
   * @param fraction how much of the phase is done, clamped to [0, 1] (requests, or time of a
   *     time-bounded window)
   * @param detail the counters after the bar
   */
  public synchronized void show(String phaseLabel, double fraction, String detail) {
    if (label != null && !label.equals(phaseLabel)) {
      err.println();
    }
    label = phaseLabel;
    double f = Double.isNaN(fraction) ? 0 : Math.max(0, Math.min(1, fraction));
    int filled = (int) (f * WIDTH);
    String line = String.format(Locale.ROOT, "\r%-8s |%s%s| %s", phaseLabel,
        "#".repeat(filled), " ".repeat(WIDTH - filled), detail);
    if (!line.equals(last)) {
      err.print(line);
      err.flush();
      last = line;
    }
  }

  /** Ends the line (once anything was drawn), so what follows starts on its own line. */
  public synchronized void finish() {
    if (label != null) {
      err.println();
      err.flush();
      label = null;
      last = "";
    }
  }
}
