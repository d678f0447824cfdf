package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ResultsCommandTest {

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void groupWithoutSubcommandIsAUsageError() {
    assertThat(run("results")).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("missing subcommand").doesNotContain("\tat ");
  }

  @Test
  void groupIsListedInTheTopLevelHelp() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("results");
  }
}
