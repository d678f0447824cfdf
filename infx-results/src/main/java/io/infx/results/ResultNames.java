package io.infx.results;

import io.infx.core.ErrorKind;
import java.nio.file.Path;

/**
 * File and artifact names keyed by a result's {@code RESULT_FILENAME} (reference workflows
 * {@code benchmark-tmpl.yml}, {@code collect-results.yml}). The names are routing keys for the
 * downstream ingest, so they are fixed.
 */
public final class ResultNames {

  /** The run-level collected aggregate ({@code agg_bmk.json}). */
  public static final String COLLECTED_FILE = "agg_bmk.json";

  /** The artifact that carries the collected aggregate ({@code results_bmk}). */
  public static final String COLLECTED_ARTIFACT = "results_bmk";

  /** Success-rate output ({@code run_stats.json}, artifact {@code run-stats}). */
  public static final String RUN_STATS_FILE = "run_stats.json";

  public static final String RUN_STATS_ARTIFACT = "run-stats";

  private ResultNames() {}

  /** The raw client result: {@code <name>.json}. */
  public static String rawFile(String resultFilename) {
    return checked(resultFilename) + ".json";
  }

  /** The normalized aggregate: {@code agg_<name>.json}. */
  public static String aggregateFile(String resultFilename) {
    return "agg_" + checked(resultFilename) + ".json";
  }

  /** The artifact that uploads the aggregate: {@code bmk_<name>}. */
  public static String aggregateArtifact(String resultFilename) {
    return "bmk_" + checked(resultFilename);
  }

  /** The power audit sidecar: {@code power_validation_<name>.json}. */
  public static String powerValidationFile(String resultFilename) {
    return "power_validation_" + checked(resultFilename) + ".json";
  }

  /** The artifact holding raw + aggregate + telemetry + sidecar: {@code power_audit_<name>}. */
  public static String powerAuditArtifact(String resultFilename) {
    return "power_audit_" + checked(resultFilename);
  }

  /** Where the collector's output lands after download: {@code results_bmk/agg_bmk.json}. */
  public static Path collectedArtifactPath() {
    return Path.of(COLLECTED_ARTIFACT, COLLECTED_FILE);
  }

  /**
   * Checks that a {@code RESULT_FILENAME} is a plain file-name stem: not empty, no path separator,
   * no NUL (the reference would read and write outside the working directory).
   *
   * @throws ResultsException kind {@code invalid_env_value}
   */
  public static String checked(String resultFilename) {
    if (resultFilename.isEmpty() || resultFilename.contains("/") || resultFilename.contains("\\")
        || resultFilename.indexOf('\0') >= 0 || resultFilename.equals(".")
        || resultFilename.equals("..")) {
      throw new ResultsException(ErrorKind.INVALID_ENV_VALUE,
          "RESULT_FILENAME must be a plain file name without directories, got '"
              + resultFilename + "'");
    }
    return resultFilename;
  }
}
