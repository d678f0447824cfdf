package io.infx.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import io.infx.report.Percentile;
import io.infx.report.ReportPoint;
import io.infx.report.ReportPoints;
import io.infx.results.AggregateRow;
import io.infx.results.AggregateRows;
import io.infx.results.AggregateSchema;
import io.infx.results.Summary;
import io.infx.run.BenchmarkRun;
import io.infx.run.PlannedPoint;
import io.infx.run.PointOutcome;
import io.infx.run.RunListener;
import io.infx.run.RunOptions;
import io.infx.run.RunOutcome;
import io.infx.run.RunPlan;
import io.infx.run.Selection;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code infx run CONFIG.yaml… [generate filters…]}: the whole pipeline — validate and expand the
 * configs, launch every point through a fleet adapter (default {@code local}: the embedded
 * simulator), normalize, collect into {@code DIR/results_bmk/agg_bmk.json}, print a summary table
 * on stdout and write the report under {@code DIR}. Progress goes to stderr.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    customSynopsis = "infx run CONFIG.yaml [CONFIG.yaml…] [generate filters…] [--adapter local|slurm|auto|NAME [--adapter-option K=V…]] "
        + "[--recipes FILE | --endpoint URL] [--max-parallel N] [--canary] [--fail-fast] [--sim-option K=V…] [--out DIR] [--repeat N] [--resume] [--dry-run] [--runner-config FILE] [--runner NAME] [--title TEXT] "
        + "[--duration SECONDS] [--trace SOURCE]",
    description = {
        "Run a benchmark from master configs to report: expand (matrix), launch each point "
            + "(fleet adapter; the server is the engine a recipe starts, a running --endpoint, or else the "
            + "embedded simulator, marked SIMULATED), normalize, collect "
            + "into DIR/results_bmk/agg_bmk.json, print a summary table, write DIR/report.html.",
        "Filters are those of `infx generate full-sweep` (--model-prefix, --precision, --framework, "
            + "--runner-type, --seq-lens, --min-conc, --max-conc, --step-size, --max-tp, --max-ep, "
            + "--single-node, --multi-node, --scenario-type, --runner-node-filter, --trim-conc, …) "
            + "or, with --config-keys, of `infx generate test-config` (--config-keys, --conc, …).",
        "",
    })
