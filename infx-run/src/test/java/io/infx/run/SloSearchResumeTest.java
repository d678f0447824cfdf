package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import io.infx.results.Slo;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill a search mid-way and resume it: no measurement is taken twice, and the result is the one an
 * uninterrupted search gives. The points are measured by a launcher double whose aggregates follow
 * a fixed response model (median TPOT = 1 ms × conc, ±0.1 % from repetition to repetition), so the
 * two searches can be compared exactly.
 */
class SloSearchResumeTest {

  @TempDir Path tmp;

  private static final Slo SLO = Slo.parse("tpot.p50<=10.5ms");

  /** Writes a model aggregate per launch; records finished launches; can block one launch until interrupted. */
  private static final class ModelLauncher implements PointLauncher {
    final List<String> finished = Collections.synchronizedList(new ArrayList<>());
    final int blockAt;
    final CountDownLatch blocked = new CountDownLatch(1);
    int launches;

    ModelLauncher(int blockAt) {
      this.blockAt = blockAt;
    }

    @Override
    public PointResult launch(PlannedPoint p, Path work, PrintWriter log) throws Exception {
      int n;
      synchronized (this) {
        n = ++launches;
      }
      int conc = p.conc().get(0);
      String rep = work.getFileName().toString();
      if (n == blockAt) {
        blocked.countDown();
        Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // the "kill" interrupts this launch
      }
      int k = rep.startsWith("rep-") ? Integer.parseInt(rep.substring(4)) : 1;
      double tpot = 0.001 * conc * (1 + 0.001 * k);
      Path agg = work.resolve("agg_" + p.resultFilename() + ".json");
      Files.writeString(agg, aggregate(p, conc, tpot).toPrettyString());
      Files.writeString(work.resolve(p.resultFilename() + ".json"), "{\"max_concurrency\": " + conc + "}");
      finished.add(p.resultFilename() + " " + (k == 1 && !rep.startsWith("rep-") ? "rep-1" : rep));
      return PointResult.succeeded(agg);
    }

    private static ObjectNode aggregate(PlannedPoint p, int conc, double tpot) {
      ObjectNode o = Json.mapper().createObjectNode();
      o.put("hw", "h200").put("conc", conc).put("image", "img:1").put("model", "org/model")
          .put("infmax_model_prefix", "mdl").put("framework", "sglang").put("precision", "fp8")
          .put("spec_decoding", "none").put("disagg", false).put("recipe_fingerprint", "").put("isl", 256)
          .put("osl", 16).put("is_multinode", false).put("tp", 8).put("pp", 1).put("dcp_size", 1)
          .put("pcp_size", 1).put("ep", 1).put("dp_attention", "false");
      double outTput = conc / (tpot * 16) * 16 / 8;
      o.put("tput_per_gpu", outTput * 17).put("output_tput_per_gpu", outTput).put("input_tput_per_gpu", outTput * 16);
      for (String m : List.of("ttft", "tpot", "itl", "e2el")) {
        double v = m.equals("ttft") ? 0.02 : m.equals("e2el") ? 0.02 + 15 * tpot : tpot;
        for (String s : List.of("mean", "median", "std", "p90", "p99", "p99.9")) {
          o.put(s + "_" + m, s.equals("std") ? v / 10 : v);
          if (m.equals("tpot")) {
            o.put(s + "_intvty", 1 / (s.equals("std") ? v / 10 : v));
          }
        }
      }
      return o;
    }
  }

  private RunOptions run(Path out, boolean resume) throws Exception {
    TestConfigs.write(tmp, "runners.yaml", TestConfigs.RUNNERS);
    Path cfg = TestConfigs.write(tmp, "m.yaml", TestConfigs.singleNode("k", "h200", 256, 16, "[1, 32]"));
    return RunOptions.builder().addConfigFiles(cfg).out(out).resume(resume).build();
  }

  private static SearchOptions search(RunOptions run) {
    return SearchOptions.builder().run(run).slo(SLO).build();
  }

