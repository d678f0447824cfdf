package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.client.BodyOptions;
import io.infx.client.MetricOptions;
import io.infx.client.ServeJob;
import io.infx.client.ServingBackend;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.ErrorKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The typed bridge {@code ServeJob.Outcome → AggregateRow} ({@link Normalizer#normalize(ServeJob.Outcome,
 * RunIdentity)}) gives the row the file route gives for the same run (the raw file the run saved,
 * read back and normalized), over a grid of runs, identities and normalizer options.
 */
class TypedNormalizeTest {

  private static SimServer sim;

  @TempDir Path dir;

  @BeforeAll
  static void startSimulator() {
    sim = SimServer.start(SimConfig.builder().decodeStepBase(java.time.Duration.ofMillis(1)).build());
  }

  @AfterAll
  static void stopSimulator() {
    sim.close();
  }

  private ServeJob.Outcome run(String name, int conc, int prompts, MetricOptions metrics, boolean ignoreEos) {
    StringWriter text = new StringWriter();
    PrintWriter w = new PrintWriter(text);
    ServeJob.Outcome o = ServeJob.builder()
        .backend(ServingBackend.VLLM).baseUrl(sim.baseUri()).model("org/tiny-" + conc).tokenizer("builtin")
        .numPrompts(prompts).randomInputLen(48).randomOutputLen(12).randomRangeRatio(0.8)
        .maxConcurrency(conc).numWarmups(1).metrics(metrics)
        .body(BodyOptions.builder().ignoreEos(ignoreEos).build())
        .saveResult(true).resultDir(dir).resultFilename(name + ".json").progress(false)
        .build().run(w, w);
    assertThat(o.exitCode()).as(text.toString()).isZero();
    return o;
  }

  private static RunIdentity single(int tp, int ep) {
    return RunIdentity.builder().hw("h200").image("infx-sim").modelPrefix("tiny").framework("vllm")
        .precision("fp8").specDecoding("none").disagg(false).isl(48).osl(12)
        .topology(SingleNodeTopology.of(Parallelism.of(tp, ep), ep > 1)).build();
  }

  private static RunIdentity multi(int prefillGpus, int decodeGpus) {
    return RunIdentity.builder().hw("gb200").image("infx-sim").modelPrefix("tiny").framework("dynamo-sglang")
        .precision("fp4").specDecoding("mtp").disagg(decodeGpus > 0).isl(48).osl(12)
        .kvP2pTransfer("nixl")
        .topology(MultiNodeTopology.builder()
            .prefill(Parallelism.of(4, 4)).prefillDpAttention("true").prefillNumWorkers(1)
            .decode(Parallelism.of(8, 8)).decodeDpAttention("false").decodeNumWorkers(decodeGpus > 0 ? 1 : 0)
            .prefillGpus(prefillGpus).decodeGpus(decodeGpus).build())
        .build();
  }

  @Test
  void typedRowEqualsTheFileRouteOverManyRuns() {
    List<MetricOptions> metricOptions = List.of(
        MetricOptions.defaults(),
        MetricOptions.builder().percentileMetrics(List.of("ttft", "e2el")).metricPercentiles(List.of(50.0, 95.0)).build(),
        MetricOptions.builder().percentileMetrics(List.of("tpot", "itl")).metricPercentiles(List.of(99.0, 99.99)).build());
    List<RunIdentity> identities = List.of(single(1, 1), single(2, 1), single(8, 8), multi(4, 8), multi(4, 0));
    List<NormalizerOptions> normalizers = List.of(NormalizerOptions.reference(), NormalizerOptions.upstreamGuards(),
        NormalizerOptions.builder().metricGuards(true).build());
    int compared = 0;
    int k = 0;
    for (int conc : new int[] {1, 3, 8}) {
      for (MetricOptions mo : metricOptions) {
        String name = "point_" + k++;
        ServeJob.Outcome o = run(name, conc, 2 * conc + 1, mo, conc != 3);
        var raw = ResultProcessor.readRaw(o.rawFile().orElseThrow());
        for (RunIdentity id : identities) {
          for (NormalizerOptions opts : normalizers) {
            AggregateRow viaFile = Normalizer.of(opts).normalize(raw, id);
            AggregateRow typed = Normalizer.of(opts).normalize(o, id);
            assertThat(typed).as(name + " " + id + " " + opts).isEqualTo(viaFile);
            assertThat(typed.toJson()).isEqualTo(viaFile.toJson());
            compared++;
          }
        }
      }
    }
    assertThat(compared).isEqualTo(3 * 3 * 5 * 3);
  }

  @Test
  void theTypedRowCarriesTheRunsNumbersInTheAggregatesUnits() {
    ServeJob.Outcome o = run("units", 4, 12, MetricOptions.defaults(), true);
    AggregateRow row = Normalizer.reference().normalize(o, single(2, 1));
    assertThat(row.conc()).isEqualTo(4);
    assertThat(row.model()).isEqualTo("org/tiny-4");
    assertThat(row.tputPerGpu()).isEqualTo(o.metrics().totalTokenThroughput() / 2);
    // latency keys in seconds; interactivity = 1000 / TPOT ms
    double medianTpotMs = o.metrics().tpot().medianMillis().orElseThrow();
    assertThat(row.metrics().get("median_tpot")).isEqualTo(medianTpotMs / 1000.0);
    assertThat(row.metrics().get("median_intvty")).isEqualTo(1000.0 / medianTpotMs);
    assertThat(row.simulated()).isTrue();
    List<String> keys = new ArrayList<>(row.metrics().keySet());
    assertThat(keys).startsWith("mean_ttft", "median_ttft", "std_ttft", "p90_ttft", "p99_ttft", "p99.9_ttft",
        "mean_tpot", "mean_intvty");
  }

  @Test
  void anOpenLoopRunWithoutConcurrencyHasNoRow() {
    StringWriter text = new StringWriter();
    PrintWriter w = new PrintWriter(text);
    ServeJob.Outcome o = ServeJob.builder()
        .backend(ServingBackend.VLLM).baseUrl(sim.baseUri()).model("tiny").tokenizer("builtin")
        .numPrompts(3).randomInputLen(16).randomOutputLen(4).requestRate(200)
        .saveResult(false).progress(false).build().run(w, w);
    assertThatThrownBy(() -> Normalizer.reference().normalize(o, single(1, 1)))
        .isInstanceOfSatisfying(ResultsException.class,
            e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_RAW_VALUE))
        .hasMessageContaining("--max-concurrency");
  }
}
