package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --max-parallel, --canary, --fail-fast and resume, with a launcher double (no timing asserted). */
class ParallelRunTest {

  @TempDir Path tmp;

  /** A launcher that records concurrency and fails the points whose conc is in {@code failing}. */
  private static final class Recording implements PointLauncher {
    final AtomicInteger now = new AtomicInteger();
    final AtomicInteger peak = new AtomicInteger();
    final List<String> order = Collections.synchronizedList(new ArrayList<>());
    final List<Integer> failing;

    Recording(List<Integer> failing) {
      this.failing = failing;
    }

    @Override
    public PointResult launch(PlannedPoint p, Path work, PrintWriter log) throws Exception {
      int n = now.incrementAndGet();
      peak.accumulateAndGet(n, Math::max);
      order.add(p.resultFilename());
      try {
        Thread.sleep(300); // long enough for the scheduler to start the others in flight
        if (failing.contains(p.conc().get(0))) {
          return PointResult.failed("injected failure");
        }
        Path agg = work.resolve("agg_" + p.resultFilename() + ".json");
        Files.writeString(agg, "{\"hw\":\"x\",\"conc\":" + p.conc().get(0) + "}");
        return PointResult.succeeded(agg);
      } finally {
        now.decrementAndGet();
      }
    }
  }

  private Path config(String concs) throws Exception {
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    return TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 256, 16, concs));
  }

  private ImmutableRunOptions.Builder opts(Path cfg) {
    return RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"));
  }

  @Test
  void upToMaxParallelPointsAreInFlightAndOutcomesKeepPlanOrder() throws Exception {
    Path cfg = config("[1, 2, 4, 8, 16, 32, 64, 128]");
    Recording l = new Recording(List.of());
    List<Integer> inFlight = Collections.synchronizedList(new ArrayList<>());
    RunOutcome out = BenchmarkRun.of(opts(cfg).maxParallel(4).build(), l).run(new RunListener() {
      @Override
      public void inFlight(int points) {
        inFlight.add(points);
      }
    });
    assertThat(l.peak.get()).isEqualTo(4);
    assertThat(inFlight).hasSize(8).allMatch(n -> n >= 1 && n <= 4).contains(4);
    assertThat(out.points()).extracting(o -> o.point().conc().get(0)).containsExactly(1, 2, 4, 8, 16, 32, 64, 128);
    assertThat(out.points()).allMatch(o -> o.status() == PointOutcome.Status.SUCCEEDED);
    JsonNode run = Json.mapper().readTree(out.layout().runFile().toFile());
    assertThat(run.get("points")).allMatch(p -> p.get("status").asText().equals("succeeded"));

    // resume after a parallel run: every point is taken from the earlier run, nothing launched
    Recording again = new Recording(List.of());
    RunOutcome resumed = BenchmarkRun.of(opts(cfg).maxParallel(4).resume(true).build(), again).run(RunListener.NONE);
    assertThat(again.order).isEmpty();
    assertThat(resumed.points()).allMatch(o -> o.status() == PointOutcome.Status.RESUMED);
  }

  @Test
  void theCanaryRunsFirstAloneAndAFailedCanaryStopsTheSweep() throws Exception {
    Path cfg = config("[8, 2, 4]");
    Recording ok = new Recording(List.of());
    BenchmarkRun.of(opts(cfg).maxParallel(3).canary(true).build(), ok).run(RunListener.NONE);
    assertThat(ok.order.get(0)).contains("_conc2_");
    assertThat(ok.order).hasSize(3);

    Recording bad = new Recording(List.of(2));
    RunOutcome out = BenchmarkRun.of(opts(cfg).maxParallel(3).canary(true).build(), bad).run(RunListener.NONE);
    assertThat(bad.order).singleElement().asString().contains("_conc2_");
    assertThat(out.points()).filteredOn(o -> o.status() == PointOutcome.Status.SKIPPED)
        .hasSize(2).allMatch(o -> o.message().orElse("").contains("canary failed"));
  }

  @Test
  void failFastSkipsTheRestOfTheFamilyThatHasNotStarted() throws Exception {
    Path cfg = config("[1, 2, 4, 8]");
    Recording l = new Recording(List.of(1));
    RunOutcome out = BenchmarkRun.of(opts(cfg).maxParallel(1).failFast(true).build(), l).run(RunListener.NONE);
    assertThat(l.order).singleElement().asString().contains("_conc1_");
    assertThat(out.points()).extracting(PointOutcome::status).containsExactly(PointOutcome.Status.FAILED,
        PointOutcome.Status.SKIPPED, PointOutcome.Status.SKIPPED, PointOutcome.Status.SKIPPED);
    assertThat(out.points().get(1).message()).hasValueSatisfying(m -> assertThat(m).contains("--fail-fast"));

    Recording without = new Recording(List.of(1));
    BenchmarkRun.of(opts(cfg).maxParallel(1).build(), without).run(RunListener.NONE);
    assertThat(without.order).hasSize(4);
  }
}
