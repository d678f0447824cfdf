package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code ServeJob.run()}, {@code run(ServeListener)} and the printing listener of {@code bench serve}. */
@Timeout(120)
class ServeListenerTest {

  private static ImmutableServeJob.Builder job(SimServer sim) {
    return ServeJob.builder().backend(ServingBackend.VLLM).baseUrl(sim.baseUri()).model("infx/sim-model")
        .tokenizer("builtin").numPrompts(8).numWarmups(2).randomInputLen(16).randomOutputLen(4)
        .maxConcurrency(2).saveResult(false);
  }

  @Test
  void aListenerHearsNotesProgressAndTheSummaryInOrder() {
    List<String> events = new CopyOnWriteArrayList<>();
    ServeListener recording = new ServeListener() {
      @Override
      public void note(String text) {
        events.add("note " + text);
      }

      @Override
      public void warning(String text) {
        events.add("warning " + text);
      }

      @Override
      public void progress(ServeBenchmark.Progress p) {
        events.add("progress " + p.phase() + " " + p.finished() + "/" + p.total());
      }

      @Override
      public void summary(String table) {
        events.add("summary " + table);
      }
    };
    try (SimServer sim = SimServer.start(SimConfig.builder().decodeStepBase(Duration.ofMillis(20)).build())) {
      ServeJob.Outcome o = job(sim).build().run(recording);
      assertThat(o.metrics().completed()).isEqualTo(8);
      assertThat(o.gateFailure()).isEmpty();
    }
    assertThat(events.get(0)).startsWith("note server: ").contains("infx-sim");
    // the reporter sends each phase's progress every 250 ms and once at its end, the warm-up first
    assertThat(events).contains("progress WARMUP 2/2", "progress MEASURED 8/8");
    assertThat(events.indexOf("progress WARMUP 2/2")).isLessThan(events.indexOf("progress MEASURED 8/8"));
    String last = events.get(events.size() - 1);
    assertThat(last).startsWith("summary ============ Serving Benchmark Result ============")
        .contains("Successful requests:").contains("8");
    assertThat(events).filteredOn(e -> e.startsWith("summary")).hasSize(1);
  }

  @Test
  void runIsSilentAndTheProgressSwitchStillHolds() {
    List<String> progress = new CopyOnWriteArrayList<>();
    try (SimServer sim = SimServer.start(SimConfig.defaults())) {
      ServeJob.Outcome silent = job(sim).build().run();
      assertThat(silent.metrics().completed()).isEqualTo(8);
      ServeJob.Outcome noBar = job(sim).progress(false).build().run(new ServeListener() {
        @Override
        public void progress(ServeBenchmark.Progress p) {
          progress.add(p.toString());
        }
      });
      assertThat(noBar.metrics().completed()).isEqualTo(8);
    }
    assertThat(progress).isEmpty();
  }

  @Test
  void thePrintingListenerWritesWhatBenchServeWrites() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    try (SimServer sim = SimServer.start(SimConfig.defaults())) {
      job(sim).build().run(new PrintWriter(out), new PrintWriter(err));
    }
    assertThat(out.toString()).startsWith("============ Serving Benchmark Result ============")
        .doesNotContain("infx: ");
    String e = err.toString();
    assertThat(e).startsWith("infx: server: ").contains("measured |");
    // the bar's last redraw ends its line before anything else is printed
    assertThat(e).doesNotContain("]infx:");
  }
}
