package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.results.MultiNodeBatch;
import io.infx.results.NormalizerOptions;
import io.infx.results.PowerRequiredException;
import io.infx.results.ProcessedResult;
import io.infx.results.ResultProcessor;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code infx results process}: the reference normalizer ({@code utils/process_result.py}) as a
 * command — environment in, {@code agg_<RESULT_FILENAME>.json} out, the aggregate on stdout.
 */
@Command(
    name = "process",
    mixinStandardHelpOptions = true,
    description = {
        "Normalize the raw result <RESULT_FILENAME>.json in the working directory into "
            + "agg_<RESULT_FILENAME>.json (written atomically) and print it, like the reference "
            + "utils/process_result.py.",
        "Identity comes from the environment: RUNNER_TYPE, FRAMEWORK, PRECISION, SPEC_DECODING, "
            + "RESULT_FILENAME, ISL, OSL, DISAGG, MODEL_PREFIX, IMAGE; single-node TP, EP_SIZE, "
            + "DP_ATTENTION [PP_SIZE, DCP_SIZE, PCP_SIZE]; multi-node (IS_MULTINODE=true) "
            + "PREFILL_*/DECODE_* and PREFILL_GPUS/DECODE_GPUS; optional RECIPE_FINGERPRINT, "
            + "ROUTER_METADATA, KV_P2P_TRANSFER, REQUIRE_POWER, GPU_METRICS_CSV.",
        "Errors are classified (missing_env, invalid_env_value, invalid_topology, "
            + "invalid_component_metadata, missing_raw_field, invalid_raw_value, division_by_zero, "
            + "raw_file_missing, invalid_raw_json: nothing written; power_required: the aggregate "
            + "is written first) and exit 1."
    })
public final class ResultsProcessCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Directory holding the raw result (default: the current directory).")
  Path dir;

  @Option(names = "--env-file", paramLabel = "FILE",
      description = "Use exactly the variables of this file instead of the process environment: a JSON "
          + "object of strings (e.g. a conformance case's env.json) or KEY=VALUE lines (e.g. the "
          + "launch.env that infx fleet launch and infx run write).")
  Path envFile;

  @Option(names = "--all",
      description = "Multi-node group: normalize every <RESULT_FILENAME>_*.json point, with "
          + "PREFILL_GPUS/DECODE_GPUS taken from its name (…_conc<C>_gpus_<G>[_ctx_<P>_gen_<D>]); "
          + "writes result_processing_<RESULT_FILENAME>.json, prints it, exits 1 if a point failed "
          + "or a CONC_LIST concurrency is missing.")
  boolean all;

  @Option(names = "--mode", paramLabel = "MODE", defaultValue = "reference",
      description = "reference (default; matches utils/process_result.py) or upstream (newer "
          + "upstream guards: skip non-finite / non-positive TPOT metrics, check "
          + "benchmark_outcome, AGGREGATE_GPUS, power fields on multi-node results only).")
  String mode;

  @Override
  public Integer call() {
    NormalizerOptions options = switch (mode) {
      case "reference" -> NormalizerOptions.reference();
      case "upstream" -> NormalizerOptions.upstreamGuards();
      default -> throw new UsageException("--mode must be 'reference' or 'upstream', got '" + mode + "'");
    };
    Map<String, String> env = envFile == null ? System.getenv() : AgenticAggregateCommand.readEnvFile(envFile);
    Path workDir = (dir == null ? Path.of("") : dir).toAbsolutePath();
    if (all) {
      MultiNodeBatch.Report report = MultiNodeBatch.processAll(env, workDir, options);
      for (MultiNodeBatch.Point p : report.points()) {
        p.error().ifPresent(e -> spec.commandLine().getErr().println("infx: " + p.source() + ": " + e));
      }
      if (!report.missing().isEmpty() || !report.unexpected().isEmpty()) {
        spec.commandLine().getErr().println("infx: missing concurrencies " + report.missing()
            + ", unexpected " + report.unexpected());
      }
      spec.commandLine().getOut().println(report.toJsonText());
      return report.exitCode();
    }
    ProcessedResult result;
    try {
      result = ResultProcessor.processEnvironment(env, workDir, options);
    } catch (PowerRequiredException e) {
      spec.commandLine().getOut().println(e.result().aggregateText());
      throw e;
    }
    spec.commandLine().getOut().println(result.aggregateText());
    result.warnings().forEach(w -> spec.commandLine().getErr().println("infx: warning: " + w));
    if (result.exitCode() != 0) {
      spec.commandLine().getErr().println("infx: error: the benchmark outcome failed its gate "
          + "(more than 5% of requests failed); the aggregate was written");
    }
    return result.exitCode();
  }
}
