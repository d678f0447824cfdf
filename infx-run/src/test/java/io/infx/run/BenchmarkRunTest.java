package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.report.ReportPoint;
import io.infx.results.ResultProcessor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pipeline around the launcher: layout, normalization, collection, report, failures, resume. */
class BenchmarkRunTest {

  @TempDir Path tmp;
  private Path cfg;
  private final List<String> launched = new CopyOnWriteArrayList<>();

  @BeforeEach
  void configs() throws Exception {
    cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 1024, 1024, "[1, 2, 4]"));
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
  }

  /** Writes a raw result whose throughput is 100·conc tok/s and normalizes it like a real launch. */
  private PointResult fakeLaunch(PlannedPoint p, Path work) throws Exception {
    launched.add(p.resultFilename());
    int conc = p.conc().get(0);
    String raw = String.format(Locale.ROOT, """
        {"model_id": "org/model", "max_concurrency": %d, "total_token_throughput": %s,
         "output_throughput": %s, "mean_ttft_ms": 20.0, "median_ttft_ms": %s, "p99_ttft_ms": 40.0,
         "mean_tpot_ms": 5.0, "median_tpot_ms": 4.0, "p90_tpot_ms": 4.5, "p99_tpot_ms": 5.0,
         "median_e2el_ms": 4100.0}
        """, conc, 100.0 * conc * 8, 50.0 * conc * 8, 10.0 * conc);
    Files.writeString(work.resolve(p.resultFilename() + ".json"), raw);
    return PointResult.succeeded(ResultProcessor.processEnvironment(p.env().values(), work).aggregateFile());
  }

  private RunOptions options() {
    return RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out")).title("t").build();
  }

  @Test
  void everyPointIsNormalizedCollectedAndReported() throws Exception {
    List<String> events = new ArrayList<>();
    RunOutcome out = BenchmarkRun.of(options(), (p, work, log) -> fakeLaunch(p, work)).run(new RunListener() {
      @Override public void started(PlannedPoint p, int done, int total) {
        events.add("start " + (done + 1) + "/" + total);
      }
      @Override public void finished(PointOutcome o, int done, int total) {
        events.add(o.status() + " " + done + "/" + total);
      }
    });

    assertThat(out.exitCode()).isZero();
    assertThat(events).containsExactly("start 1/3", "SUCCEEDED 1/3", "start 2/3", "SUCCEEDED 2/3",
        "start 3/3", "SUCCEEDED 3/3");
    RunLayout l = out.layout();
    JsonNode collected = Json.mapper().readTree(l.collectedFile().toFile());
    assertThat(collected).hasSize(3);
    // the collector's order: sorted artifact paths (conc1, conc2, conc4)
    assertThat(collected.get(2).get("conc").asInt()).isEqualTo(4);
    assertThat(collected.get(2).get("tput_per_gpu").asDouble()).isEqualTo(100.0 * 4 * 8 / 8);
    assertThat(collected.get(2).get("hw").asText()).isEqualTo("h200");
    assertThat(out.collected().points()).extracting(ReportPoint::conc).containsExactly(1, 2, 4);
    for (PlannedPoint p : out.plan().points()) {
      assertThat(l.artifactAggregate(p.resultFilename())).exists();
      assertThat(l.pointDir(p.resultFilename()).resolve(p.resultFilename() + ".json")).exists();
    }
    assertThat(Json.mapper().readTree(l.matrixFile().toFile())).hasSize(3);
    JsonNode run = Json.mapper().readTree(l.runFile().toFile());
    assertThat(run.get("points")).allSatisfy(n -> assertThat(n.get("status").asText()).isEqualTo("succeeded"));
    assertThat(out.report()).isPresent();
    assertThat(Files.readString(out.report().get().html())).contains("<title>t</title>").contains("mdl · 1k/1k");
    assertThat(out.report().get().png()).hasSize(3);
  }

  @Test
  void aFailedPointIsRecordedAndTheRunGoesOn() throws Exception {
    RunOutcome out = BenchmarkRun.of(options(), (p, work, log) -> {
      if (p.conc().get(0) == 2) {
        log.println("server died");
        return PointResult.failed("server exited with status 1 before it was ready");
      }
      return fakeLaunch(p, work);
    }).run(RunListener.NONE);

    assertThat(out.exitCode()).isEqualTo(1);
    assertThat(out.points()).extracting(PointOutcome::status).containsExactly(
        PointOutcome.Status.SUCCEEDED, PointOutcome.Status.FAILED, PointOutcome.Status.SUCCEEDED);
    assertThat(Json.mapper().readTree(out.layout().collectedFile().toFile())).hasSize(2);
    String html = Files.readString(out.report().get().html());
    assertThat(html).contains("server exited with status 1 before it was ready");
    PlannedPoint failed = out.plan().points().get(1);
    assertThat(Files.readString(out.layout().pointDir(failed.resultFilename()).resolve("infx-run.log")))
        .contains("server died");
  }

  @Test
  void resumeLaunchesOnlyWhatHasNoResultYet() throws Exception {
    // first attempt: conc 4 fails (e.g. the run was interrupted there)
    BenchmarkRun.of(options(), (p, work, log) ->
        p.conc().get(0) == 4 ? PointResult.failed("interrupted") : fakeLaunch(p, work)).run(RunListener.NONE);
    launched.clear();

    RunOptions resume = RunOptions.builder().from(options()).resume(true).build();
    RunOutcome out = BenchmarkRun.of(resume, (p, work, log) -> fakeLaunch(p, work)).run(RunListener.NONE);

    assertThat(launched).hasSize(1).allMatch(rf -> rf.contains("_conc4_"));
    assertThat(out.points()).extracting(PointOutcome::status).containsExactly(
        PointOutcome.Status.RESUMED, PointOutcome.Status.RESUMED, PointOutcome.Status.SUCCEEDED);
    assertThat(out.exitCode()).isZero();
    assertThat(Json.mapper().readTree(out.layout().collectedFile().toFile())).hasSize(3);

    // without --resume every point runs again
    launched.clear();
    BenchmarkRun.of(options(), (p, work, log) -> fakeLaunch(p, work)).run(RunListener.NONE);
    assertThat(launched).hasSize(3);
  }

  /** Like {@link #fakeLaunch} with total throughput {@code tput} tok/s (8 GPUs) and median TTFT {@code ttftMs}. */
  private PointResult fakeLaunch(PlannedPoint p, Path work, double tput, double ttftMs) throws Exception {
    launched.add(p.resultFilename() + " " + work.getFileName());
    String raw = String.format(Locale.ROOT, """
        {"model_id": "org/model", "max_concurrency": %d, "total_token_throughput": %s,
         "output_throughput": %s, "mean_ttft_ms": 20.0, "median_ttft_ms": %s, "p99_ttft_ms": 40.0,
         "mean_tpot_ms": 5.0, "median_tpot_ms": 4.0, "p90_tpot_ms": 4.5, "p99_tpot_ms": 5.0,
         "median_e2el_ms": 4100.0}
        """, p.conc().get(0), tput, tput / 2, ttftMs);
    Files.writeString(work.resolve(p.resultFilename() + ".json"), raw);
    return PointResult.succeeded(ResultProcessor.processEnvironment(p.env().values(), work).aggregateFile());
  }

  @Test
  void repeatKeepsEveryRepetitionAndTheAggregateCarriesTheirStatistics() throws Exception {
    // three repetitions of each point: total throughput 800, 880, 1040 tok/s on 8 GPUs →
    // tput/GPU 100, 110, 130: mean 113.333…, s = √(((−13.33)² + (−3.33)² + 16.67²) / 2) = 15.275…,
    // t(0.975, 2) = 4.302653, half-width = 4.302653 · 15.275 / √3 = 37.946…
    double[] tputs = {800, 880, 1040};
    RunOptions three = RunOptions.builder().from(options()).repeat(3).build();
    RunOutcome out = BenchmarkRun.of(three, (p, work, log) -> {
      int k = Integer.parseInt(work.getFileName().toString().substring(4));
      return fakeLaunch(p, work, tputs[k - 1], 10.0 * k);
    }).run(RunListener.NONE);

    assertThat(out.exitCode()).isZero();
    assertThat(launched).hasSize(9);
    PlannedPoint p = out.plan().points().get(0);
    Path work = out.layout().pointDir(p.resultFilename());
    for (int k = 1; k <= 3; k++) {
      assertThat(work.resolve("rep-" + k).resolve("agg_" + p.resultFilename() + ".json")).exists();
      assertThat(work.resolve("rep-" + k).resolve(p.resultFilename() + ".json")).exists();
    }
    JsonNode row = Json.mapper().readTree(out.layout().artifactAggregate(p.resultFilename()).toFile());
    assertThat(row.get("tput_per_gpu").asDouble()).isCloseTo(340.0 / 3, within(1e-9));
    assertThat(row.get("median_ttft").asDouble()).isCloseTo(0.020, within(1e-12));
    JsonNode t = row.get("repeats").get("metrics").get("tput_per_gpu");
    assertThat(row.get("repeats").get("n").asInt()).isEqualTo(3);
    assertThat(t.get("values")).extracting(JsonNode::asDouble).containsExactly(100.0, 110.0, 130.0);
    double s = Math.sqrt((Math.pow(100 - 340.0 / 3, 2) + Math.pow(110 - 340.0 / 3, 2) + Math.pow(130 - 340.0 / 3, 2)) / 2);
    assertThat(t.get("std").asDouble()).isCloseTo(s, within(1e-9));
    assertThat(t.get("ci_high").asDouble() - t.get("mean").asDouble())
        .isCloseTo(4.302653 * s / Math.sqrt(3), within(1e-4));
    assertThat(t.get("cv").asDouble()).isCloseTo(s / (340.0 / 3), within(1e-12));
    // the point's aggregate in points/ has its first repetition's raw result beside it
    assertThat(work.resolve(p.resultFilename() + ".json")).hasSameTextualContentAs(
        work.resolve("rep-1").resolve(p.resultFilename() + ".json"));
    assertThat(Json.mapper().readTree(out.layout().runFile().toFile()).get("repeat").asInt()).isEqualTo(3);

    // resume with a larger --repeat runs only the missing repetition of every point
    launched.clear();
    RunOptions four = RunOptions.builder().from(three).repeat(4).resume(true).build();
    out = BenchmarkRun.of(four, (pp, w, log) -> fakeLaunch(pp, w, 960, 10)).run(RunListener.NONE);
    assertThat(launched).hasSize(3).allMatch(l -> l.endsWith(" rep-4"));
    row = Json.mapper().readTree(out.layout().artifactAggregate(p.resultFilename()).toFile());
    assertThat(row.get("repeats").get("n").asInt()).isEqualTo(4);
    assertThat(row.get("tput_per_gpu").asDouble()).isCloseTo(460.0 / 4, within(1e-9));
    // and resuming at that count again runs nothing
    launched.clear();
    out = BenchmarkRun.of(four, (pp, w, log) -> fakeLaunch(pp, w, 960, 10)).run(RunListener.NONE);
    assertThat(launched).isEmpty();
    assertThat(out.points()).extracting(PointOutcome::status).containsOnly(PointOutcome.Status.RESUMED);
  }

  @Test
  void resumingASingleRunWithRepeatKeepsItAsTheFirstRepetition() throws Exception {
    BenchmarkRun.of(options(), (p, work, log) -> fakeLaunch(p, work, 800, 10)).run(RunListener.NONE);
    launched.clear();
    RunOptions two = RunOptions.builder().from(options()).repeat(2).resume(true).build();
    RunOutcome out = BenchmarkRun.of(two, (p, work, log) -> fakeLaunch(p, work, 1040, 10)).run(RunListener.NONE);
    assertThat(launched).hasSize(3).allMatch(l -> l.endsWith(" rep-2"));
    JsonNode row = Json.mapper().readTree(out.layout().artifactAggregate(out.plan().points().get(0).resultFilename()).toFile());
    assertThat(row.get("repeats").get("metrics").get("tput_per_gpu").get("values"))
        .extracting(JsonNode::asDouble).containsExactly(100.0, 130.0);
  }

  @Test
  void aSingleRunWritesNoRepeatsKey() throws Exception {
    RunOutcome out = BenchmarkRun.of(options(), (p, work, log) -> fakeLaunch(p, work)).run(RunListener.NONE);
    PlannedPoint p = out.plan().points().get(0);
    assertThat(Json.mapper().readTree(out.layout().artifactAggregate(p.resultFilename()).toFile()).has("repeats"))
        .isFalse();
    assertThat(out.layout().pointDir(p.resultFilename()).resolve("rep-1")).doesNotExist();
  }

  @Test
  void aLauncherThatThrowsFailsOnlyItsPoint() throws Exception {
    RunOutcome out = BenchmarkRun.of(options(), (p, work, log) -> {
      throw new IllegalStateException("bug in a launcher");
    }).run(RunListener.NONE);
    assertThat(out.points()).allMatch(o -> o.status() == PointOutcome.Status.FAILED);
    assertThat(out.points().get(0).message()).hasValueSatisfying(m -> assertThat(m).contains("bug in a launcher"));
    assertThat(Json.mapper().readTree(out.layout().collectedFile().toFile())).isEmpty();
    assertThat(out.exitCode()).isEqualTo(1);
  }

  @Test
  void noTemporaryFilesAreLeftBehind() throws Exception {
    RunOutcome out = BenchmarkRun.of(options(), (p, work, log) -> fakeLaunch(p, work)).run(RunListener.NONE);
    try (var files = Files.walk(out.layout().dir())) {
      assertThat(files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".tmp"))).isEmpty();
    }
    assertThat(Set.of("matrix.json", "run.json", "report.html", "results_bmk", "bmk", "points", "charts"))
        .allMatch(n -> Files.exists(out.layout().dir().resolve(n)));
  }

  @Test
  void aRunIntoAnEarlierRunsDirectoryCollectsOnlyItsOwnPoints() throws Exception {
    BenchmarkRun.of(options(), (p, work, log) -> fakeLaunch(p, work)).run(RunListener.NONE);
    List<String> notes = new ArrayList<>();
    RunOptions narrower = RunOptions.builder().from(options())
        .selection(Selection.parse(List.of("--max-conc", "2"))).build();
    RunOutcome out = BenchmarkRun.of(narrower, (p, work, log) -> fakeLaunch(p, work)).run(new RunListener() {
      @Override public void note(String message) {
        notes.add(message);
      }
    });

    JsonNode rows = Json.mapper().readTree(out.layout().collectedFile().toFile());
    assertThat(rows).extracting(r -> r.get("conc").asInt()).containsExactlyInAnyOrder(1, 2);
    assertThat(out.collected().points()).hasSize(2);
    assertThat(notes).anySatisfy(n -> assertThat(n).contains("set aside 1 point"));
    // nothing is lost: the conc-4 artifact and point directory moved to stale/
    String conc4 = launched.stream().filter(n -> n.contains("conc4")).findFirst().orElseThrow();
    Path stale = out.layout().dir().resolve("stale");
    assertThat(Files.list(stale.resolve("bmk")).toList()).hasSize(1);
    assertThat(stale.resolve("points").resolve(conc4).resolve("agg_" + conc4 + ".json")).exists();
    assertThat(out.layout().pointDir(conc4)).doesNotExist();
    // and infx results on the directory see this run only
    assertThat(io.infx.results.AggregateRows.load(List.of(out.layout().dir())).rows())
        .extracting(r -> r.row().conc()).containsExactlyInAnyOrder(1, 2);
  }

  @Test
  void aSelectionWithoutRowsIsAnErrorAndWritesNothing() {
    RunOptions none = RunOptions.builder().from(options())
        .selection(Selection.parse(List.of("--min-conc", "64"))).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            BenchmarkRun.of(none, (p, work, log) -> fakeLaunch(p, work)).run(RunListener.NONE))
        .isInstanceOf(io.infx.core.InfxException.class).hasMessageContaining("select no matrix row");
    assertThat(tmp.resolve("out")).doesNotExist();
    assertThat(launched).isEmpty();
  }
}
