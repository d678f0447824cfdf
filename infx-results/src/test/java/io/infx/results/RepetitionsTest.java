package io.infx.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Repeated measurements of a point: means in the row, statistics under {@code repeats}. */
class RepetitionsTest {

  private static ObjectNode row(int conc, double tput, double ttft) {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("hw", "h200").put("conc", conc).put("image", "img").put("model", "m")
        .put("infmax_model_prefix", "m").put("framework", "vllm").put("precision", "fp8")
        .put("spec_decoding", "none").put("disagg", false).put("recipe_fingerprint", "")
        .put("isl", 1024).put("osl", 1024).put("is_multinode", false).put("tp", 8).put("pp", 1)
        .put("dcp_size", 1).put("pcp_size", 1).put("ep", 1).put("dp_attention", "false")
        .put("tput_per_gpu", tput).put("output_tput_per_gpu", tput / 2).put("input_tput_per_gpu", tput / 2)
        .put("median_ttft", ttft).put("p99_ttft", 2 * ttft);
    return o;
  }

  @Test
  void meansReplaceTheNumbersAndHeadlineStatisticsAreKept() {
    ObjectNode c = Repetitions.combine(List.of(row(4, 10, 0.1), row(4, 12, 0.2), row(4, 14, 0.3)));
    assertThat(c.get("conc").asInt()).isEqualTo(4);
    assertThat(c.get("tp").asInt()).isEqualTo(8);
    assertThat(c.get("tput_per_gpu").asDouble()).isEqualTo(12.0);
    assertThat(c.get("median_ttft").asDouble()).isCloseTo(0.2, within(1e-12));
    Repetitions r = Repetitions.fromJson(c.get("repeats"));
    assertThat(r.n()).isEqualTo(3);
    RepeatStatistics t = r.metric("tput_per_gpu").orElseThrow();
    // values 10, 12, 14: s = 2, t(0.975, 2) = 4.302653 (tables), half-width = 4.302653·2/√3
    assertThat(t.stdDev()).isCloseTo(2.0, within(1e-12));
    assertThat(t.halfWidth()).isCloseTo(4.302653 * 2 / Math.sqrt(3), within(1e-5));
    assertThat(t.cv()).isCloseTo(2.0 / 12, within(1e-12));
    assertThat(r.metric("median_tpot")).as("absent from the rows").isEmpty();
    // the row stays a valid aggregate and reads back with its repetitions
    assertThat(AggregateSchema.validate(c)).isEmpty();
    AggregateRow typed = AggregateRows.fromJson(c);
    assertThat(typed.repetitions()).isPresent();
    assertThat(typed.metrics()).doesNotContainKey("repeats");
    assertThat(typed.toJson().get("repeats")).isEqualTo(c.get("repeats"));
  }

  @Test
  void oneRepetitionIsReturnedUnchangedAndRowsWithoutRepeatsWriteNone() {
    ObjectNode one = row(1, 10, 0.1);
    assertThat(Repetitions.combine(List.of(one))).isEqualTo(one);
    assertThat(AggregateRows.fromJson(one).toJson().has("repeats")).isFalse();
    assertThat(Repetitions.count(one)).isEqualTo(1);
  }

  @Test
  void repetitionsOfDifferentPointsAreRefused() {
    assertThatIllegalArgumentException().isThrownBy(() -> Repetitions.combine(List.of(row(1, 10, 0.1), row(2, 10, 0.1))))
        .withMessageContaining("different points");
  }

  @Test
  void aMalformedRepeatsObjectIsAValidationError() {
    ObjectNode bad = row(1, 10, 0.1);
    bad.putObject("repeats").put("n", "three");
    assertThat(AggregateSchema.validate(bad)).extracting(v -> v.ruleId()).contains("aggregate.repeats");
    JsonNode fine = Repetitions.combine(List.of(row(1, 10, 0.1), row(1, 11, 0.1)));
    assertThat(AggregateSchema.validate(fine)).isEmpty();
  }
}
