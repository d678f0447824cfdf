package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class MainTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void noCommandIsAUsageError() {
    assertThat(run()).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("missing command").doesNotContain("Exception");
  }

  @Test
  void unknownOptionIsAUsageErrorWithoutStackTrace() {
    assertThat(run("--no-such-option")).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("--no-such-option").doesNotContain("\tat ");
  }

  @Test
  void helpGoesToStdout() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("Usage: infx");
  }
}
