package io.infx.results.agentx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.infx.core.UsageException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgenticGateTest {

  @TempDir Path tmp;

  private AgenticGate.Result gate(String aggregateJson, double threshold) throws Exception {
    Files.createDirectories(tmp.resolve("art"));
    Files.writeString(tmp.resolve("art/profile_export_aiperf.json"), aggregateJson);
    return AgenticGate.validate(Path.of("art"), threshold, tmp);
  }

  @Test
  void limitIsInclusive() throws Exception {
    // spec §7 #2
    AgenticGate.Result r = gate(
        "{\"request_count\":{\"avg\":45},\"error_request_count\":{\"avg\":5},\"completed_request_count\":{\"avg\":50}}",
        0.10);
    assertThat(r.passed()).isTrue();
    assertThat(r.stdout()).containsExactly("Validated aiperf request error rate: 5/50 = 10.000% <= 10.000%");
    assertThat(r.stderr()).isEmpty();
  }

  @Test
  void exceedingTheLimitFailsWithTheReferenceMessage() throws Exception {
    // spec §7 #3
    AgenticGate.Result r = gate(
        "{\"request_count\":{\"avg\":2},\"error_request_count\":{\"avg\":65},\"completed_request_count\":{\"avg\":67}}",
        0.10);
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stderr()).containsExactly(
        "ERROR: aiperf request error rate exceeded the benchmark limit: 65/67 = 97.015% > 10.000%");
    assertThat(r.stdout()).isEmpty();
  }

  @Test
  void largeCountsUseSixSignificantDigits() throws Exception {
    AgenticGate.Result r = gate(
        "{\"request_count\":{\"avg\":1234567},\"error_request_count\":{\"avg\":0}}", 0.10);
    assertThat(r.stdout()).containsExactly("Validated aiperf request error rate: 0/1.23457e+06 = 0.000% <= 10.000%");
  }

  @Test
  void malformedAndMissingCounters() throws Exception {
    assertThat(gate("{\"request_count\":5}", 0.1).stderr())
        .containsExactly("ERROR: failed to read art/profile_export_aiperf.json: request_count must be an object");
    assertThat(gate("{\"request_count\":{\"avg\":-1}}", 0.1).stderr()).containsExactly(
        "ERROR: failed to read art/profile_export_aiperf.json: request_count.avg must be a finite non-negative number");
    assertThat(gate("{\"error_request_count\":{\"avg\":1}}", 0.1).stderr())
        .containsExactly("ERROR: request_count.avg is missing");
    assertThat(gate("[1]", 0.1).stderr())
        .containsExactly("ERROR: art/profile_export_aiperf.json must contain a JSON object");
    assertThat(AgenticGate.validate(Path.of("nowhere"), 0.1, tmp).stderr())
        .containsExactly("ERROR: nowhere/profile_export_aiperf.json not found");
  }

  @Test
  void thresholdMustBeAFractionOrItIsAUsageError() {
    assertThat(AgenticGate.parseThreshold("0.10")).isEqualTo(0.10);
    assertThatThrownBy(() -> AgenticGate.parseThreshold("1.5"))
        .isInstanceOf(UsageException.class).hasMessageContaining("between 0 and 1");
    assertThatThrownBy(() -> AgenticGate.parseThreshold("abc")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> AgenticGate.parseThreshold("nan")).isInstanceOf(UsageException.class);
  }

  @Test
  void aRunStampedInvalidFailsNamingTheReasons() throws Exception {
    // the reference passes this run (it never reads the stamp); a 60 s smoke run must not pass
    String stamped = "{\"request_count\":{\"avg\":12},\"error_request_count\":{\"avg\":0},"
        + "\"metadata\":{\"submission_valid\":false,\"submission_invalid_reasons\":[\"unsafe_override\"]}}";
    AgenticGate.Result r = gate(stamped, 0.10);
    assertThat(r.exitCode()).isEqualTo(1);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr()).containsExactly("ERROR: aiperf run is not a valid submission: "
        + "art/profile_export_aiperf.json has submission_valid=false (unsafe_override); "
        + "aiperf request error rate: 0/12 = 0.000% <= 10.000%");
    // the reference gate alone, when asked for
    AgenticGate.Result reference = AgenticGate.validate(Path.of("art"), 0.10, tmp, AgenticGate.Submission.ERROR_RATE_ONLY);
    assertThat(reference.stdout()).containsExactly("Validated aiperf request error rate: 0/12 = 0.000% <= 10.000%");
    // the reference's failures keep their own message first
    assertThat(gate("{\"request_count\":{\"avg\":2},\"error_request_count\":{\"avg\":65},"
        + "\"metadata\":{\"submission_valid\":false,\"submission_invalid_reasons\":[\"run_cancelled\"]}}", 0.10).stderr())
        .containsExactly("ERROR: aiperf request error rate exceeded the benchmark limit: 65/67 = 97.015% > 10.000%");
  }

  @Test
  void aValidStampPassesAndAMalformedOneIsAnError() throws Exception {
    assertThat(gate("{\"request_count\":{\"avg\":12},\"metadata\":{\"submission_valid\":true,"
        + "\"submission_invalid_reasons\":[]}}", 0.10).passed()).isTrue();
    assertThat(gate("{\"request_count\":{\"avg\":12},\"metadata\":{\"submission_valid\":\"no\"}}", 0.10).stderr())
        .containsExactly("ERROR: failed to read art/profile_export_aiperf.json: metadata.submission_valid must be true or false");
  }
}
