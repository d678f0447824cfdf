package io.infx.core;

import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What went wrong, for every {@link InfxException} infx throws: one constant per kind of error,
 * each with a stable {@linkplain #wireName() wire name} (the spelling the conformance corpora's
 * {@code error_kind} and infx's own printed output use) and the {@linkplain #exitCode() exit
 * status} the command line ends with. The list is the single home of error kinds: a new kind is
 * a new constant here (and a line in {@code docs/errors.md}), never a free string.
 *
 * <p>Exit status rule: {@link #USAGE} exits 2 (the command or API was called wrongly), every
 * other kind exits 1. A bug (an exception that is not an {@code InfxException}) exits 70.
 *
 * <p>What is <em>not</em> here: the classification of a failed request
 * ({@code io.infx.client.FailureClass}) and of a failed fleet job
 * ({@code io.infx.fleet.spi.FailureKind}). Those are measurements, not errors: a benchmark records
 * and counts them and goes on (a timed-out request is a data point of the run), whereas an
 * {@code ErrorKind} says why an operation stopped and what its caller gets thrown.
 */
public enum ErrorKind {

  // --- calling infx ---------------------------------------------------------------------------
  /** Missing, malformed or conflicting arguments of a command or an API call. Exit status 2. */
  USAGE("usage", 2),
  /** A file or directory cannot be read or written (missing, unreadable, not JSON, not writable). */
  FILE("file"),
  /** Text that is not well-formed YAML/JSON, or a number out of range, before any schema applies. */
  INPUT("input"),
  /** A size limit was exceeded (a file too large to load, a report with too many points). */
  TOO_BIG("too-big"),
  /** An output directory is locked by another running infx process. */
  BUSY("busy"),
  /** A required environment variable is missing or not of the expected type. */
  ENV("env"),
  /** The operation was interrupted (the thread or the process was asked to stop). */
  INTERRUPTED("interrupted"),

  // --- matrix ---------------------------------------------------------------------------------
  /** A master config file cannot be loaded (unreadable, not a mapping, duplicate keys). */
  CONFIG_LOAD("config-load"),
  /** A master config breaks a validation rule (the matrix spec's rules, or a team's own {@code ConfigRule}). */
  CONFIG_VALIDATION("config-validation"),
  /** runners.yaml breaks a validation rule. */
  RUNNER_VALIDATION("runner-validation"),
  /** A matrix row breaks the row contract (a field missing or of the wrong type for its kind). */
  ROW_VALIDATION("row-validation"),
  /** A matrix row given as JSON cannot be read (not JSON, empty, not one object). */
  ROW("row"),
  /** A config entry cannot be expanded into rows (e.g. a search space that yields nothing). */
  GENERATION("generation"),
  /** A selection or filter is invalid or selects nothing (unknown key, empty pattern). */
  SELECTION("selection"),
  /** The perf-changelog is invalid or cannot be planned from (reference {@code process_changelog}). */
  CHANGELOG("changelog"),
  /** A git operation for the changelog failed (unknown revision, file absent at a revision). */
  GIT("git"),

  // --- client ---------------------------------------------------------------------------------
  /** The server cannot be reached before a benchmark starts. */
  CONNECT("connect"),
  /** The embedded simulator cannot start. */
  SIM("sim"),
  /** A prompt dataset cannot be used (unreadable, empty, a bad JSONL line). */
  DATASET("dataset"),
  /** No tokenizer can be found or loaded for the model. */
  TOKENIZER("tokenizer"),
  /** A chat template cannot be loaded, or refused to render. */
  CHAT_TEMPLATE("chat-template"),
  /** An AgentX trace source is unknown or unavailable. */
  TRACE_SOURCE("trace-source"),
  /** An AgentX trace file breaks the trace format. */
  TRACE_VALIDATION("trace-validation"),
  /** An AgentX replay cannot run (no usable trace, a prompt that cannot be synthesized). */
  AGENTX("agentx"),

  // --- results --------------------------------------------------------------------------------
  /** Normalization: a required environment variable is undefined (empty counts as defined). */
  MISSING_ENV("missing_env"),
  /** Normalization: a numeric environment variable (ISL, OSL, parallelism, GPUs) is not an integer. */
  INVALID_ENV_VALUE("invalid_env_value"),
  /** Normalization: inconsistent topology (disagg without multinode, non-positive sizes, no GPUs). */
  INVALID_TOPOLOGY("invalid_topology"),
  /** Normalization: {@code ROUTER_METADATA} is not JSON of exactly {@code {"name", "version"}}. */
  INVALID_COMPONENT_METADATA("invalid_component_metadata"),
  /** Normalization: the raw result lacks a required key. */
  MISSING_RAW_FIELD("missing_raw_field"),
  /** Normalization: a raw value cannot be used (null concurrency, non-numeric or non-finite). */
  INVALID_RAW_VALUE("invalid_raw_value"),
  /** Normalization: a {@code *tpot*} metric is 0, so interactivity (1000 / TPOT) is undefined. */
  DIVISION_BY_ZERO("division_by_zero"),
  /** Normalization: {@code REQUIRE_POWER} is set and no valid GPU power measurement exists. */
  POWER_REQUIRED("power_required"),
  /** Normalization: the raw result file does not exist or cannot be read. */
  RAW_FILE_MISSING("raw_file_missing"),
  /** Normalization: the raw result file is not one well-formed JSON document. */
  INVALID_RAW_JSON("invalid_raw_json"),
  /** An aggregate row breaks the aggregate contract. */
  AGGREGATE_VALIDATION("aggregate-validation"),
  /** Collecting results found nothing to collect. */
  COLLECT("collect"),
  /** Summarizing results found no rows to summarize. */
  SUMMARIZE("summarize"),
  /** AgentX profile records or server metrics cannot be aggregated. */
  AGENTIC_AGGREGATE("agentic-aggregate"),
  /** Eval input the reference scripts cannot process either (they stop with a traceback). */
  EVAL_INPUT("eval-input"),
  /** An eval thresholds file cannot be used. */
  THRESHOLDS("thresholds"),
  /** An eval gate of a run failed. */
  EVAL("eval"),
  /** A chart or report cannot be drawn. */
  REPORT("report"),
  /** The results store cannot be opened, migrated or written. */
  STORE("store"),
  /** The results store failed verification. */
  VERIFY("verify"),

  // --- fleet and runs -------------------------------------------------------------------------
  /** No recipe (or more than one equally specific) matches a row, or a recipe cannot be applied. */
  RECIPE("recipe"),
  /** A recipe file breaks a validation rule. */
  RECIPE_VALIDATION("recipe-validation"),
  /** A runner cannot be routed to a cluster (listed twice, unknown label, unknown scheduler). */
  ROUTING("routing"),
  /** A result file name cannot be formed within the file-name budget. */
  NAMING("naming"),
  /** No free port can be found for a server. */
  PORT("port"),
  /** A launched server will not become ready (exited, or not ready before the timeout). */
  SERVER("server"),
  /** A fleet backend (scheduler, container runtime) could not submit, query, cancel or fetch. */
  BACKEND("backend");

  private static final Map<String, ErrorKind> BY_WIRE_NAME = Arrays.stream(values())
      .collect(Collectors.toUnmodifiableMap(ErrorKind::wireName, Function.identity()));

  private final String wireName;
  private final int exitCode;

  ErrorKind(String wireName) {
    this(wireName, 1);
  }

  ErrorKind(String wireName, int exitCode) {
    this.wireName = wireName;
    this.exitCode = exitCode;
  }

  /**
   * The stable name printed and serialized for this kind, e.g. {@code config-validation} or
   * {@code missing_env} (the normalization kinds keep the reference corpus's snake_case).
   */
  public String wireName() {
    return wireName;
  }

  /** Exit status of the command line for an error of this kind: 2 for {@link #USAGE}, else 1. */
  public int exitCode() {
    return exitCode;
  }

  /** The kind whose {@link #wireName()} is {@code wireName}, or empty for an unknown name. */
  public static Optional<ErrorKind> fromWireName(String wireName) {
    return Optional.ofNullable(BY_WIRE_NAME.get(java.util.Objects.requireNonNull(wireName, "wireName")));
  }
}
