package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.fleet.EnvProjector;
import io.infx.fleet.LaunchEnv;
import io.infx.matrix.MatrixRow;
import io.infx.fleet.RunContext;
import io.infx.fleet.RunnerName;
import io.infx.fleet.recipe.RecipeFile;
import io.infx.fleet.recipe.RecipeLaunch;
import io.infx.fleet.recipe.RecipeRow;
import io.infx.run.BenchmarkRun;
import io.infx.run.RunOptions;
import io.infx.run.Selection;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code infx recipe}: what a recipe file makes of matrix rows. */
@Command(name = "recipe", mixinStandardHelpOptions = true,
    description = "Recipes map matrix rows to a server launch (docs/recipes.md).",
    subcommands = {RecipeCommand.Show.class, RecipeCommand.Presets.class})
public final class RecipeCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand: show or presets");
  }

  /** {@code infx recipe show ROW-or-KEY}. */
  @Command(name = "show", mixinStandardHelpOptions = true, description = {
      "Print the exact server command, its environment, readiness, client settings and result file name "
          + "the selected recipe gives a row: ROW is a matrix-row JSON file (as infx generate prints one row), "
          + "KEY a master-config key (glob) of --config-files, whose rows are planned as infx run plans them.",
      "Without --recipes the built-in presets are used, the row's framework picking one "
          + "(vllm, sglang, trt/trtllm, llamacpp)."})
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "ROW-or-KEY") String target;

    @Option(names = "--recipes", paramLabel = "FILE", description = "Recipe file (default: the built-in presets).")
    Path recipes;

    @Option(names = "--config-files", arity = "1..*", paramLabel = "FILE", description = "Master configs (for KEY).")
    List<Path> configFiles = new ArrayList<>();

    @Option(names = "--runner-config", paramLabel = "FILE", description = "runners.yaml (as infx run).")
    Path runnerConfig;

    @Option(names = "--runner", paramLabel = "NAME",
        description = "Concrete runner (default: as infx run picks it; for a ROW file <label>_0).")
    String runner;

    @Option(names = "--conc", arity = "1..*", paramLabel = "N", description = "For KEY: only these concurrencies.")
    List<String> conc = new ArrayList<>();

    @Option(names = "--all", description = "For KEY: every row (default: the first).")
    boolean all;

    @Override
    public Integer call() {
      RecipeFile file = recipes != null ? RecipeFile.load(recipes) : null;
      PrintWriter out = spec.commandLine().getOut();
      Path asFile = Path.of(target);
      List<RecipeLaunch> launches = new ArrayList<>();
      if (Files.isRegularFile(asFile)) {
        MatrixRow row = MatrixRow.read(asFile);
        String label = row.runner();
        String runnerName = runner != null ? runner : label.replaceFirst("^cluster:", "").replaceAll("[\\s/\\\\:_]+", "-") + "_0";
        LaunchEnv env = EnvProjector.standard().project(row, RunnerName.of(runnerName), RunContext.defaults());
        RecipeRow rr = new RecipeRow(env.resultFilename(), List.of(), row.modelPrefix(), row.precision(),
            row.framework(), label, runnerName);
        launches.add(fileFor(file, rr.framework()).launchFor(rr, env, System.getenv(), Path.of("")));
      } else {
        if (configFiles.isEmpty()) {
          throw new UsageException("'" + target + "' is not a file: as a config KEY it needs --config-files");
        }
        List<String> sel = new ArrayList<>(List.of("--config-keys", target));
        if (!conc.isEmpty()) {
          sel.add("--conc");
          sel.addAll(conc);
        }
        var b = RunOptions.builder().configFiles(configFiles).out(Path.of("infx-out", "recipe-show"))
            .selection(Selection.parse(sel));
        if (runnerConfig != null) {
          b.runnerConfig(runnerConfig);
        }
        if (runner != null) {
          b.runner(runner);
        }
        BenchmarkRun run = BenchmarkRun.of(b.build(), (p, w, l) -> {
          throw new IllegalStateException("recipe show launches nothing");
        });
        if (file != null) {
          launches.addAll(run.recipeLaunches(file));
        } else {
          String framework = run.plan().points().stream().findFirst()
              .map(p -> p.row().framework()).orElse("vllm");
          launches.addAll(run.recipeLaunches(fileFor(null, framework)));
        }
        if (launches.isEmpty()) {
          throw new UsageException("config key '" + target + "' selects no row that infx run would launch");
        }
      }
      int shown = all ? launches.size() : 1;
      for (int i = 0; i < shown; i++) {
        if (i > 0) {
          out.println();
        }
        out.print(launches.get(i).describe());
      }
      if (shown < launches.size()) {
        out.println();
        out.println("(1 of " + launches.size() + " rows; --all shows every row)");
      }
      return 0;
    }

    /** The given file, or the preset named after the framework (a one-recipe view of the presets). */
    private static RecipeFile fileFor(RecipeFile file, String framework) {
      if (file != null) {
        return file;
      }
      String preset = framework.startsWith("trt") ? "trtllm" : framework.startsWith("llama") ? "llamacpp"
          : framework.startsWith("sglang") ? "sglang" : framework.startsWith("vllm") ? "vllm" : null;
      if (preset == null) {
        throw new UsageException("no built-in preset for framework '" + framework + "' (presets: "
            + String.join(", ", RecipeFile.PRESETS) + "); pass --recipes FILE");
      }
      return RecipeFile.load(io.infx.core.tree.Source.text("preset " + preset,
          "recipes:\n  " + preset + ":\n    preset: " + preset + "\n"), Path.of("").toAbsolutePath());
    }
  }

  /** {@code infx recipe presets}: the built-in presets' source. */
  @Command(name = "presets", mixinStandardHelpOptions = true, description = "Print the built-in presets (YAML).")
  static final class Presets implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      try (var in = RecipeFile.class.getResourceAsStream("presets.yaml")) {
        spec.commandLine().getOut().print(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
      }
      return 0;
    }
  }
}
