package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.run.ImmutableRunOptions;
import io.infx.run.RunOptions;
import io.infx.run.Selection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options {@code infx run} and {@code infx search} share, in one place: config files and
 * {@code generate} filters, where the points run (adapter and its options, recipes or a running
 * endpoint, the simulator's settings), how many at once, and the run directory. Each command adds
 * its own options and maps these onto {@link RunOptions} with {@link #options(String)}.
 */
final class RunSettings {

  @Option(names = "--adapter", paramLabel = "NAME",
      description = "Fleet adapter every point is launched on: local, slurm (one Slurm job "
          + "per point), container, any adapter registered through ServiceLoader (plugin jars: INFX_CLASSPATH), "
          + "or auto (routed by runner name: runners.yaml cluster record, adapters' runner-name prefixes, "
          + "local_*, the reference's prefix table). Default: the adapter the runner's runners.yaml cluster "
          + "record names (adapter: ID), else local. The server: --recipes (real engines), --endpoint (a running one), "
          + "else the simulator.")
  String adapter;

  @Option(names = "--adapter-option", paramLabel = "KEY=VALUE",
      description = "Adapter option, repeatable, as infx fleet launch -o takes it: slurm.partition, "
          + "slurm.account, slurm.mode=batch|alloc, slurm.gpus (0 on a Slurm without GPUs), slurm.gres, …")
  List<String> adapterOptions = new ArrayList<>();

  @Option(names = "--sim-option", paramLabel = "KEY=VALUE",
      description = "Setting of the embedded simulator, repeatable, named as infx sim's flags: slowdown=F "
          + "(every decode and prefill step F times slower, e.g. 1.25 to inject a 25%% regression), "
          + "max-num-seqs, prefill-tokens-per-second, decode-step-ms, decode-step-per-seq-us, stream-interval, seed.")
  List<String> simOptions = new ArrayList<>();

  @Option(names = "--recipes", paramLabel = "FILE",
      description = "Recipe file (docs/recipes.md): launch each point's real engine as its recipe says, through "
          + "the adapter (default: <config>.recipes.yaml beside the first config, if it exists).")
  Path recipes;

  @Option(names = "--endpoint", paramLabel = "URL",
      description = "Benchmark an already-running OpenAI-compatible server (e.g. http://127.0.0.1:8000); "
          + "nothing is launched. Without --recipes and --endpoint the embedded simulator serves (SIMULATED).")
  String endpoint;

  @Option(names = "--max-parallel", paramLabel = "N", defaultValue = "1",
      description = "Points (infx search: configurations) in flight at once (default ${DEFAULT-VALUE}); slurm: up "
          + "to N jobs submitted, the scheduler queues them; local: N servers on their own free ports (mind the cores).")
  int maxParallel;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Run directory (default: infx-out/<first config's name>).")
  Path out;

  @Option(names = "--resume", description = "Skip points whose result exists in DIR from an earlier run.")
  boolean resume;

  @Option(names = "--dry-run", description = "Print the plan and the matrix; send no traffic, write nothing.")
  boolean dryRun;

  @Option(names = "--runner-config", paramLabel = "FILE",
      description = "runners.yaml (default: runners.yaml next to the first config, else configs/runners.yaml).")
  Path runnerConfig;

  @Option(names = "--runner", paramLabel = "NAME",
      description = "Concrete runner for every row, e.g. h200-cw_0 (default: the first runner of the row's label).")
  String runner;

  @Option(names = "--title", paramLabel = "TEXT", description = "Report title.")
  String title;

  /**
   * The config files and filters given, and every shared option, as a run's options.
   *
   * @param rest the command's unmatched arguments: config files first, then {@code generate} filters
   *     (picocli binds unmatched arguments on the command, not on a mixin)
   * @param command the command's name for messages ({@code run}, {@code search})
   * @param defaultOut the run directory when {@code --out} is not given, from the first config's stem
   * @throws UsageException for missing configs, bad filters or conflicting options
   */
  ImmutableRunOptions.Builder options(List<String> rest, String command,
      java.util.function.UnaryOperator<String> defaultOut) {
    List<Path> configs = new ArrayList<>();
    int i = 0;
    while (i < rest.size() && !rest.get(i).startsWith("-")) {
      configs.add(Path.of(rest.get(i++)));
    }
    if (configs.isEmpty()) {
      throw new UsageException("infx " + command + ": give at least one master config file, e.g. "
          + "infx " + command + " examples/configs/quickstart.yaml");
    }
    Selection selection = Selection.parse(rest.subList(i, rest.size()));
    String stem = configs.get(0).getFileName().toString().replaceFirst("\\.ya?ml$", "");
    var b = RunOptions.builder()
        .configFiles(configs)
        .selection(selection)
        .adapter(java.util.Optional.ofNullable(adapter))
        .adapterOptions(io.infx.fleet.spi.AdapterOptions.parse(adapterOptions).values())
        .out(out != null ? out : Path.of("infx-out", defaultOut.apply(stem)))
        .resume(resume);
    if (maxParallel < 1) {
      throw new UsageException("--max-parallel must be >= 1, got " + maxParallel);
    }
    b.maxParallel(maxParallel);
    if (!simOptions.isEmpty()) {
      b.simulator(io.infx.client.sim.SimOptions.parse(io.infx.client.sim.SimConfig.defaults(), simOptions));
    }
    if (runnerConfig != null) {
      b.runnerConfig(runnerConfig);
    }
    if (recipes != null && endpoint != null) {
      throw new UsageException("--recipes launches servers, --endpoint uses a running one: give one of them");
    }
    if (recipes != null) {
      b.recipes(recipes);
    }
    if (endpoint != null) {
      java.net.URI u;
      try {
        u = java.net.URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        throw new UsageException("--endpoint: not a URL: " + endpoint);
      }
      if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme()) || u.getHost() == null) {
        throw new UsageException("--endpoint must be an http(s) URL with a host, e.g. http://127.0.0.1:8000; got " + endpoint);
      }
      b.endpoint(u);
    }
    if (runner != null) {
      b.runner(runner);
    }
    if (title != null) {
      b.title(title);
    }
    return b;
  }
}
