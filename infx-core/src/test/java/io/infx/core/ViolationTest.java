package io.infx.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ViolationTest {

  @Test
  void rendersLocationRulePointerAndExpectedActual() {
    Violation v = Violation.builder()
        .ruleId("master.tp.power-of-two")
        .pointer("/dsr1-fp8-h200-sglang/search-space/0/tp")
        .location(new Location("nvidia-master.yaml", 12, 9))
        .expected("a power of two")
        .actual("3")
        .message("tp must be a power of two")
        .build();

    assertThat(v.render()).isEqualTo(
        "nvidia-master.yaml:12:9: [master.tp.power-of-two] /dsr1-fp8-h200-sglang/search-space/0/tp: "
            + "tp must be a power of two (expected a power of two, actual 3)");
  }

  @Test
  void omitsWhatIsAbsent() {
    assertThat(Violation.of("usage.required", "missing --config-files").render())
        .isEqualTo("[usage.required] missing --config-files");
  }

  @Test
  void validationExceptionListsEveryViolationInOrder() {
    Violation a = Violation.of("r.a", "first");
    Violation b = Violation.of("r.b", "second");
    ValidationException e = new ValidationException(ErrorKind.CONFIG_VALIDATION, List.of(a, b));

    assertThat(e.violations()).containsExactly(a, b);
    assertThat(e.getMessage()).isEqualTo("2 violations:\n[r.a] first\n[r.b] second");
    assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG_VALIDATION);
    assertThat(e.exitCode()).isEqualTo(1);
  }

  @Test
  void validationExceptionNeedsAViolation() {
    assertThatThrownBy(() -> new ValidationException(ErrorKind.INPUT, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void usageErrorsExitTwo() {
    assertThat(new UsageException("bad").exitCode()).isEqualTo(2);
    assertThat(new UsageException("bad").kind()).isEqualTo(ErrorKind.USAGE);
  }

  @Test
  void locationIsOneBased() {
    assertThatThrownBy(() -> new Location("f", 0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new Location("f.yaml", 3, 4)).hasToString("f.yaml:3:4");
  }

  @Test
  void buildersOfTheInfxStyleCannotBeHalfBuiltNorTakeNull() {
    // InfxStyle: a missing mandatory attribute fails at build(), naming it; null is refused
    assertThatThrownBy(() -> Violation.builder().message("m").build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("ruleId");
    assertThatThrownBy(() -> Violation.builder().ruleId(null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("ruleId");
  }

  @Test
  void aHugeListOfViolationsPrintsTheFirstHundredThenACount() {
    List<Violation> many = new java.util.ArrayList<>();
    for (int i = 0; i < 300_000; i++) {
      many.add(Violation.of("V1.unknown-key", "unknown key 'k" + i + "'"));
    }
    ValidationException e = new ValidationException(ErrorKind.CONFIG_VALIDATION, many);
    List<String> lines = e.getMessage().lines().toList();
    assertThat(lines).hasSize(1 + ValidationException.MAX_RENDERED + 1);
    assertThat(lines.get(0)).isEqualTo("300000 violations:");
    assertThat(lines.get(100)).contains("'k99'");
    assertThat(lines.get(101)).startsWith("… and 299900 more violations");
    assertThat(e.violations()).hasSize(300_000);
  }
}