public final class RunCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  /** The options shared with {@code infx search}: configs and filters, adapter, recipes, endpoint, … */
  @Mixin RunSettings settings = new RunSettings();

  /** Config files first, then generate filters (parsed by generate's own parser). */
  @Unmatched List<String> rest = new ArrayList<>();

  @Option(names = "--canary", description = "Run InferenceX's canary (lowest-concurrency single-node point) first, "
      + "alone; stop the sweep if it fails.")
  boolean canary;

  @Option(names = "--fail-fast", description = "On a point's failure, skip the points of its family (same "
      + "configuration, other concurrencies) that have not started.")
  boolean failFast;

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
      description = "Measure every point N times (each repetition kept in points/<RF>/rep-<k>/); the point's "
          + "aggregate holds the means plus, under \"repeats\", per headline metric the mean, std dev, 95%% "
          + "confidence interval and coefficient of variation. With --resume only missing repetitions run.")
  int repeat;

  @Option(names = "--duration", paramLabel = "SECONDS",
      description = "Replay length of AgentX points (default: the rows' duration, 3600 s in the reference).")
  Integer duration;

  @Option(names = "--trace", paramLabel = "SOURCE",
      description = "AgentX trace corpus: file or directory, loader name from the local HF cache, or "
          + "synthetic[:key=value,…] (default: $WEKA_LOADER_OVERRIDE, else InferenceX's loader for the model family).")
  String trace;

  @Option(names = "--eval-cmd", paramLabel = "COMMAND",
      description = "Eval command of eval points (run-eval / eval-only rows), run by bash -c in the point's "
          + "workspace with PORT, MODEL_NAME, OPENAI_BASE_URL, EVAL_RESULT_DIR, EVAL_TASKS_DIR, "
          + "EVAL_CONCURRENT_REQUESTS, EVAL_LIMIT, … set; it must leave lm-eval-shaped results*.json under "
          + "$EVAL_RESULT_DIR (default: python3 -m lm_eval --model local-chat-completions … as InferenceX runs it).")
  String evalCmd;

  @Option(names = "--eval-tasks", paramLabel = "TASKS",
      description = "lm-eval tasks of eval points (EVAL_TASKS_DIR; default gsm8k).")
  String evalTasks;

  @Option(names = "--eval-limit", paramLabel = "N", description = "lm-eval --limit: samples per task.")
  Integer evalLimit;

  @Option(names = "--eval-thresholds", paramLabel = "FILE",
      description = "Score thresholds of the eval gate, validate_scores.py's YAML (default: InferenceX's "
          + "utils/evals/thresholds.yaml, written to DIR/eval_thresholds.yaml).")
  Path evalThresholds;

  @Override
  public Integer call() {
    ReportCommand.headless();
    var b = settings.options(rest, "run", stem -> stem)
        .canary(canary)
        .failFast(failFast);
    if (repeat < 1) {
      throw new UsageException("--repeat must be at least 1, got " + repeat);
    }
    b.repeat(repeat);
    if (duration != null) {
      if (duration < 1) {
        throw new UsageException("--duration must be at least 1 second, got " + duration);
      }
      b.agenticDuration(java.time.Duration.ofSeconds(duration));
    }
    if (trace != null) {
      b.traceSource(trace);
    }
    var eval = io.infx.fleet.bench.EvalSettings.builder();
    if (evalCmd != null) {
      if (evalCmd.isBlank()) {
        throw new UsageException("--eval-cmd is empty");
      }
      eval.command(evalCmd);
    }
    if (evalTasks != null) {
      eval.tasks(evalTasks);
    }
    if (evalLimit != null) {
      if (evalLimit < 1) {
        throw new UsageException("--eval-limit must be at least 1, got " + evalLimit);
      }
      eval.limit(evalLimit);
    }
    b.eval(eval.build());
    if (evalThresholds != null) {
      b.evalThresholds(evalThresholds);
    }
    BenchmarkRun run = BenchmarkRun.of(b.build());
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (settings.dryRun) {
      RunPlan plan = run.plan();
      stdout.print(plan.toTable());
      stdout.println();
      stdout.println("matrix (as infx generate prints it):");
      stdout.println(plan.matrix().toJson());
      return 0;
    }
    RunOutcome outcome = run.run(new Progress(err, run.layout().dir()));
    // said once points have run, and only when one did: a submit-only adapter ran no server here
    run.serverDescription(outcome.points()).ifPresent(s -> err.println("infx: server: " + s));
    printSummary(stdout, outcome);
    return outcome.exitCode();
  }

  /** Progress on stderr: one line per point with a bar, elapsed time and an estimate of what is left. */
  static final class Progress implements RunListener {
    private final PrintWriter err;
    private final Path dir;
    private final long start = System.nanoTime();

    Progress(PrintWriter err, Path dir) {
      this.err = err;
      this.dir = dir;
    }

    @Override
    public void planned(RunPlan plan) {
      err.printf(Locale.ROOT, "infx: %d matrix rows → %d points to run, %d resumed, %d skipped (adapter %s) → %s%n",
          plan.matrix().size(), plan.count(PlannedPoint.Action.RUN), plan.count(PlannedPoint.Action.RESUME),
          plan.count(PlannedPoint.Action.SKIP), plan.adapter(), dir);
      for (PlannedPoint p : plan.points()) {
        if (p.action() == PlannedPoint.Action.SKIP) {
          err.println("infx: skip " + p.resultFilename() + ": " + p.note());
        }
      }
      err.flush();
    }

    private PlannedPoint starting;
    private int startedCount;
    private int startingDone;
    private int startingTotal;

    @Override
    public void started(PlannedPoint point, int done, int total) {
      starting = point;
      startingDone = done;
      startingTotal = total;
    }

    @Override
    public void inFlight(int points) {
      err.printf(Locale.ROOT, "%s %d/%d  %s …%s%n", bar(startingDone, startingTotal), ++startedCount,
          startingTotal, starting.resultFilename(), points > 1 ? " (" + points + " in flight)" : "");
      err.flush();
    }

    @Override
    public void finished(PointOutcome o, int done, int total) {
      double elapsed = (System.nanoTime() - start) / 1e9;
      String left = done < total ? String.format(Locale.ROOT, ", ~%.0f s left", elapsed / done * (total - done)) : "";
      String what = switch (o.status()) {
        case SUCCEEDED, RESUMED -> "done";
        case SUBMITTED -> "submitted" + o.message().map(m -> " (" + m + ")").orElse("");
        case DRY_RUN -> "dry run" + o.message().map(m -> " (" + m + ")").orElse("");
        case SKIPPED -> "skipped: " + o.message().orElse("");
        case FAILED -> "FAILED: " + o.message().orElse("");
      };
      err.printf(Locale.ROOT, "%s %d/%d  %s in %.1f s (%.0f s elapsed%s)%n", bar(done, total), done, total,
          what, seconds(o.took()), elapsed, left);
      err.flush();
    }

    @Override
    public void note(String message) {
      err.println("infx: " + message);
      err.flush();
    }

    private static String bar(int done, int total) {
      int width = 20;
      int filled = total == 0 ? width : done * width / total;
      return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "]";
    }

    private static double seconds(Duration d) {
      return d.toMillis() / 1000.0;
    }
  }

  /**
   * The summary table ({@code infx results summarize}'s Markdown) of the collected rows, then the
   * point counts, the failures and where the files are.
   */
  static void printSummary(PrintWriter out, RunOutcome outcome) {
    List<AggregateRow> rows = new ArrayList<>();
    ArrayNode agentic = Json.mapper().createArrayNode();
    for (JsonNode row : readCollected(outcome)) {
      if (AggregateSchema.isAgentic(row)) {
        agentic.add(row);
      } else {
        rows.add(AggregateRows.fromJson(row));
      }
    }
    if (!rows.isEmpty()) {
      out.print(ResultsSummarizeCommand.render(Summary.of(rows), "table", null, true));
      out.println();
    }
    if (!agentic.isEmpty()) {
      out.println("| AgentX | configuration | conc | tput/GPU (tok/s) | output tput/GPU (tok/s) "
          + "| p50 TTFT (ms) | p50 TPOT (ms) | interactivity (tok/s/user) |");
      out.println("|---|---|---:|---:|---:|---:|---:|---:|");
      for (ReportPoint p : ReportPoints.fromAggregates(agentic).points()) {
        out.printf(Locale.ROOT, "| %s | %s | %d | %,.1f | %,.1f | %s | %s | %s |%n", p.workload(), p.config(),
            p.conc(), p.tputPerGpu(), p.outputTputPerGpu(), num(p.ttft().get(Percentile.P50), 1),
            num(p.tpot().get(Percentile.P50), 2), num(p.interactivity(), 1));
      }
      out.println();
    }
    if (!outcome.evals().isEmpty()) {
      out.print(io.infx.results.evals.EvalSummary.markdown(outcome.evals(),
          io.infx.results.evals.EvalSummary.SortOrder.MODEL_PREFIX));
      out.println();
    }
    long submitted = outcome.count(PointOutcome.Status.SUBMITTED);
    long dryRun = outcome.count(PointOutcome.Status.DRY_RUN);
    out.printf(Locale.ROOT, "%d point%s: %d succeeded, %d resumed, %d failed, %d skipped%s%s%n",
        outcome.points().size(), outcome.points().size() == 1 ? "" : "s", outcome.count(PointOutcome.Status.SUCCEEDED),
        outcome.count(PointOutcome.Status.RESUMED), outcome.count(PointOutcome.Status.FAILED),
        outcome.count(PointOutcome.Status.SKIPPED), submitted > 0 ? ", " + submitted + " submitted" : "",
        dryRun > 0 ? ", " + dryRun + " dry run" : "");
    for (PointOutcome o : outcome.points()) {
      if (o.status() == PointOutcome.Status.FAILED) {
        out.println("  failed  " + o.point().resultFilename() + ": " + o.message().orElse(""));
      } else if (o.status() == PointOutcome.Status.SUBMITTED || o.status() == PointOutcome.Status.DRY_RUN) {
        out.println("  " + (o.status() == PointOutcome.Status.SUBMITTED ? "submitted" : "dry run") + "  "
            + o.point().resultFilename() + o.message().map(m -> ": " + m).orElse(""));
      }
    }
    out.println("results: " + outcome.layout().collectedFile());
    if (!outcome.evals().isEmpty()) {
      out.println("evals:   " + outcome.layout().evalAggregateFile());
    }
    outcome.report().ifPresent(r -> out.println("report:  " + r.html()));
    out.flush();
  }

  private static String num(java.util.OptionalDouble v, int decimals) {
    return v.isPresent() ? String.format(Locale.ROOT, "%,." + decimals + "f", v.getAsDouble()) : "—";
  }

  private static JsonNode readCollected(RunOutcome outcome) {
    Path f = outcome.layout().collectedFile();
    try {
      return Json.mapper().readTree(Files.readAllBytes(f));
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + f + ": " + e.getMessage(), e);
    }
  }
}
