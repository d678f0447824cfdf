package io.infx.results.power;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * Outcome of the power stage for one result.
 *
 * @param valid whether a complete, validated telemetry stream covered the benchmark window
 * @param reasons why not, as reason codes in discovery order (e.g. {@code telemetry_file_missing});
 *     empty when valid
 * @param metrics energy metrics for the aggregate, already rounded (W and J to 3 decimals, per-query
 *     and per-token values to 6); empty unless valid
 * @param sidecar the audit payload written to {@code power_validation_<RESULT_FILENAME>.json}
 */
public record PowerValidation(
    boolean valid, List<String> reasons, Map<String, Double> metrics, ObjectNode sidecar) {

  public PowerValidation {
    reasons = List.copyOf(reasons);
    metrics = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metrics));
  }
}
