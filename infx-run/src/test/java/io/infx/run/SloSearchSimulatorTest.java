package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimParallelism;
import io.infx.core.json.Json;
import io.infx.results.Slo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search end to end on the embedded simulator: five configurations with different TP, each
 * searched through the fleet with one simulator kept up, against an SLO on the median TPOT whose
 * boundary the simulator's model fixes (docs/simulator.md). The truth is computed here from the
 * model's formulas — never from a search or a measurement.
 */
class SloSearchSimulatorTest {

  @TempDir Path tmp;

  // the simulated engine: 2 ms fixed + 8 ms per running sequence per decode step, prefill free: steps
  // long enough that a late wake-up of the engine thread on a loaded machine (≈ 1 ms) moves the
  // boundary by well under one step; the bound puts every truth mid-way between two concurrencies
  private static final double BASE_MS = 2.0;
  private static final double PER_SEQ_MS = 8.0;
  private static final int OSL = 16;
  private static final double BOUND_MS = 51.2;
  private static final int HI = 32;
  private static final int[] TPS = {1, 2, 3, 4, 8};

  /**
   * The simulator's median TPOT at concurrency {@code c} (docs/simulator.md): a decode step takes
   * {@code base' + perSeq' × running}, with {@code base' = base × (1/T + 0.15 (T−1)/T)} and the same
   * factor on {@code perSeq} (EP 1). While one request decodes, each of the other {@code c − 1}
   * closed-loop clients is running except for the one step between its request's end and its next
   * request's admission: a share {@code L / (L + 1)} of the time, with {@code L} the mean output
   * length — OSL 16 with the reference's range ratio 0.8 draws 12..16 tokens, mean 14.
   */
  static double tpotMs(int tp, int c) {
    double factor = new SimParallelism(tp, 1, false).fixedStepFactor();
    double meanLen = (Math.floor(OSL * 0.8) + OSL) / 2.0;
    double running = 1 + (c - 1) * meanLen / (meanLen + 1);
    return BASE_MS * factor + PER_SEQ_MS * factor * running;
  }

  static int truth(int tp, int hi) {
    int best = 0;
    for (int c = 1; c <= hi; c++) {
      if (tpotMs(tp, c) <= BOUND_MS) {
        best = c;
      }
    }
    return best;
  }

  @Test
  void theTruthIsMidWayBetweenTwoConcurrencies() {
    // the model's crossing for TP 1, 2, 3, 4, 8: 6.5, 11.6, 15.5, 18.6, 26.4 — never near a whole number
    for (int tp : TPS) {
      int t = truth(tp, HI);
      double step = tpotMs(tp, t + 1) - tpotMs(tp, t);
      assertThat(BOUND_MS - tpotMs(tp, t)).isGreaterThan(0.4 * step);
      assertThat(tpotMs(tp, t + 1) - BOUND_MS).isGreaterThan(0.4 * step);
    }
    assertThat(java.util.Arrays.stream(TPS).map(tp -> truth(tp, HI)).toArray()).containsExactly(6, 11, 15, 18, 26);
  }

  @Test
  void findsTheModelsBoundaryWithinOneStepForFiveTensorParallelSizesInAtMostEightProbes() throws Exception {
    StringBuilder space = new StringBuilder();
    for (int tp : TPS) {
      space.append("      - { tp: ").append(tp).append(", conc-list: [1, ").append(HI).append("] }\n");
    }
    Files.copy(TestConfigs.examples().resolve("runners.yaml"), tmp.resolve("runners.yaml"));
    Path cfg = TestConfigs.write(tmp, "sim.yaml", """
        sim-tp:
          image: infx/embedded-simulator
          model: infx/sim-model
          model-prefix: sim
          precision: bf16
          framework: infx-sim
          runner: sim
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 16
              osl: 16
              search-space:
        """ + space);
    SimConfig sim = SimConfig.builder().decodeStepBase(Duration.ofMillis((long) BASE_MS))
        .decodeStepPerSeq(Duration.ofNanos((long) (PER_SEQ_MS * 1e6))).prefillTokensPerSecond(1e9).build();
    RunOptions run = RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out")).simulator(sim)
        .promptsPerConc(3).warmupsPerConc(1).build();
    List<String> notes = new ArrayList<>();
    SearchOutcome out = SloSearch.of(SearchOptions.builder().run(run).slo(Slo.parse("tpot.p50<=" + BOUND_MS + "ms"))
        .build()).run(new SearchListener() {
          @Override
          public void note(String message) {
            notes.add(message);
          }
        });

    assertThat(out.configurations()).hasSize(TPS.length);
    List<String> found = new ArrayList<>();
    for (ConfigurationSearch c : out.configurations()) {
      int tp = ((Number) c.configuration().template().row().fields().get("tp")).intValue();
      int truth = truth(tp, HI);
      found.add("TP" + tp + ": truth " + truth + ", found " + c.best() + " in " + c.probesUsed() + " probes "
          + c.bracket() + " " + c.verdict());
      System.out.println("SloSearchSimulatorTest: " + found.get(found.size() - 1));
      assertThat(c.error()).as(found.toString()).isEmpty();
      assertThat(c.best()).as(found.toString()).isPresent();
      assertThat(Math.abs(c.best().getAsDouble() - truth)).as(found.toString()).isLessThanOrEqualTo(1);
      assertThat(c.probesUsed()).as(found.toString()).isLessThanOrEqualTo(8);
      assertThat(c.serverStarts()).as("one server per configuration").isEqualTo(1);
      assertThat(c.server()).hasValueSatisfying(s -> assertThat(s).startsWith("SIMULATED"));
      // every probe is a normal point: raw result, aggregate, artifact, marked simulated
      for (BoundarySearch.Probe p : c.trace().orElseThrow().probes()) {
        String rf = p.measurement().point();
        assertThat(out.layout().pointDir(rf).resolve(rf + ".json")).exists();
        JsonNode agg = Json.mapper().readTree(out.layout().artifactAggregate(rf).toFile());
        assertThat(agg.get("simulated").asBoolean()).isTrue();
        assertThat(agg.get("conc").asInt()).isEqualTo((int) p.load());
        assertThat(agg.get("tp").asInt()).isEqualTo(tp);
      }
    }
    // the server notes: one start per configuration
    assertThat(notes.stream().filter(n -> n.contains("starting its server"))).hasSize(TPS.length);
    // the outputs: search.json, the collected probes, the report with the search and its frontier
    JsonNode record = Json.mapper().readTree(out.searchFile().toFile());
    assertThat(record.get("simulated").asBoolean()).isTrue();
    assertThat(record.get("configurations")).hasSize(TPS.length);
    assertThat(record.get("frontier").size()).isPositive();
    assertThat(out.frontier()).isNotEmpty();
    String html = Files.readString(out.report().orElseThrow().html());
    assertThat(html).contains("SLO search").contains("tpot.p50&lt;=" + BOUND_MS + "ms").contains("slo-frontier");
    assertThat(out.layout().collectedFile()).exists();
  }
}
