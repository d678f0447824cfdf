package io.infx.client;

import java.io.PrintWriter;
import java.util.Objects;

/**
 * What a {@link ServeJob} run tells as it goes: notes and warnings (what {@code infx bench serve}
 * prints on stderr after {@code infx: }), progress of the warm-up and measured phases, and the
 * end-of-run summary table (what it prints on stdout). Every method has an empty default, so a
 * listener overrides only what it wants; {@link #silent()} wants nothing.
 *
 * <pre>{@code
 * ServeJob.Outcome o = job.run(new ServeListener() {
 *   @Override public void warning(String text) { log.warn(text); }
 *   @Override public void progress(ServeBenchmark.Progress p) { gauge.set(p.finished()); }
 * });
 * }</pre>
 *
 * <p>Threads: {@link #progress} is called from the benchmark's reporter thread (about every 250 ms
 * of a phase), every other method from the thread that called {@code run}. A listener that throws
 * ends the run with that exception.
 */
public interface ServeListener {

  /**
   * A note about the run: what answered ({@code server: vLLM 0.11.0 (identified by /version)}), the
   * tokenizer and chat template used, the I/O threads and JIT chosen, an interruption.
   *
   * @param text one line, without the command line's {@code infx: } prefix
   */
  default void note(String text) {}

  /**
   * Something that may make the figures wrong or the run fail: a server notice about the prompts,
   * an open-file limit below the concurrency.
   *
   * @param text one line, without the command line's {@code infx: warning: } prefix
   */
  default void warning(String text) {}

  /**
   * Progress of the current phase (warm-up or measured): requests finished, failed and in flight.
   * Called only when the job's {@link ServeJob#progress()} is on (the default).
   */
  default void progress(ServeBenchmark.Progress progress) {}

  /**
   * The summary table of the measured phase, laid out as the reference client's
   * ({@code ============ Serving Benchmark Result ============} …), after the last progress event.
   *
   * @param table the lines of the table, each ending with a line separator
   */
  default void summary(String table) {}

  /** A listener that ignores everything: {@link ServeJob#run()}. */
  static ServeListener silent() {
    return new ServeListener() {};
  }

  /**
   * What {@code infx bench serve} shows: the summary table on {@code out}; notes ({@code infx: …}),
   * warnings ({@code infx: warning: …}) and a live progress bar ({@link ProgressBar}) on {@code err}.
   */
  static ServeListener printing(PrintWriter out, PrintWriter err) {
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
    ProgressBar bar = new ProgressBar(err);
    return new ServeListener() {
      @Override
      public void note(String text) {
        bar.finish();
        err.println("infx: " + text);
      }

      @Override
      public void warning(String text) {
        bar.finish();
        err.println("infx: warning: " + text);
      }

      @Override
      public void progress(ServeBenchmark.Progress progress) {
        bar.update(progress);
      }

      @Override
      public void summary(String table) {
        bar.finish();
        out.print(table);
        out.flush();
      }
    };
  }
}
