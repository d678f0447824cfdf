package io.infx.cli;

import io.infx.matrix.GeneratorCommandLine;
import io.infx.matrix.Matrix;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code infx generate full-sweep|test-config ...}: expands master configs into the benchmark
 * matrix and prints it as one JSON array on stdout, byte-compatible with the reference's
 * {@code python -m infx.matrix.generate}.
 *
 * <p>The arguments are exactly the reference's (seed 003) and are parsed by
 * {@link GeneratorCommandLine} with the reference's argparse semantics and error wording, so a
 * command line copied from an InferenceX workflow behaves the same here. Relative paths are read
 * against the caller's directory. Usage errors exit 2, invalid input 1 (every violation listed with
 * {@code file:line:column} and rule id); nothing is printed on stdout unless the whole matrix was
 * built.
 */
@Command(
    name = "generate",
    description = {
        "Expand master configs into the benchmark matrix (JSON on stdout).",
        "Commands: full-sweep (filters and bounds over every config), test-config (named configs).",
        "Run 'infx generate <command> --help' for the options of a command."
    },
    customSynopsis = "infx generate {full-sweep,test-config} [-h] --config-files FILE [FILE ...] [options]")
public final class GenerateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** Everything after {@code generate}, parsed by the reference-compatible parser. */
  @Unmatched List<String> args = new ArrayList<>();

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (args.size() == 1 && (args.get(0).equals("-V") || args.get(0).equals("--version"))) {
      out.println(new Main.Version().getVersion()[0]);   // as every other command's -V
      out.flush();
      return 0;
    }
    GeneratorCommandLine.Request request = GeneratorCommandLine.parse(args);
    if (request instanceof GeneratorCommandLine.Help help) {
      out.print(help.text());
      out.flush();
      return 0;
    }
    Matrix matrix = GeneratorCommandLine.run(request, Path.of("")).orElseThrow();
    out.println(matrix.toJson());
    out.flush();
    return 0;
  }
}
