package io.infx.run;

import io.infx.results.ResultNames;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a run writes, all under one directory:
 * <pre>
 * DIR/matrix.json                       the expanded matrix (generate's JSON array)
 * DIR/run.json                          the plan and each point's outcome (rewritten after every point)
 * DIR/points/&lt;RF&gt;/                      one point's workspace: raw &lt;RF&gt;.json, agg_&lt;RF&gt;.json, sidecars, logs
 * DIR/bmk/bmk_&lt;RF&gt;/agg_&lt;RF&gt;.json       the per-point artifact the collector reads (InferenceX layout;
 *                                       AgentX points: bmk/bmk_agentic_&lt;RF&gt;/&lt;RF&gt;.json)
 * DIR/results_bmk/agg_bmk.json          the collected aggregate (artifact results_bmk)
 * DIR/report.html, DIR/charts/          the report
 * </pre>
 * Every file is written atomically, so an interrupted run loses no finished point.
 *
 * @param dir the run directory
 */
public record RunLayout(Path dir) {

  public static final String MATRIX_FILE = "matrix.json";
  public static final String RUN_FILE = "run.json";

  public RunLayout {
    Objects.requireNonNull(dir, "dir");
  }

  public Path matrixFile() {
    return dir.resolve(MATRIX_FILE);
  }

  public Path runFile() {
    return dir.resolve(RUN_FILE);
  }

  /** Workspace of one point (the launcher's working directory). */
  public Path pointDir(String resultFilename) {
    return pointsDir().resolve(ResultNames.checked(resultFilename));
  }

  /** {@code DIR/points}: one directory per point. */
  public Path pointsDir() {
    return dir.resolve("points");
  }

  /** Directory of the per-point {@code bmk_*} artifacts. */
  public Path artifactsDir() {
    return dir.resolve("bmk");
  }

  /** The aggregate as the collector finds it: {@code bmk/bmk_<RF>/agg_<RF>.json}. */
  public Path artifactAggregate(String resultFilename) {
    return artifactsDir().resolve(ResultNames.aggregateArtifact(resultFilename))
        .resolve(ResultNames.aggregateFile(resultFilename));
  }

  /**
   * The aggregate of a point as the collector finds it: {@code bmk/bmk_<RF>/agg_<RF>.json}, or for
   * an AgentX point {@code bmk/bmk_agentic_<RF>/<RF>.json} (the reference's artifact names).
   */
  public Path artifactAggregate(String resultFilename, boolean agentic) {
    if (!agentic) {
      return artifactAggregate(resultFilename);
    }
    return artifactsDir().resolve("bmk_agentic_" + ResultNames.checked(resultFilename))
        .resolve(resultFilename + ".json");
  }

  /** {@code results_bmk/agg_bmk.json}. */
  public Path collectedFile() {
    return dir.resolve(ResultNames.collectedArtifactPath());
  }

  /**
   * The eval artifact of an eval point, {@code DIR/<name>} with {@code name} the reference's
   * artifact name ({@code eval_<exp-name>_<RESULT_FILENAME>}): the run directory holds them at
   * its top level, as CI's download-artifact lays out {@code eval_*} artifacts, so
   * {@code infx results collect-evals DIR …} and {@code infx db ingest DIR} read them.
   */
  public Path evalArtifactDir(String name) {
    if (!name.startsWith("eval_") || name.startsWith("eval_results_all") || name.contains("/")) {
      throw new IllegalArgumentException("not an eval artifact name: " + name);
    }
    return dir.resolve(name);
  }

  /** The run's eval aggregate, {@code eval_results_all/agg_eval_all.json} (collect-evals.yml). */
  public Path evalAggregateFile() {
    return dir.resolve("eval_results_all").resolve("agg_eval_all.json");
  }
}
