package io.infx.cli;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/** Runs {@link Main} in-process and keeps what it printed; locates the shared AgentX corpus. */
final class CliHarness {

  StringWriter out = new StringWriter();
  StringWriter err = new StringWriter();

  int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    return Main.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  String out() {
    return out.toString();
  }

  String err() {
    return err.toString();
  }

  /** {@code shared/conformance/agentx}; skips the calling test when it is absent. */
  static Path agentxCorpus() {
    String shared = System.getenv("INFX_SHARED");
    Path dir = shared != null && !shared.isBlank()
        ? Path.of(shared, "conformance", "agentx")
        : Path.of(System.getProperty("infx.repo.root", ".")).toAbsolutePath().normalize()
            .resolveSibling("shared").resolve("conformance").resolve("agentx");
    assumeTrue(Files.isDirectory(dir), "AgentX conformance corpus not found at " + dir + " (set INFX_SHARED)");
    return dir;
  }
}
