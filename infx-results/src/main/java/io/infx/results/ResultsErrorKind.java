package io.infx.results;

/**
 * Classification of a normalization failure. The first eight are the error kinds of the reference
 * conformance corpus ({@code shared/conformance/results/README.md}); the others classify failures
 * the reference surfaced as unclassified crashes.
 */
public enum ResultsErrorKind {
  /** A required environment variable is undefined (an empty value counts as defined). */
  MISSING_ENV("missing_env"),
  /** A numeric environment variable (ISL, OSL, parallelism, GPU counts) is not a base-10 integer. */
  INVALID_ENV_VALUE("invalid_env_value"),
  /** Inconsistent topology: disagg without multinode, non-positive sizes, no (prefill) GPUs, … */
  INVALID_TOPOLOGY("invalid_topology"),
  /** {@code ROUTER_METADATA} is not JSON of exactly {@code {"name", "version"}}, both non-empty. */
  INVALID_COMPONENT_METADATA("invalid_component_metadata"),
  /** The raw result lacks a required key. */
  MISSING_RAW_FIELD("missing_raw_field"),
  /** A raw value cannot be used (null concurrency, non-numeric metric, non-finite result, …). */
  INVALID_RAW_VALUE("invalid_raw_value"),
  /** A {@code *tpot*} metric is 0, so interactivity (1000 / TPOT) is undefined. */
  DIVISION_BY_ZERO("division_by_zero"),
  /** {@code REQUIRE_POWER} is set and no valid GPU power measurement exists. */
  POWER_REQUIRED("power_required"),
  /** The raw result file does not exist or cannot be read. */
  RAW_FILE_MISSING("raw_file_missing"),
  /** The raw result file is not one well-formed JSON document (empty, truncated, duplicate keys). */
  INVALID_RAW_JSON("invalid_raw_json");

  private final String id;

  ResultsErrorKind(String id) {
    this.id = id;
  }

  /** The stable snake_case id, as used by the conformance corpus ({@code error_kind}). */
  public String id() {
    return id;
  }
}
