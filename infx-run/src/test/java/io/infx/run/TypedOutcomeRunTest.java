package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.infx.core.json.Json;
import io.infx.results.AggregateRows;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link PointOutcome} carries the typed aggregate row and, for in-process points, the client's statistics. */
class TypedOutcomeRunTest {

  @TempDir Path tmp;

  @Test
  void inProcessPointsCarryTheirRowAndStatisticsAndResumedPointsTheirRow() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 128, 8, "[1, 2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    io.infx.run.ImmutableRunOptions.Builder options = RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out")).promptsPerConc(3);

    RunOutcome out = BenchmarkRun.of(options.build()).run(RunListener.NONE);
    assertThat(out.points()).hasSize(2);
    for (PointOutcome o : out.points()) {
      assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED);
      int conc = o.point().conc().get(0);
      var published = AggregateRows.fromJson(Json.mapper().readTree(
          out.layout().artifactAggregate(o.point().resultFilename(), false).toFile()));
      assertThat(o.aggregate()).contains(published);
      assertThat(o.aggregate().get().conc()).isEqualTo(conc);
      assertThat(o.metrics()).hasValueSatisfying(m -> {
        assertThat(m.requested()).isEqualTo(3 * conc);
        assertThat(m.completed()).isEqualTo(3 * conc);
        assertThat(m.ttft().count()).isEqualTo(3 * conc);
        // the row's median TTFT (s) is the statistics' median (ms) / 1000
        assertThat(published.metrics().get("median_ttft")).isEqualTo(m.ttft().medianMillis().orElseThrow() / 1000.0);
      });
    }

    RunOutcome resumed = BenchmarkRun.of(options.resume(true).build()).run(RunListener.NONE);
    for (int i = 0; i < 2; i++) {
      PointOutcome o = resumed.points().get(i);
      assertThat(o.status()).isEqualTo(PointOutcome.Status.RESUMED);
      assertThat(o.aggregate()).isEqualTo(out.points().get(i).aggregate());
      assertThat(o.metrics()).as("not measured by this run").isEmpty();
    }
  }

  @Test
  void repeatedPointsCarryTheCombinedRowOnly() throws Exception {
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 128, 8, "[2]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    RunOutcome out = BenchmarkRun.of(RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out"))
        .promptsPerConc(2).repeat(2).build()).run(RunListener.NONE);
    PointOutcome o = out.points().get(0);
    assertThat(o.status()).as(o.message().orElse("")).isEqualTo(PointOutcome.Status.SUCCEEDED);
    assertThat(o.aggregate()).isPresent();
    assertThat(o.metrics()).isEmpty();
  }
}
