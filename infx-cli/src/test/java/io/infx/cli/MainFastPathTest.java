package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The process entry point builds only the subcommand it runs ({@link Main#commandLineFor}); its
 * output, errors and exit codes must be those of the full command tree.
 */
class MainFastPathTest {

  record Outcome(int status, String out, String err) {}

  private static Outcome run(picocli.CommandLine cmd, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Main.run(cmd, args, new PrintWriter(out), new PrintWriter(err));
    return new Outcome(status, out.toString(), err.toString());
  }

  @Test
  void oneSubcommandTreeBehavesLikeTheFullTree() {
    List<String[]> cases = List.of(
        new String[] {"generate", "--help"},
        new String[] {"generate", "--version"},
        new String[] {"generate", "full-sweep", "--help"},
        new String[] {"generate", "--no-such-option"},
        new String[] {"generate", "full-sweep", "--config-files", "/nonexistent/master.yaml",
            "--runner-config", "/nonexistent/runners.yaml"},
        new String[] {"results", "--help"},
        new String[] {"--version"});
    for (String[] args : cases) {
      Outcome fast = run(Main.commandLineFor(args), args);
      Outcome full = run(Main.commandLine(), args);
      assertThat(fast).as(String.join(" ", args)).isEqualTo(full);
    }
    assertThat(Main.commandLineFor(new String[] {"generate"}).getSubcommands()).containsOnlyKeys("generate");
  }
}
