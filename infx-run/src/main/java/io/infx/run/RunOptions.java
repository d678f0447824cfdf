package io.infx.run;

import io.infx.client.sim.SimConfig;
import io.infx.core.InfxStyle;
import io.infx.fleet.bench.EvalSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * What {@link BenchmarkRun} runs and where it writes. Only {@link #configFiles()} and
 * {@link #out()} are required; everything else defaults to the reference workflow's settings.
 */
@Value.Immutable
@InfxStyle
public abstract class RunOptions {

  /** Master config files, merged in order (like {@code generate --config-files}). */
  public abstract List<Path> configFiles();

  /**
   * {@code runners.yaml}; default: {@code runners.yaml} next to the first config file, else
   * {@code configs/runners.yaml} in the working directory (the reference's default).
   */
  public abstract Optional<Path> runnerConfig();

  /** Which rows to expand. Default: every row ({@link Selection#all()}). */
  @Value.Default
  public Selection selection() {
    return Selection.all();
  }

  /**
   * Fleet adapter every point is launched on through {@code infx-fleet}: {@code local}, {@code slurm}
   * (one Slurm job per point, running the simulator and the client on the node), any registered
   * adapter id, or {@link BenchmarkRun#ROUTED} (routed by runner name). Empty (the default): a point
   * whose runner's {@code runners.yaml} cluster record names an adapter ({@code adapter: <id>}, rule
   * family {@code V46.adapter-*}) goes to that adapter, every other point to {@code local}.
   * The server is the engine a recipe starts ({@link #recipes()}), a running server
   * ({@link #endpoint()}), or else the embedded simulator ({@link #simulator()}).
   */
  public abstract Optional<String> adapter();

  /**
   * Adapter options, as {@code infx fleet launch -o KEY=VALUE} takes them (e.g. {@code
   * slurm.partition}, {@code slurm.gpus=0} on a Slurm without GPUs); unknown keys are rejected by
   * the adapter when the first point launches.
   */
  public abstract Map<String, String> adapterOptions();

  /** Run directory (created): results, collected aggregate, report. */
  public abstract Path out();

  /** Skip points whose aggregate already exists in {@link #out()}. */
  @Value.Default
  public boolean resume() {
    return false;
  }

  /**
   * How many times every fixed-sequence point is measured ({@code infx run --repeat N}). Each
   * repetition keeps its own workspace ({@code points/<RF>/rep-<k>/}); the point's aggregate holds
   * the means and, under {@code repeats}, per headline metric the mean, standard deviation,
   * confidence interval and coefficient of variation ({@code io.infx.results.Repetitions}). With
   * {@link #resume()} only the missing repetitions run. AgentX points run once. Default 1.
   */
  @Value.Default
  public int repeat() {
    return 1;
  }

  /**
   * Concrete runner every row lands on (e.g. {@code h200-cw_0}); default: the first runner the
   * runner file lists under the row's label, else {@code <label>_0}.
   */
  public abstract Optional<String> runner();

  /**
   * Measured requests per unit of concurrency (InferenceX: {@code --num-prompts $((CONC * 10))},
   * {@link io.infx.client.ReferenceWorkload#PROMPTS_PER_CONC}).
   */
  @Value.Default
  public int promptsPerConc() {
    return io.infx.client.ReferenceWorkload.PROMPTS_PER_CONC;
  }

  /**
   * Warm-up requests per unit of concurrency (InferenceX: {@code --num-warmups $((2 * CONC))},
   * {@link io.infx.client.ReferenceWorkload#WARMUPS_PER_CONC}).
   */
  @Value.Default
  public int warmupsPerConc() {
    return io.infx.client.ReferenceWorkload.WARMUPS_PER_CONC;
  }

  /** The simulated server. Default: the simulator's defaults (a Slurm job always uses the defaults). */
  @Value.Default
  public SimConfig simulator() {
    return SimConfig.defaults();
  }

  /**
   * Replay length of AgentX points, overriding the rows' {@code duration} (the reference default
   * is 3600 s; below 900 s a replay is stamped {@code submission_valid=false}). Also sets
   * {@code DURATION} in the points' environment.
   */
  public abstract Optional<Duration> agenticDuration();

  /**
   * Trace corpus of AgentX points, as {@code infx bench agentic --trace} takes it (a file or
   * directory, a loader name from the local Hugging Face cache, or {@code synthetic[:…]}). Default:
   * {@code WEKA_LOADER_OVERRIDE}, else InferenceX's default loader for the row's model family
   * ({@code TraceSources.defaultLoader(modelPrefix)}).
   */
  public abstract Optional<String> traceSource();

  /** Longest a single point may take before it is failed (server start to normalized result). */
  @Value.Default
  public Duration pointTimeout() {
    return Duration.ofMinutes(30);
  }

  /**
   * How eval points (rows with {@code run-eval: true} or {@code eval-only: true}) run their
   * accuracy eval against the launched server: lm-eval's OpenAI-compatible client on
   * {@code gsm8k} by default, or your own command ({@code infx run --eval-cmd}). The eval tool is
   * yours to install; a point whose tool is missing fails with a message saying so.
   */
  @Value.Default
  public EvalSettings eval() {
    return EvalSettings.defaults();
  }

  /**
   * The score thresholds of the eval gate ({@code validate_scores.py}'s YAML:
   * {@code default.<task>}, {@code models.<prefix>.<task>}); default: InferenceX's
   * {@code utils/evals/thresholds.yaml} as of August 2026, copied into the run directory.
   */
  public abstract Optional<Path> evalThresholds();

  /**
   * Recipe file (docs/recipes.md): each point's server is the real engine its recipe starts,
   * through the fleet adapter. Default: {@code <first-config-stem>.recipes.yaml} beside the first
   * config when it exists; without either (and without {@link #endpoint()}) the embedded simulator
   * serves every point.
   */
  public abstract Optional<Path> recipes();

  /**
   * An already-running OpenAI-compatible server to benchmark (e.g. {@code http://127.0.0.1:8000}):
   * nothing is launched; every point's client sends to it. Local adapter only.
   */
  public abstract Optional<java.net.URI> endpoint();

  /** The recipe file in effect: {@link #recipes()}, else the one beside the first config, if any. */
  public Optional<Path> recipeFile() {
    if (recipes().isPresent() || endpoint().isPresent()) {
      return recipes();
    }
    Path first = configFiles().get(0);
    String name = first.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    Path beside = first.resolveSibling(name + ".recipes.yaml");
    return java.nio.file.Files.isRegularFile(beside) ? Optional.of(beside) : Optional.empty();
  }

  /**
   * Points in flight at once (InferenceX fans a sweep out over many runners). Local: each point has
   * its own server on its own free port, so keep this at or below what the cores can serve; Slurm:
   * up to N jobs are submitted and the scheduler queues them. Default 1.
   */
  @Value.Default
  public int maxParallel() {
    return 1;
  }

  /**
   * Run InferenceX's canary first — the lowest-concurrency non-eval single-node point — alone, and
   * run nothing else when it fails.
   */
  @Value.Default
  public boolean canary() {
    return false;
  }

  /** On the first failure of a family (one configuration at every concurrency), skip the family's points not yet started. */
  @Value.Default
  public boolean failFast() {
    return false;
  }

  /** Report title; default: the first config file's name. */
  public abstract Optional<String> title();

  @Value.Check
  protected void check() {
    if (configFiles().isEmpty()) {
      throw new IllegalArgumentException("a run needs at least one config file");
    }
    if (repeat() < 1) {
      throw new IllegalArgumentException("repeat must be >= 1, got " + repeat());
    }
    if (promptsPerConc() < 1 || warmupsPerConc() < 0) {
      throw new IllegalArgumentException("promptsPerConc must be >= 1 and warmupsPerConc >= 0");
    }
    if (agenticDuration().isPresent()
        && (agenticDuration().get().isNegative() || agenticDuration().get().toSeconds() < 1)) {
      throw new IllegalArgumentException("agenticDuration must be at least 1 s");
    }
    if (maxParallel() < 1) {
      throw new IllegalArgumentException("maxParallel must be >= 1, got " + maxParallel());
    }
    if (recipes().isPresent() && endpoint().isPresent()) {
      throw new IllegalArgumentException("give recipes (launch servers) or an endpoint (use a running server), not both");
    }
    if (pointTimeout().isNegative() || pointTimeout().isZero()) {
      throw new IllegalArgumentException("pointTimeout must be > 0");
    }
  }

  public static ImmutableRunOptions.Builder builder() {
    return ImmutableRunOptions.builder();
  }
}
