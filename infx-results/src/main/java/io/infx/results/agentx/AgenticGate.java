package io.infx.results.agentx;

import static io.infx.core.Wording.setting;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.core.python.PythonNumbers;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The pre-upload validity gate of an AgentX run (spec §5, reference
 * {@code validate_agentic_result}): the request error rate {@code errors / completed}, read from
 * AIPerf's {@code profile_export_aiperf.json} counters, must not exceed the threshold (inclusive);
 * a run that completed nothing fails; malformed counters fail.
 *
 * <p>The result carries the exact lines the reference prints, e.g.
 * {@code Validated aiperf request error rate: 5/50 = 10.000% <= 10.000%} on stdout, or
 * {@code ERROR: aiperf completed zero requests} on stderr.
 *
 * <p>Stricter than the reference, which never reads it (spec §1.8): a run whose export is stamped
 * {@code metadata.submission_valid: false} fails after the reference's checks have passed, naming
 * the stamp's reasons ({@code unsafe_override} for a window under 900 s, {@code run_cancelled},
 * {@code insufficient_profile_metric_coverage}, {@code context_overflow_rate_exceeded}), unless
 * {@link Submission#ERROR_RATE_ONLY} asks for the reference gate alone.
 */
public final class AgenticGate {

  /** Whether the gate also requires a valid submission stamp. */
  public enum Submission {
    /** A run stamped {@code submission_valid: false} fails (the default). */
    REQUIRE_VALID,
    /** The reference gate: the error rate only; the stamp is ignored. */
    ERROR_RATE_ONLY
  }

  /** The threshold InferenceX uses ({@code AIPERF_FAILED_REQUEST_THRESHOLD}). */
  public static final double DEFAULT_THRESHOLD = 0.10;

  private static final ObjectMapper READER = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  /** Outcome of the gate. */
  public record Result(boolean passed, String message) {

    /** 0 when passed, 1 otherwise. */
    public int exitCode() {
      return passed ? 0 : 1;
    }

    /** Lines for stdout: the success line, or none. */
    public List<String> stdout() {
      return passed ? List.of(message) : List.of();
    }

    /** Lines for stderr: {@code ERROR: <message>} on failure, or none. */
    public List<String> stderr() {
      return passed ? List.of() : List.of("ERROR: " + message);
    }
  }

  private AgenticGate() {}

  /**
   * Parses a threshold as given on the command line (a float in [0, 1]).
   *
   * @throws UsageException when not a number or outside [0, 1]
   */
  public static double parseThreshold(String text) {
    double t;
    try {
      t = Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw new UsageException(Wording.of(setting("failedRequestThreshold"), ": invalid float value: '" + text + "'"));
    }
    if (!(t >= 0 && t <= 1)) {
      throw new UsageException(Wording.of(setting("failedRequestThreshold"), " must be between 0 and 1"));
    }
    return t;
  }

  /** Validates with relative paths taken against the current directory, requiring a valid stamp. */
  public static Result validate(Path artifactDir, double threshold) {
    return validate(artifactDir, threshold, Path.of(""));
  }

  /** {@link #validate(Path, double, Path, Submission)} requiring a valid submission stamp. */
  public static Result validate(Path artifactDir, double threshold, Path workingDirectory) {
    return validate(artifactDir, threshold, workingDirectory, Submission.REQUIRE_VALID);
  }

  /**
   * Validates the AIPerf artifact directory {@code artifactDir}.
   *
   * @param artifactDir the directory as the user named it (messages show it this way)
   * @param threshold maximum accepted error fraction, inclusive, in [0, 1]
   * @param workingDirectory what a relative {@code artifactDir} is relative to
   * @param submission whether a {@code submission_valid: false} stamp fails the gate
   * @throws io.infx.core.UsageException when the threshold is outside [0, 1]
   */
  public static Result validate(Path artifactDir, double threshold, Path workingDirectory,
      Submission submission) {
    if (!(threshold >= 0 && threshold <= 1)) {
      throw new UsageException(Wording.of(setting("failedRequestThreshold"), " must be between 0 and 1"));
    }
    Path shown = pythonPath(artifactDir);
    Path dir = workingDirectory.resolve(artifactDir);
    Path found = aggregatePath(dir);
    Path shownFile = shown.resolve(dir.relativize(found).toString());
    if (!Files.isRegularFile(found)) {
      return fail(shownFile + " not found");
    }
    Double successes;
    double errors;
    Double completed;
    JsonNode stamp;
    try {
      JsonNode aggregate = READER.readTree(found.toFile());
      if (aggregate == null || !aggregate.isObject()) {
        return fail(shownFile + " must contain a JSON object");
      }
      successes = average(aggregate, "request_count");
      Double e = average(aggregate, "error_request_count");
      errors = e == null ? 0.0 : e;
      completed = average(aggregate, "completed_request_count");
      stamp = aggregate.path("metadata");
    } catch (BadCounter e) {
      return fail("failed to read " + shownFile + ": " + e.getMessage());
    } catch (JsonProcessingException e) {
      return fail("failed to read " + shownFile + ": " + e.getOriginalMessage());
    } catch (IOException e) {
      return fail("failed to read " + shownFile + ": " + e.getMessage());
    }
    if (successes == null) {
      return fail("request_count.avg is missing");
    }
    if (completed == null) {
      completed = successes + errors;
    }
    if (completed <= 0) {
      return fail("aiperf completed zero requests");
    }
    double rate = errors / completed;
    String figures = PythonNumbers.formatG(errors) + "/" + PythonNumbers.formatG(completed) + " = "
        + PythonNumbers.formatPercent3(rate);
    if (rate > threshold) {
      return fail("aiperf request error rate exceeded the benchmark limit: " + figures + " > "
          + PythonNumbers.formatPercent3(threshold));
    }
    String rateLine = "aiperf request error rate: " + figures + " <= "
        + PythonNumbers.formatPercent3(threshold);
    if (submission == Submission.REQUIRE_VALID) {
      JsonNode valid = stamp.get("submission_valid");
      if (valid != null && !valid.isNull() && !valid.isBoolean()) {
        return fail("failed to read " + shownFile + ": metadata.submission_valid must be true or false");
      }
      if (valid != null && valid.isBoolean() && !valid.booleanValue()) {
        List<String> reasons = new ArrayList<>();
        stamp.path("submission_invalid_reasons").forEach(r -> reasons.add(r.asText()));
        return fail("aiperf run is not a valid submission: " + shownFile + " has submission_valid=false ("
            + (reasons.isEmpty() ? "no reason given" : String.join(", ", reasons)) + "); " + rateLine);
      }
    }
    return new Result(true, "Validated " + rateLine);
  }

  private static Result fail(String message) {
    return new Result(false, message);
  }

  /** {@code profile_export_aiperf.json} in the directory, else in its first sub-directory holding one. */
  private static Path aggregatePath(Path dir) {
    Path direct = dir.resolve("profile_export_aiperf.json");
    if (Files.isRegularFile(direct)) {
      return direct;
    }
    if (Files.isDirectory(dir)) {
      List<Path> children = new ArrayList<>();
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
        ds.forEach(children::add);
      } catch (IOException e) {
        return direct;
      }
      children.sort(Comparator.comparing(p -> p.getFileName().toString()));
      for (Path child : children) {
        Path candidate = child.resolve("profile_export_aiperf.json");
        if (Files.isDirectory(child) && Files.isRegularFile(candidate)) {
          return candidate;
        }
      }
    }
    return direct;
  }

  private static final class BadCounter extends Exception {
    private static final long serialVersionUID = 1L;

    BadCounter(String message) {
      super(message, null, false, false);
    }
  }

  /** A counter's {@code avg}: absent → null; present but malformed → {@link BadCounter}. */
  private static Double average(JsonNode aggregate, String name) throws BadCounter {
    JsonNode metric = aggregate.get(name);
    if (metric == null || metric.isNull()) {
      return null;
    }
    if (!metric.isObject()) {
      throw new BadCounter(name + " must be an object");
    }
    JsonNode v = metric.get("avg");
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isNumber()) {
      throw new BadCounter(name + ".avg must be numeric");
    }
    double d = v.doubleValue();
    if (!Double.isFinite(d) || d < 0) {
      throw new BadCounter(name + ".avg must be a finite non-negative number");
    }
    return d;
  }

  /** A path printed as Python's pathlib prints it: no {@code .} components, no trailing slash. */
  private static Path pythonPath(Path p) {
    List<String> parts = new ArrayList<>();
    for (Path part : p) {
      if (!part.toString().equals(".")) {
        parts.add(part.toString());
      }
    }
    String root = p.getRoot() == null ? "" : p.getRoot().toString();
    if (parts.isEmpty()) {
      return Path.of(root.isEmpty() ? "." : root);
    }
    return Path.of(root + String.join("/", parts));
  }
}
