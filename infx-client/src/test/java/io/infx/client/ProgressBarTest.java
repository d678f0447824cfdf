package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The one progress line of {@code bench serve} and {@code bench agentic}. */
class ProgressBarTest {

  private final StringWriter out = new StringWriter();
  private final ProgressBar bar = new ProgressBar(new PrintWriter(out));

  @Test
  void serveLineShowsRequestsOfThePhaseRateInFlightAndFailures() {
    // 10 of 40 in 2 s: a quarter of the 30-character bar, 5 req/s
    bar.update(new ServeBenchmark.Progress(RequestRecord.Phase.MEASURED, 10, 40, 1, 3, 2_000_000_000L));
    assertThat(out.toString()).isEqualTo("\rmeasured |" + "#".repeat(7) + " ".repeat(23)
        + "| 10/40 [2.0s, 5.0 req/s, 3 in flight, 1 failed]");
  }

  @Test
  void anUnchangedLineIsNotRedrawnAndANewPhaseStartsANewLine() {
    bar.show("warm-up", 0.5, "a");
    bar.show("warm-up", 0.5, "a");
    bar.show("profiling", 0, "b");
    bar.show("profiling", 2, "c"); // clamped: a full bar
    bar.finish();
    bar.finish(); // nothing more
    assertThat(out.toString()).isEqualTo("\rwarm-up  |" + "#".repeat(15) + " ".repeat(15) + "| a\n"
        + "\rprofiling |" + " ".repeat(30) + "| b"
        + "\rprofiling |" + "#".repeat(30) + "| c\n");
  }

  @Test
  void finishWithoutAnyLineWritesNothing() {
    bar.finish();
    assertThat(out.toString()).isEmpty();
  }
}
