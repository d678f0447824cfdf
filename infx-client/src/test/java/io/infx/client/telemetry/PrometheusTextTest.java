package io.infx.client.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

  /** vLLM-shaped metrics, written by the Prometheus Java client itself (not by infx). */
  private static MetricSnapshots snapshots() {
    return MetricSnapshots.of(
        CounterSnapshot.builder().name("vllm:generation_tokens").help("Number of generation tokens processed.")
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(12345)
                .labels(Labels.of("model_name", "tiny \"q\" \\ x")).build())
            .build(),
        GaugeSnapshot.builder().name("vllm:num_requests_waiting").help("queued")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(7).labels(Labels.of("model_name", "tiny"))
                .build())
            .build(),
        HistogramSnapshot.builder().name("vllm:e2e_request_latency_seconds").help("e2e")
            .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.of(new double[] {0.5, 1.0, Double.POSITIVE_INFINITY},
                    new long[] {3, 4, 1}))
                .sum(9.25).labels(Labels.of("model_name", "tiny")).build())
            .build());
  }

  private static String write(ExpositionFormatWriter w) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    w.write(out, snapshots(), EscapingScheme.ALLOW_UTF8);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void readsWhatThePrometheusClientsTextFormatWriterWrites() throws Exception {
    PrometheusText.Exposition x = PrometheusText.parse(write(PrometheusTextFormatWriter.create()));
    PrometheusText.Family gen = x.family("vllm:generation_tokens_total");
    assertThat(gen.type()).isEqualTo(PrometheusText.Type.COUNTER);
    assertThat(gen.help()).isEqualTo("Number of generation tokens processed.");
    assertThat(gen.samples()).singleElement().satisfies(s -> {
      assertThat(s.value()).isEqualTo(12345.0);
      assertThat(s.labels()).containsExactly(Map.entry("model_name", "tiny \"q\" \\ x"));
    });
    assertThat(x.family("vllm:num_requests_waiting").samples().get(0).value()).isEqualTo(7.0);
    PrometheusText.Family h = x.family("vllm:e2e_request_latency_seconds");
    assertThat(h.type()).isEqualTo(PrometheusText.Type.HISTOGRAM);
    assertThat(h.samples()).extracting(PrometheusText.Sample::name).contains(
        "vllm:e2e_request_latency_seconds_bucket", "vllm:e2e_request_latency_seconds_count",
        "vllm:e2e_request_latency_seconds_sum");
    assertThat(h.samples()).filteredOn(s -> s.name().endsWith("_count")).singleElement()
        .extracting(PrometheusText.Sample::value).isEqualTo(8.0);
    assertThat(h.samples()).filteredOn(s -> "+Inf".equals(s.labels().get("le"))).singleElement()
        .extracting(PrometheusText.Sample::value).isEqualTo(8.0);
  }

  @Test
  void readsTheOpenMetricsVariantOfTheSameSnapshots() throws Exception {
    String text = write(OpenMetricsTextFormatWriter.create());
    assertThat(text).contains("# EOF");
    PrometheusText.Exposition x = PrometheusText.parse(text);
    // OpenMetrics names the counter family without _total; the sample keeps it
    PrometheusText.Family gen = x.family("vllm:generation_tokens");
    assertThat(gen.type()).isEqualTo(PrometheusText.Type.COUNTER);
    assertThat(gen.samples()).extracting(PrometheusText.Sample::name).contains("vllm:generation_tokens_total");
    ServerMetricsLog.Scrape s = ServerMetricsLog.Scrape.of(0, 0, x);
    assertThat(s.engine()).isEqualTo(ServerMetricNames.Engine.VLLM);
    assertThat(s.counters()).containsEntry("vllm:generation_tokens_total{model_name=\"tiny \\\"q\\\" \\\\ x\"}", 12345.0)
        .containsEntry("vllm:e2e_request_latency_seconds_count{model_name=\"tiny\"}", 8.0)
        .doesNotContainKey("vllm:e2e_request_latency_seconds_bucket{model_name=\"tiny\",le=\"0.5\"}");
    assertThat(s.gauges()).containsEntry("vllm:num_requests_waiting{model_name=\"tiny\"}", 7.0);
  }

  @Test
  void readsLlamaCppAndDcgmExporterText() {
    // llama-server --metrics (as served by /work/shared/realserver's build) and dcgm-exporter's
    // documented output: HELP/TYPE comments, colon names, CRLF, timestamps, special values
    String text = "# HELP llamacpp:tokens_predicted_total Number of generation tokens processed\r\n"
        + "# TYPE llamacpp:tokens_predicted_total counter\r\n"
        + "llamacpp:tokens_predicted_total 20\r\n"
        + "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (in W).\n"
        + "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
        + "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-b7a5\",device=\"nvidia0\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"n1\",} 187.25 1712345678901\n"
        + "odd_value{a=\"b\"} NaN\n"
        + "neg_inf -Inf\n\n";
    PrometheusText.Exposition x = PrometheusText.parse(text);
    assertThat(x.family("llamacpp:tokens_predicted_total").samples().get(0).value()).isEqualTo(20.0);
    PrometheusText.Sample p = x.family("DCGM_FI_DEV_POWER_USAGE").samples().get(0);
    assertThat(p.labels()).containsEntry("gpu", "0").containsEntry("modelName", "NVIDIA H100 80GB HBM3");
    assertThat(p.value()).isEqualTo(187.25);
    assertThat(p.timestampMs()).isEqualTo(OptionalLong.of(1712345678901L));
    assertThat(x.family("odd_value").samples().get(0).value()).isNaN();
    assertThat(x.family("neg_inf").samples().get(0).value()).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(x.family("odd_value").type()).isEqualTo(PrometheusText.Type.UNTYPED);
  }

  @Test
  void aMalformedSampleLineIsRejectedWithItsLineAndColumn() {
    assertThatThrownBy(() -> PrometheusText.parse("# TYPE a gauge\na{x=\"1} 2\n"))
        .isInstanceOf(PrometheusText.PrometheusFormatException.class)
        .hasMessage("line 2, column 10: unterminated value of label 'x'");
    assertThatThrownBy(() -> PrometheusText.parse("a 1.2.3\n"))
        .hasMessage("line 1, column 3: malformed value '1.2.3'");
    assertThatThrownBy(() -> PrometheusText.parse("a{x=1} 2\n"))
        .hasMessage("line 1, column 5: expected '\"' to open the value of label 'x'");
    assertThatThrownBy(() -> PrometheusText.parse("good 1\nbad\n"))
        .hasMessage("line 2, column 4: expected a space and the sample's value");
  }

  @Test
  void seriesKeysRoundTripThroughTheParser() {
    PrometheusText.Sample s = PrometheusText.parse("m{a=\"x\\ny\",b=\"q\\\"\"} 1\n").samples().get(0);
    assertThat(s.labels()).containsExactly(Map.entry("a", "x\ny"), Map.entry("b", "q\""));
    assertThat(PrometheusText.parse(s.seriesKey() + " 1\n").samples().get(0)).isEqualTo(s);
  }
}
