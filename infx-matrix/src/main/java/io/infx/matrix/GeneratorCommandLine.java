package io.infx.matrix;

import io.infx.core.UsageException;
import io.infx.core.tree.Source;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The reference generator's command line ({@code python -m infx.matrix.generate full-sweep|test-config
 * ...}, seed 003), parsed with the reference's (argparse) semantics: unique-prefix abbreviations,
 * {@code --opt=value}, {@code nargs="+"} options that read values up to the next option, negative
 * numbers as values, the last repetition winning, and argparse's error wording ("the following
 * arguments are required: --config-files", "unrecognized arguments: --conc 4", ...). Errors are
 * {@link UsageException}s (exit status 2).
 *
 * <p>{@link #run} resolves relative paths against a base directory while error messages keep the
 * paths as written, so an embedding tool (or a test) can run a command line "from" any directory.
 */
public final class GeneratorCommandLine {

  /** Default runner file, relative to the working directory (as in the reference). */
  public static final String DEFAULT_RUNNER_CONFIG = "configs/runners.yaml";

  private static final List<String> COMMANDS = List.of("full-sweep", "test-config");
  private static final Pattern NEGATIVE_NUMBER = Pattern.compile("^-\\d+$|^-\\d*\\.\\d+$");

  private GeneratorCommandLine() {}

  /** A parsed command line. */
  public sealed interface Request permits FullSweep, TestConfig, Help {}

  /** {@code full-sweep} with its files and options. */
  public record FullSweep(List<String> configFiles, String runnerConfig, FullSweepOptions options)
      implements Request {}

  /** {@code test-config} with its files and options. */
  public record TestConfig(List<String> configFiles, String runnerConfig, TestConfigOptions options)
      implements Request {}

  /** {@code -h}/{@code --help}: print {@code text} on stdout and succeed. */
  public record Help(String text) implements Request {}

  private enum Kind { FLAG, ONE, MANY }

  private record Opt(String name, Kind kind, boolean integer, List<String> choices) {}

  private static final List<Opt> COMMON = List.of(
      new Opt("--config-files", Kind.MANY, false, List.of()),
      new Opt("--runner-config", Kind.ONE, false, List.of()),
      new Opt("--no-evals", Kind.FLAG, false, List.of()),
      new Opt("--evals-only", Kind.FLAG, false, List.of()),
      new Opt("--all-evals", Kind.FLAG, false, List.of()),
      new Opt("--smoke", Kind.FLAG, false, List.of()),
      new Opt("--trim-conc", Kind.FLAG, false, List.of()),
      new Opt("--runner-node-filter", Kind.ONE, false, List.of()),
      new Opt("--scenario-type", Kind.MANY, false, List.of("fixed-seq-len", "agentic-coding")));
  private static final List<Opt> FULL_SWEEP = List.of(
      new Opt("--model-prefix", Kind.MANY, false, List.of()),
      new Opt("--precision", Kind.MANY, false, List.of()),
      new Opt("--framework", Kind.MANY, false, List.of()),
      new Opt("--runner-type", Kind.MANY, false, List.of()),
      new Opt("--seq-lens", Kind.MANY, false, List.of("1k1k", "8k1k")),
      new Opt("--step-size", Kind.ONE, true, List.of()),
      new Opt("--min-conc", Kind.ONE, true, List.of()),
      new Opt("--max-conc", Kind.ONE, true, List.of()),
      new Opt("--max-tp", Kind.ONE, true, List.of()),
      new Opt("--max-ep", Kind.ONE, true, List.of()),
      new Opt("--single-node", Kind.FLAG, false, List.of()),
      new Opt("--multi-node", Kind.FLAG, false, List.of()),
      new Opt("--help", Kind.FLAG, false, List.of()));
  private static final List<Opt> TEST_CONFIG = List.of(
      new Opt("--config-keys", Kind.MANY, false, List.of()),
      new Opt("--conc", Kind.MANY, true, List.of()),
      new Opt("--exp-names", Kind.MANY, false, List.of()),
      new Opt("--seq-lens", Kind.MANY, false, List.of("1k1k", "8k1k")),
      new Opt("--help", Kind.FLAG, false, List.of()));

  /**
   * Parses {@code argv} (the arguments after {@code generate}).
   *
   * @throws UsageException with argparse's wording for every argument error
   */
  public static Request parse(List<String> argv) {
    String command = null;
    int at = -1;
    for (int i = 0; i < argv.size(); i++) {
      String a = argv.get(i);
      if (a.equals("-h") || a.equals("--help")) {
        if (command == null) {
          return new Help(usage(null));
        }
      }
      if (looksLikeOption(a)) {
        continue;
      }
      command = a;
      at = i;
      break;
    }
    if (command == null) {
      throw new UsageException("the following arguments are required: command (choose from 'full-sweep', "
          + "'test-config')");
    }
    if (!COMMANDS.contains(command)) {
      throw new UsageException("argument command: invalid choice: '" + command
          + "' (choose from 'full-sweep', 'test-config')");
    }
    List<String> rest = new ArrayList<>();
    List<String> topExtras = new ArrayList<>(argv.subList(0, at));
    rest.addAll(argv.subList(at + 1, argv.size()));
    boolean fullSweep = command.equals("full-sweep");
    List<Opt> opts = new ArrayList<>(COMMON);
    opts.addAll(fullSweep ? FULL_SWEEP : TEST_CONFIG);

    Map<String, List<String>> values = new LinkedHashMap<>();
    Set<String> flags = new LinkedHashSet<>();
    List<String> extras = new ArrayList<>(topExtras);
    String exclusiveSeen = null;
    for (int i = 0; i < rest.size(); i++) {
      String a = rest.get(i);
      if (a.equals("-h")) {
        return new Help(usage(command));
      }
      if (!looksLikeOption(a)) {
        extras.add(a);
        continue;
      }
      String name = a;
      String inline = null;
      int eq = a.indexOf('=');
      if (a.startsWith("--") && eq > 0) {
        name = a.substring(0, eq);
        inline = a.substring(eq + 1);
      }
      Opt opt = match(name, opts);
      if (opt == null) {
        extras.add(a);
        continue;
      }
      if (opt.name().equals("--help")) {
        return new Help(usage(command));
      }
      if (opt.kind() == Kind.FLAG) {
        if (inline != null) {
          throw new UsageException("argument " + opt.name() + ": ignored explicit argument '" + inline + "'");
        }
        if (opt.name().equals("--no-evals") || opt.name().equals("--evals-only")) {
          if (exclusiveSeen != null && !exclusiveSeen.equals(opt.name())) {
            throw new UsageException("argument " + opt.name() + ": not allowed with argument " + exclusiveSeen);
          }
          exclusiveSeen = opt.name();
        }
        flags.add(opt.name());
        continue;
      }
      List<String> vs = new ArrayList<>();
      if (inline != null) {
        vs.add(inline);
      }
      if (opt.kind() == Kind.ONE) {
        if (inline == null) {
          if (i + 1 < rest.size() && !looksLikeOption(rest.get(i + 1))) {
            vs.add(rest.get(++i));
          } else {
            throw new UsageException("argument " + opt.name() + ": expected one argument");
          }
        }
      } else if (inline == null) {
        while (i + 1 < rest.size() && !looksLikeOption(rest.get(i + 1))) {
          vs.add(rest.get(++i));
        }
        if (vs.isEmpty()) {
          throw new UsageException("argument " + opt.name() + ": expected at least one argument");
        }
      }
      for (String v : vs) {
        if (opt.integer()) {
          try {
            Integer.parseInt(v.strip());
          } catch (NumberFormatException e) {
            throw new UsageException("argument " + opt.name() + ": invalid int value: '" + v + "'");
          }
        }
        if (!opt.choices().isEmpty() && !opt.choices().contains(v)) {
          throw new UsageException("argument " + opt.name() + ": invalid choice: '" + v + "' (choose from "
              + String.join(", ", opt.choices().stream().map(c -> "'" + c + "'").toList()) + ")");
        }
      }
      values.put(opt.name(), vs);
    }
    List<String> missing = new ArrayList<>();
    if (!values.containsKey("--config-files")) {
      missing.add("--config-files");
    }
    if (!fullSweep && !values.containsKey("--config-keys")) {
      missing.add("--config-keys");
    }
    if (!missing.isEmpty()) {
      throw new UsageException("the following arguments are required: " + String.join(", ", missing));
    }
    if (!extras.isEmpty()) {
      throw new UsageException("unrecognized arguments: " + String.join(" ", extras));
    }
    boolean noEvals = flags.contains("--no-evals");
    boolean evalsOnly = flags.contains("--evals-only");
    boolean allEvals = flags.contains("--all-evals");
    boolean smoke = flags.contains("--smoke");
    boolean trim = flags.contains("--trim-conc");
    if (fullSweep) {
      int step = integer(values, "--step-size").orElse(2);
      if (step <= 1) {
        throw new UsageException("--step-size must be greater than 1");
      }
      Optional<Integer> min = integer(values, "--min-conc");
      Optional<Integer> max = integer(values, "--max-conc");
      if (min.isPresent() && max.isPresent() && min.get() > max.get()) {
        throw new UsageException("--min-conc must be less than or equal to --max-conc");
      }
    }
    if (noEvals && allEvals) {
      throw new UsageException("--all-evals cannot be combined with --no-evals");
    }
    if (smoke && (trim || noEvals || evalsOnly || allEvals)) {
      throw new UsageException("--smoke cannot be combined with trimming or eval overrides");
    }
    EvalMode mode = smoke ? EvalMode.SMOKE : noEvals ? EvalMode.NONE : allEvals ? EvalMode.ALL
        : evalsOnly ? EvalMode.SUBSET : EvalMode.DEFAULT;
    List<String> files = values.get("--config-files");
    String runnerConfig = values.getOrDefault("--runner-config", List.of(DEFAULT_RUNNER_CONFIG)).get(0);
    Set<ScenarioType> scenarios = new LinkedHashSet<>();
    for (String s : values.getOrDefault("--scenario-type", List.of())) {
      scenarios.add(ScenarioType.fromWire(s).orElseThrow());
    }
    Optional<String> nodeFilter = Optional.ofNullable(values.get("--runner-node-filter")).map(l -> l.get(0));
    if (fullSweep) {
      boolean single = flags.contains("--single-node");
      boolean multi = flags.contains("--multi-node");
      if (!single && !multi) {
        single = true;
        multi = true;
      }
      FullSweepOptions o = FullSweepOptions.builder()
          .modelPrefixes(values.getOrDefault("--model-prefix", List.of()))
          .precisions(values.getOrDefault("--precision", List.of()))
          .frameworks(values.getOrDefault("--framework", List.of()))
          .runnerTypes(values.getOrDefault("--runner-type", List.of()))
          .seqLens(values.getOrDefault("--seq-lens", List.of()))
          .scenarioTypes(scenarios)
          .runnerNodeFilter(nodeFilter)
          .singleNode(single)
          .multiNode(multi)
          .stepSize(integer(values, "--step-size").orElse(2))
          .minConc(integer(values, "--min-conc"))
          .maxConc(integer(values, "--max-conc"))
          .maxTp(integer(values, "--max-tp"))
          .maxEp(integer(values, "--max-ep"))
          .evalMode(mode)
          .trimConc(trim)
          .build();
      return new FullSweep(files, runnerConfig, o);
    }
    List<Integer> concs = new ArrayList<>();
    for (String c : values.getOrDefault("--conc", List.of())) {
      concs.add(Integer.parseInt(c.strip()));
    }
    TestConfigOptions o = TestConfigOptions.builder()
        .configKeys(values.get("--config-keys"))
        .concs(concs)
        .expNames(values.getOrDefault("--exp-names", List.of()))
        .seqLens(values.getOrDefault("--seq-lens", List.of()))
        .scenarioTypes(scenarios)
        .runnerNodeFilter(nodeFilter)
        .evalMode(mode)
        .trimConc(trim)
        .build();
    return new TestConfig(files, runnerConfig, o);
  }

  /**
   * Parses and runs a generator command line, reading files relative to {@code baseDir}.
   *
   * @return the matrix, or empty for {@code --help} (whose text {@link #parse} returns)
   */
  public static Matrix run(List<String> argv, Path baseDir) {
    Request r = parse(argv);
    return run(r, baseDir).orElseThrow(() -> new IllegalArgumentException("--help has no matrix"));
  }

  /** Runs a parsed request, reading files relative to {@code baseDir}; empty for help. */
  public static Optional<Matrix> run(Request request, Path baseDir) {
    if (request instanceof Help) {
      return Optional.empty();
    }
    List<String> files = request instanceof FullSweep f ? f.configFiles() : ((TestConfig) request).configFiles();
    String runnerFile = request instanceof FullSweep f ? f.runnerConfig() : ((TestConfig) request).runnerConfig();
    List<Source> sources = new ArrayList<>();
    for (String f : files) {
      sources.add(Source.file(baseDir.resolve(f), f));
    }
    Catalog catalog = Catalog.load(sources);
    RunnerInventory runners = RunnerInventory.load(Source.file(baseDir.resolve(runnerFile), runnerFile));
    if (request instanceof FullSweep f) {
      return Optional.of(Generator.fullSweep(catalog, runners, f.options()));
    }
    return Optional.of(Generator.testConfig(catalog, runners, ((TestConfig) request).options()));
  }

  private static Optional<Integer> integer(Map<String, List<String>> values, String name) {
    List<String> v = values.get(name);
    return v == null ? Optional.empty() : Optional.of(Integer.parseInt(v.get(0).strip()));
  }

  private static boolean looksLikeOption(String a) {
    return a.startsWith("-") && a.length() > 1 && !NEGATIVE_NUMBER.matcher(a).matches();
  }

  /** argparse's option matching: an exact name, else a unique prefix of a long option. */
  private static Opt match(String name, List<Opt> opts) {
    for (Opt o : opts) {
      if (o.name().equals(name)) {
        return o;
      }
    }
    if (!name.startsWith("--")) {
      return null;
    }
    List<Opt> prefixed = new ArrayList<>();
    for (Opt o : opts) {
      if (o.name().startsWith(name)) {
        prefixed.add(o);
      }
    }
    if (prefixed.size() > 1) {
      throw new UsageException("ambiguous option: " + name + " could match "
          + String.join(", ", prefixed.stream().map(Opt::name).toList()));
    }
    return prefixed.isEmpty() ? null : prefixed.get(0);
  }

  /** Usage text of {@code command} (or of the command group when null). */
  public static String usage(String command) {
    if (command == null) {
      return """
          usage: infx generate [-h] {full-sweep,test-config} ...

          Expand master configs into the benchmark matrix (JSON on stdout), exactly as
          InferenceX's `python -m infx.matrix.generate` does.

          commands:
            full-sweep   every config, filtered by model prefix, precision, framework,
                         runner type, sequence lengths, node kind; concurrency bounds
            test-config  the configs named by --config-keys (exact keys or * / ? globs)

          Run 'infx generate <command> --help' for the options of a command.
          """;
    }
    String common = """
          --config-files FILE [FILE ...]   master YAML files, merged in order (required)
          --runner-config FILE             runner file (default: configs/runners.yaml)
          --no-evals | --evals-only        throughput only | only the eval subset
          --all-evals                      every eligible 8k1k fixed and agentic eval (eval-only)
          --smoke                          minimum-concurrency throughput + one eval per shape
          --trim-conc                      keep the minimum concurrency of each deployment shape
          --runner-node-filter TEXT        expand to concrete runner names containing TEXT
          --scenario-type {fixed-seq-len,agentic-coding} [...]
        """;
    if (command.equals("full-sweep")) {
      return "usage: infx generate full-sweep --config-files FILE [FILE ...] [options]\n\n"
          + "Every config of the merged master files, filtered and bounded.\n\noptions:\n" + common
          + """
            --model-prefix P [P ...]         config keys starting with P (not the model-prefix field)
            --precision X [X ...]            exact precision
            --framework X [X ...]            exact framework
            --runner-type LABEL [LABEL ...]  exact runner label (must exist in the runner file)
            --seq-lens {1k1k,8k1k} [...]     fixed-seq-len families (agentic rows are kept)
            --step-size N                    concurrency range factor (default 2, must exceed 1)
            --min-conc N / --max-conc N      concurrency bounds
            --max-tp N / --max-ep N          single-node TP cap (skip) / EP cap (clamp)
            --single-node / --multi-node     node kinds (default: both)
            -h, --help                       show this help
          """;
    }
    return "usage: infx generate test-config --config-files FILE [FILE ...] --config-keys KEY [KEY ...] [options]\n\n"
        + "The full sweep of the named configs (step 2, no bounds).\n\noptions:\n" + common
        + """
          --config-keys KEY [KEY ...]      exact keys or shell patterns (* ? [..]); required
          --conc N [N ...]                 only these concurrency values
          --exp-names NAME [NAME ...]      only rows with these exact exp-names
          --seq-lens {1k1k,8k1k} [...]     fixed-seq-len families
          -h, --help                       show this help
        """;
  }
}
