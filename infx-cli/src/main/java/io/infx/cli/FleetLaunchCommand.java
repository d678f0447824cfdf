package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.launch.FleetLauncher;
import io.infx.fleet.launch.LaunchResult;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.LogSink;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx fleet launch}: run one row on one runner and leave its results in {@code --out}. */
@Command(name = "launch", mixinStandardHelpOptions = true, description = {
    "Run one matrix row on a runner: server (the embedded simulator unless --server-cmd) + client, "
        + "on this machine, as a Slurm job, or with the server in a container.",
    "Writes OUT/<RESULT_FILENAME>.json (raw), OUT/agg_<RESULT_FILENAME>.json, server.log (with --server-cmd), launch.env, "
        + "artifact_plan.json and job_event.json; prints the raw and aggregate paths on stdout."})
final class FleetLaunchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;
  @Mixin FleetCommand.RowOptions row;

  @Option(names = "--adapter", paramLabel = "ID",
      description = "local, slurm or container (default: routed from the runner name, e.g. local_0 → local).")
  String adapter;

  @Option(names = "--server-cmd", paramLabel = "CMD",
      description = "Shell command that starts an OpenAI-compatible server on $PORT (the point's environment is "
          + "exported: $MODEL, $TP, …). Default: the embedded simulator.")
  String serverCmd;

  @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory (created).")
  Path out;

  @Option(names = {"-o", "--option"}, paramLabel = "KEY=VALUE",
      description = "Adapter option, repeatable: slurm.partition, slurm.account, slurm.mode=batch|alloc, "
          + "slurm.gpus, slurm.gres, slurm.exclusive, slurm.exclude, container.engine=docker|podman|enroot, …")
  List<String> options = new ArrayList<>();

  @Option(names = "--time-limit", paramLabel = "MINUTES", defaultValue = "180",
      description = "Wall-clock limit of the job (default ${DEFAULT-VALUE}).")
  long timeLimitMinutes;

  @Option(names = "--readiness-timeout", paramLabel = "SECONDS", defaultValue = "600",
      description = "How long the server may take to answer /health (default ${DEFAULT-VALUE}).")
  long readinessSeconds;

  @Option(names = "--backend", paramLabel = "NAME", defaultValue = "vllm",
      description = "Client backend: vllm, sglang, openai, openai-chat (default ${DEFAULT-VALUE}).")
  String backend;

  @Option(names = "--tokenizer", paramLabel = "T", description = "Client tokenizer (default: builtin with the "
      + "simulator, else the row's model).")
  String tokenizer;

  @Option(names = "--num-prompts", paramLabel = "N", description = "Measured requests (default 10 × CONC).")
  Integer numPrompts;

  @Option(names = "--num-warmups", paramLabel = "N", description = "Warm-up requests (default 2 × CONC).")
  Integer numWarmups;

  @Option(names = "--runner-config", paramLabel = "runners.yaml",
      description = "Fleet inventory: route by cluster:<id> label, take Slurm settings and env from the cluster "
          + "record (explicit --option values win).")
  Path runnerConfig;

  @Option(names = "--no-normalize", description = "Do not write agg_<RESULT_FILENAME>.json.")
  boolean noNormalize;

  @Option(names = {"-q", "--quiet"}, description = "Do not stream server/client/job output to stderr.")
  boolean quiet;

  @Override
  public Integer call() {
    if (timeLimitMinutes <= 0 || readinessSeconds <= 0) {
      throw new UsageException("--time-limit and --readiness-timeout must be > 0");
    }
    var client = ClientSettings.builder().backend(backend);
    if (tokenizer != null) {
      client.tokenizer(tokenizer);
    }
    if (numPrompts != null) {
      client.numPrompts(numPrompts);
    }
    if (numWarmups != null) {
      client.numWarmups(numWarmups);
    }
    PrintWriter err = spec.commandLine().getErr();
    var b = FleetLauncher.builder().row(row.matrixRow()).runner(row.runnerName()).context(row.context(spec))
        .workspace(out).client(client.build()).options(AdapterOptions.parse(options))
        .timeLimit(Duration.ofMinutes(timeLimitMinutes)).readinessTimeout(Duration.ofSeconds(readinessSeconds))
        .normalize(!noNormalize).handleSignals(true)
        .log(quiet ? LogSink.discard() : LogSink.to(err));
    if (adapter != null) {
      b.adapter(adapter);
    }
    if (runnerConfig != null) {
      b.inventory(io.infx.matrix.runners.RunnerInventory.load(runnerConfig));
    }
    if (serverCmd != null) {
      b.server(new ServerSpec.Command(serverCmd));
    }
    LaunchResult r = b.launch();
    PrintWriter stdout = spec.commandLine().getOut();
    r.rawFile().ifPresent(f -> stdout.println(f));
    r.aggregateFile().ifPresent(f -> stdout.println(f));
    r.error().ifPresent(e -> err.println("infx: error: " + e.stage() + ": " + e.message()
        + (e.retriable() ? " (retriable)" : "")));
    if (!r.succeeded()) {
      // the launch's outcome (as job_event.json says), not only the scheduler's job state: a
      // job that ended SUCCEEDED can still fail verification or normalization
      err.println("infx: launch of " + r.resultFilename() + " " + r.outcome() + " (exit "
          + r.exitCode() + (r.outcome().equals("failed") && r.status().succeeded()
              ? "; the job itself ended " + r.status().state() + ", a later stage failed" : "")
          + "); see " + r.jobEvent());
    }
    return r.exitCode();
  }
}
