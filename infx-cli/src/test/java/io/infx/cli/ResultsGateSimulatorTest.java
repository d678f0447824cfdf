package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate's acceptance test on the embedded simulator: two runs of one config with
 * {@code --repeat 5} pass {@code infx results gate} (exit 0); a run with {@code --sim-option
 * slowdown=1.25} is judged regressed on throughput and TPOT (exit 1).
 *
 * <p>The three runs' repetitions are interleaved ({@code --repeat k --resume} for k = 1…5, one
 * run after the other), so a change of host load during the test hits all three alike — the
 * blocking a careful benchmarker does by hand. 30 ms decode steps keep scheduler jitter of the
 * loaded CI host (several ms per step at a load of 10 per core) small against the injected 25 %.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ResultsGateSimulatorTest {

  @TempDir Path tmp;

  private record Run(int status, String out, String err) {}

  private static Run infx(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = Main.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Run(rc, out.toString(), err.toString());
  }

  @Test
  void sameConfigPassesAndAnInjectedSlowdownFailsOnThroughputAndTpot() throws Exception {
    Path cfg = tmp.resolve("gate.yaml");
    Files.writeString(cfg, """
        gate:
          image: infx/embedded-simulator
          model: infx/sim-model
          model-prefix: sim
          precision: bf16
          framework: infx-sim
          runner: sim
          multinode: false
          scenarios:
            fixed-seq-len:
            - isl: 128
              osl: 8
              search-space:
              - { tp: 1, conc-list: [4] }
        """);
    Files.writeString(tmp.resolve("runners.yaml"), """
        labels:
          h200: [h200-x_0]
          cluster:h200-x: [h200-x_0]
        clusters:
          h200-x: {gpus-per-node: 8, arch: x86_64, scheduler: slurm, slurm: {partition: p, exclusive: false}}
        """);
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    Path slow = tmp.resolve("slow");
    for (int k = 1; k <= 5; k++) {
      for (Path dir : List.of(a, b, slow)) {
        List<String> args = new ArrayList<>(List.of("run", cfg.toString(), "--out", dir.toString(),
            "--repeat", String.valueOf(k), "--resume", "--sim-option", "decode-step-ms=30"));
        if (dir.equals(slow)) {
          args.addAll(List.of("--sim-option", "slowdown=1.25"));
        }
        Run r = infx(args.toArray(String[]::new));
        assertThat(r.status()).as(r.err()).isZero();
      }
    }
    JsonNode row = Json.mapper().readTree(a.resolve("results_bmk").resolve("agg_bmk.json").toFile()).get(0);
    assertThat(row.get("repeats").get("n").asInt()).isEqualTo(5);
    assertThat(row.get("repeats").get("metrics").get("tput_per_gpu").get("values")).hasSize(5);

    Run same = infx("results", "gate", a.toString(), b.toString(), "--format", "json");
    assertThat(same.status()).as(same.out() + same.err()).isZero();
    JsonNode sameJson = Json.mapper().readTree(same.out());
    assertThat(sameJson.get("outcome").asText()).isEqualTo("pass");
    JsonNode sameMetrics = sameJson.get("points").get(0).get("metrics");
    assertThat(sameMetrics.get("tput_per_gpu").get("baseline")).hasSize(5);
    sameMetrics.forEach(m -> assertThat(m.get("verdict").asText()).isNotEqualTo("regressed"));

    Run regressed = infx("results", "gate", a.toString(), slow.toString());
    assertThat(regressed.status()).as(regressed.out() + regressed.err()).isEqualTo(1);
    assertThat(regressed.out()).contains("REGRESSION").contains("noise band");
    JsonNode slowJson = Json.mapper().readTree(
        infx("results", "gate", a.toString(), slow.toString(), "--format", "json").out());
    JsonNode m = slowJson.get("points").get(0).get("metrics");
    assertThat(m.get("tput_per_gpu").get("verdict").asText()).as(m.toString()).isEqualTo("regressed");
    assertThat(m.get("median_tpot").get("verdict").asText()).as(m.toString()).isEqualTo("regressed");
    // TPOT ≈ 1.25 × the baseline's (every step is 25 % longer): the change lies well above 10 %
    assertThat(m.get("median_tpot").get("change").asDouble()).isBetween(0.10, 0.40);
    assertThat(m.get("tput_per_gpu").get("change").asDouble()).isBetween(-0.35, -0.05);

    // compare uses the same judgement: the throughput drop is marked ▼, not ~
    Run cmp = infx("results", "compare", a.toString(), slow.toString());
    assertThat(cmp.out()).contains("▼").contains("noise band");
  }
}
