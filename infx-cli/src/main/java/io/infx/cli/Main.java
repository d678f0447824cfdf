package io.infx.cli;

import io.infx.core.InfxException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code infx} command. Each area registers its command group here; the groups live in their
 * own classes next to this one.
 *
 * <p>Conventions every subcommand follows: stdout carries only the command's output (JSON, tables,
 * {@code KEY=VALUE} lines), everything else goes to stderr; user mistakes throw an
 * {@link InfxException} (or a picocli {@link ParameterException}) and are printed as one clear
 * message without a stack trace; usage errors exit 2, other failures 1.
 */
@Command(
    name = "infx",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description = "Benchmark LLM inference serving: expand configs into a matrix, drive load, "
        + "normalize and compare results.",
    subcommands = {
        CommandLine.HelpCommand.class,
        GenerateCommand.class,
        ResultsCommand.class,
        FleetCommand.class,
        AgentxCommand.class,
        PlanCommand.class,
        BenchCommand.class,
        SimCommand.class,
        ReportCommand.class,
        RunCommand.class,
        SearchCommand.class,
        RecipeCommand.class,
        DbCommand.class,
        DashboardCommand.class,
    })
public final class Main implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing command");
  }

  public static void main(String[] args) {
    System.exit(run(commandLineFor(args), args, new PrintWriter(System.out, true),
        new PrintWriter(System.err, true)));
  }

  /**
   * The command tree a process running {@code args} needs: when {@code args[0]} names a
   * subcommand, the root with that one subcommand only, else the full tree. Why: picocli builds
   * every command's model by reflection up front, and a one-shot {@code infx generate} paid for
   * all twelve groups at start-up. Parsing, help, errors and exit codes are the same either way
   * (MainTest compares them).
   */
  static CommandLine commandLineFor(String[] args) {
    if (args.length > 0) {
      for (Class<?> c : Main.class.getAnnotation(Command.class).subcommands()) {
        Command a = c.getAnnotation(Command.class);
        if (a != null && c != CommandLine.HelpCommand.class
            && (a.name().equals(args[0]) || java.util.Arrays.asList(a.aliases()).contains(args[0]))) {
          CommandLine root = new CommandLine(new Root());
          root.addSubcommand(new CommandLine(c));
          return configure(root);
        }
      }
    }
    return commandLine();
  }

  /** The root command without its subcommands (they are added one by one). */
  @Command(name = "infx", mixinStandardHelpOptions = true, versionProvider = Main.Version.class)
  static final class Root implements Runnable {
    @Spec CommandSpec spec;

    @Override
    public void run() {
      throw new ParameterException(spec.commandLine(), "missing command");
    }
  }

  /**
   * Runs the command line in this JVM, as the {@code infx} launcher would, writing to the given
   * streams. Used by tests and by tools that embed the CLI.
   *
   * @return the exit status: 0 success, 1 failure, 2 usage error
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return run(commandLine(), args, out, err);
  }

  static int run(CommandLine cmd, String[] args, PrintWriter out, PrintWriter err) {
    cmd.setOut(out);
    cmd.setErr(err);
    try {
      return cmd.execute(args);
    } finally {
      out.flush();
      err.flush();
    }
  }

  /** The configured command tree (exception handlers included), for embedding and tests. */
  public static CommandLine commandLine() {
    return configure(new CommandLine(new Main()));
  }

  private static CommandLine configure(CommandLine cmd) {
    shareVersion(cmd, cmd.getCommandSpec().version());
    cmd.setExecutionExceptionHandler(Main::handleExecutionException);
    cmd.setParameterExceptionHandler(Main::handleParameterException);
    // The eval commands take the reference scripts' arguments as they are (argparse rules, not
    // picocli's): option-looking arguments reach them as positional parameters.
    // A one-shot command's fast path builds only the subcommand it runs: "results" (or one of
    // these) may be absent from the tree, and then there is nothing to configure.
    CommandLine results = cmd.getSubcommands().get("results");
    if (results == null) {
      return cmd; // a one-subcommand tree (commandLineFor) without the results group
    }
    for (String name : new String[] {"collect-evals", "validate-evals"}) {
      CommandLine sub = results == null ? null : results.getSubcommands().get(name);
      if (sub != null) {
        sub.setUnmatchedOptionsArePositionalParams(true);
      }
    }
    return cmd;
  }

  /** Every subcommand's {@code -V} prints the version too, not an empty line. */
  private static void shareVersion(CommandLine cmd, String[] version) {
    for (CommandLine sub : cmd.getSubcommands().values()) {
      if (sub.getCommandSpec().version().length == 0) {
        sub.getCommandSpec().version(version);
      }
      shareVersion(sub, version);
    }
  }

  private static int handleExecutionException(
      Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    PrintWriter err = cmd.getErr();
    if (ex instanceof InfxException ie) {
      // library messages name settings in library words (numPrompts): show this command's flags
      err.println("infx: error: " + ie.message(setting -> SettingFlags.flagFor(cmd.getCommandSpec(), setting)));
      return ie.exitCode();
    }
    if (ex instanceof ParameterException pe) {
      return handleParameterException(pe, new String[0]);
    }
    // A bug, not a user mistake: keep the stack trace so it can be reported.
    err.println("infx: internal error: " + ex);
    ex.printStackTrace(err);
    return 70;
  }

  private static int handleParameterException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    PrintWriter err = cmd.getErr();
    err.println(cmd.getCommandSpec().qualifiedName() + ": error: " + ex.getMessage());
    err.println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
    return 2;
  }

  /** Reads the version from the jar manifest (falls back to "dev" when run from classes). */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"infx " + (v == null ? "dev" : v)};
    }
  }
}
