package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.infx.core.UsageException;
import io.infx.core.json.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SloTest {

  @Test
  void parsesTheIssuesExampleIntoTypedTerms() {
    Slo slo = Slo.parse("ttft.p99<=2000ms, tpot.p50 <= 50ms ,e2el.p90<3s,goodput>=0.99");
    assertThat(slo.terms()).hasSize(4);
    SloTerm ttft = slo.terms().get(0);
    assertThat(ttft.metric()).isEqualTo(SloTerm.Metric.TTFT);
    assertThat(ttft.statistic().percentile()).isEqualTo(99.0);
    assertThat(ttft.comparison()).isEqualTo(SloTerm.Operator.AT_MOST);
    assertThat(ttft.bound()).isCloseTo(2.0, within(1e-12)); // seconds, the aggregate's unit
    assertThat(ttft.key()).isEqualTo("p99_ttft");
    assertThat(slo.terms().get(1).key()).isEqualTo("median_tpot");
    assertThat(slo.terms().get(1).bound()).isCloseTo(0.05, within(1e-12));
    assertThat(slo.terms().get(2).comparison()).isEqualTo(SloTerm.Operator.BELOW);
    assertThat(slo.terms().get(2).key()).isEqualTo("p90_e2el");
    assertThat(slo.terms().get(3).key()).isEqualTo("goodput");
    assertThat(slo.terms().get(3).bound()).isEqualTo(0.99);
    assertThat(slo).hasToString("ttft.p99<=2000ms,tpot.p50<=50ms,e2el.p90<3s,goodput>=0.99");
    assertThat(Slo.parse(slo.toString())).isEqualTo(slo);
  }

  @Test
  void unitsStatisticsAndNamesAreNormalised() {
    Slo slo = Slo.parse("TTFT.median<=0.5s,itl.mean<=800us,e2el.p99.9<=12s,intvty.p50>=20tok/s,goodput>=95%");
    assertThat(slo.terms()).extracting(SloTerm::key)
        .containsExactly("median_ttft", "mean_itl", "p99.9_e2el", "median_intvty", "goodput");
    assertThat(slo.terms().get(1).bound()).isCloseTo(0.0008, within(1e-15));
    assertThat(slo.terms().get(4).bound()).isCloseTo(0.95, within(1e-12));
    assertThat(Slo.parse("tpot.p50≤50ms").terms().get(0).comparison()).isEqualTo(SloTerm.Operator.AT_MOST);
  }

  @Test
  void ratioPutsEveryTermOnOneScale() {
    SloTerm upper = Slo.parse("ttft.p99<=2000ms").terms().get(0);
    assertThat(upper.ratio(1.0)).isEqualTo(0.5);
    assertThat(upper.ratio(3.0)).isEqualTo(1.5);
    assertThat(upper.passes(2.0)).isTrue();
    SloTerm strict = Slo.parse("ttft.p99<2000ms").terms().get(0);
    assertThat(strict.passes(2.0)).isFalse();
    SloTerm lower = Slo.parse("intvty.p50>=20").terms().get(0);
    assertThat(lower.ratio(40)).isEqualTo(0.5);   // twice the floor: half of the bound used
    assertThat(lower.ratio(10)).isEqualTo(2.0);
    assertThat(lower.ratio(0)).isInfinite();
    assertThat(lower.passes(20)).isTrue();
  }

  @Test
  void goodputThresholdsAreTheLargestUpperBoundPerMetric() {
    Slo slo = Slo.parse("ttft.p50<=500ms,ttft.p99<=2000ms,tpot.p50<=50ms,itl.p99<=100ms,goodput>=0.99");
    assertThat(slo.goodputThresholdsMillis()).containsExactly(Map.entry("ttft", 2000.0), Map.entry("tpot", 50.0));
    assertThat(Slo.parse("ttft.p99<=2s").goodputThresholdsMillis()).isEmpty();
  }

  @Test
  void extraPercentilesAreThoseTheClientDoesNotReportByDefault() {
    assertThat(Slo.parse("ttft.p95<=1s,tpot.p99<=50ms,e2el.median<=9s,itl.p75<=9ms,ttft.p90<=2s").extraPercentiles())
        .containsExactly(75.0, 95.0);
  }

  @Test
  void goodFractionIsGoodRequestsOverRequestedPrompts() {
    // 38 good of 40 requested in 9.5 s: request_goodput = 4.0 req/s
    var raw = Json.mapper().createObjectNode().put("num_prompts", 40).put("duration", 9.5).put("request_goodput:", 4.0);
    assertThat(Slo.goodFraction(raw)).hasValue(0.95);
    assertThat(Slo.goodFraction(raw.putNull("request_goodput:"))).isEmpty();
  }

  @Test
  void errorsAreLocatedByColumnWithTheRuleAndACaret() {
    assertThatThrownBy(() -> Slo.parse("ttft.p99<=2000ms,tpot.px<=50ms"))
        .isInstanceOf(UsageException.class)
        .hasMessage("slo:1:23: [slo.statistic] unknown statistic 'px': mean, median, p50 or pN with 0 < N < 100"
            + " (p90, p99, p99.9)\n  ttft.p99<=2000ms,tpot.px<=50ms\n                        ^");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    assertThatThrownBy(() -> Slo.parse("ttfb.p99<=2s, tpot.p50<=50, e2el.p99>=3s,,goodput>=1.5"))
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("slo: 5 problems")
        .hasMessageContaining("1:1: [slo.metric] unknown metric 'ttfb'")
        .hasMessageContaining("1:27: [slo.unit] a latency bound needs a unit: us, ms or s (e.g. tpot.p50<=50ms)")
        .hasMessageContaining("1:37: [slo.direction] e2el is a latency: bound it from above")
        .hasMessageContaining("1:42: [slo.term] empty term")
        .hasMessageContaining("1:52: [slo.number] goodput is a share of requests, at most 1");
  }

  @Test
  void rulesAcrossTermsAreChecked() {
    assertThatThrownBy(() -> Slo.parse("ttft.p99<=2s,ttft.p99<=1s"))
        .hasMessageContaining("1:14: [slo.duplicate] ttft.p99 is bounded twice (ttft.p99<=2s and ttft.p99<=1s)");
    assertThatThrownBy(() -> Slo.parse("itl.p99<=20ms,goodput>=0.9"))
        .hasMessageContaining("1:15: [slo.goodput] goodput needs a ttft, tpot or e2el term");
    assertThatThrownBy(() -> Slo.parse("  ")).hasMessageContaining("[slo.empty]");
    assertThatThrownBy(() -> Slo.parse("ttft<=2s")).hasMessageContaining("1:5: [slo.statistic] say which statistic");
    assertThatThrownBy(() -> Slo.parse("goodput.p99>=0.9")).hasMessageContaining("[slo.statistic] goodput is one number");
    assertThatThrownBy(() -> Slo.parse("ttft.p99=2s")).hasMessageContaining("1:9: [slo.op]");
    assertThatThrownBy(() -> Slo.parse("ttft.p99<=2 s x")).hasMessageContaining("[slo.term] unexpected 'x'");
    assertThatThrownBy(() -> Slo.parse("ttft.p100<=2s")).hasMessageContaining("[slo.statistic] unknown statistic 'p100'");
  }

  @Test
  void errorsNameTheSourceTheCallerGives() {
    assertThatThrownBy(() -> Slo.parse("ttft.p99<=2parsecs", "search.yaml")).hasMessageStartingWith(
        "search.yaml:1:12: [slo.unit] unknown unit 'parsecs'");
  }

  @Test
  void termsBuiltInCodeAreChecked() {
    SloTerm t = new SloTerm(SloTerm.Metric.TPOT, SloTerm.Statistic.percentile(50), SloTerm.Operator.AT_MOST, 0.05,
        "tpot.p50<=50ms");
    assertThat(Slo.of(List.of(t)).terms()).containsExactly(t);
    assertThatThrownBy(() -> new SloTerm(SloTerm.Metric.TPOT, SloTerm.Statistic.MEAN, SloTerm.Operator.AT_LEAST,
        0.05, "x")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bounded from above");
    assertThatThrownBy(() -> Slo.of(List.of(t, t))).hasMessageContaining("bounded twice");
    assertThatThrownBy(() -> Slo.of(List.of())).hasMessageContaining("at least one term");
  }
}
