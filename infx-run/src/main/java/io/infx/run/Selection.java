package io.infx.run;

import io.infx.core.UsageException;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.GeneratorCommandLine;
import io.infx.matrix.TestConfigOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Which matrix rows a run expands: the options of {@code generate full-sweep} (filters and bounds
 * over every config) or of {@code generate test-config} (named config keys).
 */
public sealed interface Selection {

  /** Every config of the files, filtered and bounded like {@code generate full-sweep}. */
  record FullSweep(FullSweepOptions options) implements Selection {
    public FullSweep {
      Objects.requireNonNull(options, "options");
    }
  }

  /** Named configs (globs allowed), like {@code generate test-config}. */
  record TestConfig(TestConfigOptions options) implements Selection {
    public TestConfig {
      Objects.requireNonNull(options, "options");
    }
  }

  /** All rows of every config (a full sweep without filters). */
  static Selection all() {
    return new FullSweep(FullSweepOptions.builder().build());
  }

  static Selection fullSweep(FullSweepOptions options) {
    return new FullSweep(options);
  }

  static Selection testConfig(TestConfigOptions options) {
    return new TestConfig(options);
  }

  /**
   * Parses {@code generate} filter arguments, with {@code generate}'s own parser and error
   * messages: {@code test-config} semantics when {@code --config-keys} is among them, else
   * {@code full-sweep} — e.g. {@code ["--max-conc", "8", "--seq-lens", "1k1k"]} or
   * {@code ["--config-keys", "dsr1-*", "--conc", "4"]}. {@code --config-files} and
   * {@code --runner-config} are not accepted here (the run names its files itself).
   *
   * @throws UsageException for arguments {@code generate} would reject
   */
  static Selection parse(List<String> generateArgs) {
    for (String a : generateArgs) {
      String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
      if (name.equals("--config-files") || name.equals("--runner-config")) {
        throw new UsageException(name + " is not a filter: give the config files as arguments"
            + (name.equals("--runner-config") ? " and the runner file with infx run --runner-config" : ""));
      }
    }
    boolean testConfig = generateArgs.stream()
        .anyMatch(a -> a.equals("--config-keys") || a.startsWith("--config-keys="));
    List<String> argv = new ArrayList<>();
    argv.add(testConfig ? "test-config" : "full-sweep");
    argv.add("--config-files");
    argv.add("<config>");
    argv.add("--runner-config");
    argv.add("<runners>");
    argv.addAll(generateArgs);
    GeneratorCommandLine.Request r;
    try {
      r = GeneratorCommandLine.parse(argv);
    } catch (UsageException e) {
      if (!e.getMessage().contains("unrecognized arguments")) {
        throw e;
      }
      if (e.getMessage().contains("--max-concurrency")) {
        throw new UsageException(e.getMessage() + " (infx run takes generate's filters: --max-conc N, "
            + "or --conc N with --config-keys; concurrency comes from the configs' search space)");
      }
      throw new UsageException(e.getMessage() + (testConfig
          ? " (with --config-keys the test-config filters apply: see infx generate test-config --help)"
          : " (without --config-keys the full-sweep filters apply: see infx generate full-sweep --help;"
              + " --conc and the other test-config filters need --config-keys)"));
    }
    if (r instanceof GeneratorCommandLine.FullSweep f) {
      return new FullSweep(f.options());
    }
    if (r instanceof GeneratorCommandLine.TestConfig t) {
      return new TestConfig(t.options());
    }
    throw new UsageException("--help is not a filter (see infx generate full-sweep --help)");
  }
}
