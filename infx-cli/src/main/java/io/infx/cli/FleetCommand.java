package io.infx.cli;

import io.infx.fleet.EnvProjector;
import io.infx.fleet.FingerprintPolicy;
import io.infx.fleet.LaunchEnv;
import io.infx.matrix.MatrixRow;
import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code infx fleet …}: project a matrix row on a runner, name its results, launch it. */
@Command(
    name = "fleet",
    mixinStandardHelpOptions = true,
    description = "Turn one matrix row into a launch: environment, RESULT_FILENAME, local/Slurm/container runs.",
    subcommands = {
        FleetCommand.Env.class,
        FleetCommand.ResultName.class,
        FleetLaunchCommand.class,
        FleetCheckCommand.class,
    })
public final class FleetCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing subcommand (env, result-name, launch, check)");
  }

  /** Options every row-taking subcommand shares. */
  public static final class RowOptions {
    @Option(names = "--row", required = true, paramLabel = "ROW.json",
        description = "One matrix row object, as `infx generate` prints it (`-` reads stdin).")
    Path row;

    @Option(names = "--runner", required = true, paramLabel = "NAME",
        description = "Concrete runner name, e.g. h200-cw_0 (label plus suffix); need not be listed in runners.yaml.")
    String runner;

    @Option(names = "--fingerprint-policy", paramLabel = "POLICY", defaultValue = "legacy",
        description = "How recipe-fingerprint enters RESULT_FILENAME: legacy (first 16 chars, default) "
            + "or compact (full fingerprint, 120-byte stem bound).")
    String fingerprintPolicy;

    @Option(names = "--agentx-fast", description = "The agentx-fast PR label (AIPERF_EXPERIMENTAL_FAST=1).")
    boolean agentxFast;

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Override the row's duration.")
    Integer duration;

    @Option(names = "--require-power", description = "Force REQUIRE_POWER=1.")
    boolean requirePower;

    @Option(names = "--eval-limit", paramLabel = "N", defaultValue = "", description = "EVAL_LIMIT (empty = whole split).")
    String evalLimit;

    MatrixRow matrixRow() {
      return MatrixRow.read(row);
    }

    RunnerName runnerName() {
      return RunnerName.of(runner);
    }

    RunContext context(CommandSpec spec) {
      var b = RunContext.builder().from(RunContext.fromEnvironment(System.getenv()))
          .fingerprintPolicy(policy(spec)).agentxFast(agentxFast).requirePower(requirePower).evalLimit(evalLimit);
      if (duration != null) {
        if (duration <= 0) {
          throw new ParameterException(spec.commandLine(), "--duration must be > 0 seconds, got " + duration);
        }
        b.durationOverride(duration);
      }
      return b.build();
    }

    private FingerprintPolicy policy(CommandSpec spec) {
      return switch (fingerprintPolicy) {
        case "legacy" -> FingerprintPolicy.LEGACY_PREFIX16;
        case "compact" -> FingerprintPolicy.COMPACT_SHA256;
        default -> throw new ParameterException(spec.commandLine(),
            "--fingerprint-policy must be legacy or compact, got '" + fingerprintPolicy + "'");
      };
    }

    LaunchEnv project(CommandSpec spec) {
      return EnvProjector.standard().project(matrixRow(), runnerName(), context(spec));
    }
  }

  @Command(name = "env", mixinStandardHelpOptions = true, description = "Print the launch environment of a row on a runner, KEY=VALUE in "
      + "projection order (secrets redacted).")
  static final class Env implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RowOptions opts;

    @Override
    public void run() {
      LaunchEnv env = opts.project(spec);
      PrintWriter out = spec.commandLine().getOut();
      env.toLines().forEach(out::println);
    }
  }

  @Command(name = "result-name", mixinStandardHelpOptions = true, description = "Print only the row's RESULT_FILENAME on a runner.")
  static final class ResultName implements Runnable {
    @Spec CommandSpec spec;
    @Mixin RowOptions opts;

    @Override
    public void run() {
      spec.commandLine().getOut().println(opts.project(spec).resultFilename());
    }
  }
}
