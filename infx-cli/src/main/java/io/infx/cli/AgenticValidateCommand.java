package io.infx.cli;

import io.infx.results.agentx.AgenticGate;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code infx results agentic-validate}: InferenceX's pre-upload gate on an AgentX replay — the
 * request error rate must not exceed the threshold (inclusive). Prints exactly the reference's
 * lines: the success line on stdout, {@code ERROR: ...} on stderr; exit 0 or 1. Stricter by
 * default: a run stamped {@code submission_valid=false} fails (see {@link AgenticGate}).
 */
@Command(
    name = "agentic-validate",
    mixinStandardHelpOptions = true,
    description = {"Check that an AgentX replay is benchmarkable: errors / completed requests "
        + "(from profile_export_aiperf.json in DIR or its first sub-directory holding one) must "
        + "be at most the threshold.",
        "A run stamped submission_valid=false (a window under 900 s, an override, a cancelled or "
            + "stalled run, too many context overflows) fails too, naming the reasons, unless "
            + "--allow-invalid-submission is given (InferenceX's gate ignores the stamp)."})
public final class AgenticValidateCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "DIR", description = "The AIPerf artifact directory (aiperf_artifacts).")
  Path artifactDir;

  @Option(names = "--failed-request-threshold", required = true, paramLabel = "X",
      description = "Maximum accepted error fraction in [0, 1], inclusive (InferenceX uses 0.10).")
  String threshold;

  @Option(names = "--allow-invalid-submission",
      description = "Check the error rate only, like InferenceX: a submission_valid=false stamp does "
          + "not fail the gate (for diagnostic runs that are not meant for publication).")
  boolean allowInvalidSubmission;

  @Override
  public Integer call() {
    AgenticGate.Result r = AgenticGate.validate(artifactDir, AgenticGate.parseThreshold(threshold),
        java.nio.file.Path.of(""), allowInvalidSubmission ? AgenticGate.Submission.ERROR_RATE_ONLY
            : AgenticGate.Submission.REQUIRE_VALID);
    r.stdout().forEach(spec.commandLine().getOut()::println);
    r.stderr().forEach(spec.commandLine().getErr()::println);
    return r.exitCode();
  }
}
