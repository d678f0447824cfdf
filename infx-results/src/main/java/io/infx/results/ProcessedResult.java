package io.infx.results;

import io.infx.results.power.PowerValidation;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What a file-level normalization wrote.
 *
 * @param row the aggregate row (power fields included)
 * @param aggregateFile the written {@code agg_<RESULT_FILENAME>.json}
 * @param aggregateText its exact content (Python {@code json.dumps(row, indent=2)}), which the CLI
 *     prints like the reference
 * @param power the power assessment and the sidecar path, when the power stage ran
 * @param exitCode 0, or 1 when the raw result's {@code benchmark_outcome} failed its gate (newer
 *     upstream option); a power failure under {@code REQUIRE_POWER} throws
 *     {@link PowerRequiredException} instead
 * @param warnings things the reference accepts silently but a user should know (empty identity
 *     values, an empty model id)
 */
public record ProcessedResult(
    AggregateRow row,
    Path aggregateFile,
    String aggregateText,
    Optional<PowerOutcome> power,
    int exitCode,
    java.util.List<String> warnings) {

  public ProcessedResult {
    warnings = java.util.List.copyOf(warnings);
  }

  /** The power assessment and where its sidecar was written. */
  public record PowerOutcome(PowerValidation validation, Path sidecarFile) {}
}
