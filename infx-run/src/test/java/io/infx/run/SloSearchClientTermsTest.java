package io.infx.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import io.infx.results.Slo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SLO terms the client must be asked for: goodput (per-request thresholds → the raw result's
 * {@code request_goodput:}) and a percentile outside the reference's 90/99/99.9 (→ {@code p95_*}),
 * measured through the fleet on the simulator; and a stored probe measured without them is measured
 * again on resume, not judged on a value it lacks.
 */
class SloSearchClientTermsTest {

  @TempDir Path tmp;

  private RunOptions run(boolean resume) throws Exception {
    Files.copy(TestConfigs.examples().resolve("runners.yaml"), tmp.resolve("runners.yaml"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Path cfg = TestConfigs.write(tmp, "sim.yaml", """
        sim-small:
          image: infx/embedded-simulator
          model: infx/sim-model
          model-prefix: sim
          precision: bf16
          framework: infx-sim
          runner: sim
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 32
              osl: 8
              search-space:
              - { tp: 1, conc-list: [1, 2] }
        """);
    return RunOptions.builder().addConfigFiles(cfg).out(tmp.resolve("out")).promptsPerConc(4).warmupsPerConc(1)
        .resume(resume).build();
  }

  @Test
  void goodputAndAnExtraPercentileAreMeasuredForTheProbes() throws Exception {
    // generous bounds: every request is good, every load passes (the whole range in two probes)
    SearchOutcome out = SloSearch.of(SearchOptions.builder().run(run(false))
        .slo(Slo.parse("ttft.p95<=10s,e2el.p99<=20s,goodput>=0.9")).build()).run(SearchListener.NONE);
    ConfigurationSearch c = out.configurations().get(0);
    assertThat(c.error()).isEmpty();
    assertThat(c.best()).hasValue(2);
    for (BoundarySearch.Probe p : c.trace().orElseThrow().probes()) {
      assertThat(p.failure()).isEmpty();
      assertThat(p.measurement().samples().get("goodput")).containsExactly(1.0);
      assertThat(p.measurement().samples().get("p95_ttft")).singleElement().satisfies(v -> assertThat(v).isPositive());
      String rf = p.measurement().point();
      JsonNode raw = Json.mapper().readTree(out.layout().pointDir(rf).resolve(rf + ".json").toFile());
      assertThat(raw.get("request_goodput:").isNumber()).isTrue();
      assertThat(raw.has("p95_ttft_ms")).isTrue();
      JsonNode side = Json.mapper().readTree(out.layout().pointDir(rf).resolve(SloSearch.PROBE_FILE).toFile());
      assertThat(side.get("goodput_ms").get("ttft").asDouble()).isEqualTo(10_000.0);
      assertThat(side.get("goodput_ms").get("e2el").asDouble()).isEqualTo(20_000.0);
    }

    // resumed with other thresholds: the stored goodput counted other requests as good, so the
    // probes are measured again (and say so) instead of being judged on it
    java.util.List<String> notes = new java.util.ArrayList<>();
    SearchOutcome again = SloSearch.of(SearchOptions.builder().run(run(true))
        .slo(Slo.parse("ttft.p95<=9s,e2el.p99<=20s,goodput>=0.9")).build()).run(new SearchListener() {
          @Override
          public void note(String message) {
            notes.add(message);
          }
        });
    assertThat(notes).anyMatch(n -> n.contains("measured again: the earlier measurement counted good requests"));
    assertThat(again.configurations().get(0).trace().orElseThrow().probes())
        .allMatch(p -> p.measurement().measuredBefore() == 0);
    // resumed with the same SLO: nothing measured again
    SearchOutcome same = SloSearch.of(SearchOptions.builder().run(run(true))
        .slo(Slo.parse("ttft.p95<=9s,e2el.p99<=20s,goodput>=0.9")).build()).run(SearchListener.NONE);
    assertThat(same.configurations().get(0).trace().orElseThrow().probes())
        .allMatch(p -> p.measurement().measuredBefore() == 1);
  }
}