  @Test
  void aKilledSearchResumesWithoutMeasuringAnythingTwiceAndEndsWhereAnUninterruptedOneEnds() throws Exception {
    // the reference: one search, uninterrupted
    ModelLauncher ref = new ModelLauncher(-1);
    SearchOutcome expected = SloSearch.of(search(run(tmp.resolve("ref"), false)), ref).run(SearchListener.NONE);
    ConfigurationSearch e = expected.configurations().get(0);
    assertThat(e.best()).hasValue(10);
    assertThat(e.bracket()).isEqualTo("[10, 11]");
    // the loads near the bound were repeated: kill during a repetition
    assertThat(ref.finished).hasSizeGreaterThan(e.probesUsed());

    // kill: interrupt the search while its 4th launch (a repetition) is in flight
    ModelLauncher first = new ModelLauncher(4);
    AtomicReference<Throwable> died = new AtomicReference<>();
    Thread t = new Thread(() -> {
      try {
        SloSearch.of(search(run(tmp.resolve("out"), false)), first).run(SearchListener.NONE);
      } catch (Throwable x) {
        died.set(x);
      }
    });
    t.start();
    assertThat(first.blocked.await(2, TimeUnit.MINUTES)).isTrue();
    t.interrupt();
    t.join(TimeUnit.MINUTES.toMillis(1));
    assertThat(t.isAlive()).isFalse();
    assertThat(died.get()).isInstanceOf(InfxException.class);
    assertThat(((InfxException) died.get()).kind()).as(String.valueOf(died.get())).isEqualTo(ErrorKind.INTERRUPTED);
    assertThat(first.finished).hasSize(3);
    // what the kill left: search.json with the probes so far, the run directory unlocked
    JsonNode partial = Json.mapper().readTree(tmp.resolve("out").resolve(SloSearch.SEARCH_FILE).toFile());
    assertThat(partial.get("configurations").get(0).get("status").asText()).isEqualTo("searching");

    // resume
    ModelLauncher second = new ModelLauncher(-1);
    SearchOutcome resumed = SloSearch.of(search(run(tmp.resolve("out"), true)), second).run(SearchListener.NONE);
    ConfigurationSearch r = resumed.configurations().get(0);

    List<String> all = new ArrayList<>(first.finished);
    all.addAll(second.finished);
    assertThat(all).as("no measurement is taken twice").doesNotHaveDuplicates();
    assertThat(all).containsExactlyInAnyOrderElementsOf(ref.finished);
    assertThat(second.finished).noneMatch(first.finished::contains);
    // the same search: same loads in the same order, same verdicts and values, same result
    assertThat(r.best()).isEqualTo(e.best());
    assertThat(r.bracket()).isEqualTo(e.bracket());
    assertThat(r.trace().orElseThrow().stop()).isEqualTo(e.trace().orElseThrow().stop());
    assertThat(r.trace().orElseThrow().probes()).extracting(BoundarySearch.Probe::load, BoundarySearch.Probe::verdict,
            BoundarySearch.Probe::repetitions, BoundarySearch.Probe::ratio)
        .containsExactlyElementsOf(e.trace().orElseThrow().probes().stream()
            .map(p -> org.assertj.core.groups.Tuple.tuple(p.load(), p.verdict(), p.repetitions(), p.ratio())).toList());
    // the resumed probes say they came from the earlier run
    assertThat(r.trace().orElseThrow().probes().get(0).measurement().measuredBefore()).isEqualTo(1);

    // and a third run on the finished directory measures nothing at all
    ModelLauncher third = new ModelLauncher(-1);
    SloSearch.of(search(run(tmp.resolve("out"), true)), third).run(SearchListener.NONE);
    assertThat(third.finished).isEmpty();
  }

  @Test
  void aSearchRefusesARunDirectoryAnotherRunHolds() throws Exception {
    RunOptions o = run(tmp.resolve("busy"), false);
    Files.createDirectories(tmp.resolve("busy"));
    try (var lock = io.infx.core.io.DirectoryLock.acquire(tmp.resolve("busy"), "infx run")) {
      assertThatThrownBy(() -> SloSearch.of(search(o), new ModelLauncher(-1)).run(SearchListener.NONE))
          .isInstanceOf(InfxException.class).hasMessageContaining("is in use");
    }
  }
}
