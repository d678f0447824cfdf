package io.infx.results;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.ErrorKind;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import io.infx.results.power.PowerSettings;
import io.infx.results.power.PowerStage;
import io.infx.results.power.PowerValidation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * File-level normalization, the Java counterpart of running {@code utils/process_result.py}: reads
 * the raw {@code <RESULT_FILENAME>.json}, writes {@code agg_<RESULT_FILENAME>.json} atomically and
 * the power sidecar {@code power_validation_<RESULT_FILENAME>.json}.
 *
 * <p>Every failure is classified ({@link ResultsException#kind()}) and leaves nothing
 * written, except {@link PowerRequiredException}, which — like the reference — is raised after the
 * aggregate and the sidecar exist.
 */
public final class ResultProcessor {

  private ResultProcessor() {}

  /**
   * Normalizes the result in {@code workDir} from the reference's environment variables, checking
   * them in the reference's order. The map is the whole environment (e.g. {@code System.getenv()}
   * or a workflow's projected variables); nothing is read from the process environment.
   *
   * @throws ResultsException classified failure (see {@link ErrorKind})
   * @throws PowerRequiredException after writing, when {@code REQUIRE_POWER} is set and power is
   *     invalid
   */
  public static ProcessedResult processEnvironment(Map<String, String> env, Path workDir) {
    return processEnvironment(env, workDir, NormalizerOptions.reference());
  }

  /** {@link #processEnvironment(Map, Path)} with the newer-upstream switches of {@code options}. */
  public static ProcessedResult processEnvironment(
      Map<String, String> env, Path workDir, NormalizerOptions options) {
    String resultFilename = ResultNames.checked(ReferenceEnvironment.resultFilename(env));
    JsonNode raw = readRaw(workDir.resolve(ResultNames.rawFile(resultFilename)));
    // The reference reads conc and model from the raw file before it parses ISL/OSL and topology.
    Normalizer.concurrency(raw);
    Normalizer.model(raw);
    RunIdentity identity = ReferenceEnvironment.identity(env, options);
    ProcessRequest request = ProcessRequest.builder()
        .workDir(workDir)
        .resultFilename(resultFilename)
        .identity(identity)
        .options(options)
        .power(PowerSettings.fromEnvironment(env))
        .build();
    return process(request, raw);
  }

  /**
   * Normalizes {@code <resultFilename>.json} in the request's directory with a typed identity.
   *
   * @throws ResultsException classified failure
   * @throws PowerRequiredException after writing, when power is required and invalid
   */
  public static ProcessedResult process(ProcessRequest request) {
    Path rawPath = request.workDir().resolve(ResultNames.rawFile(request.resultFilename()));
    return process(request, readRaw(rawPath));
  }

  private static ProcessedResult process(ProcessRequest request, JsonNode raw) {
    AggregateRow row = Normalizer.of(request.options()).normalize(raw, request.identity());
    Optional<PowerValidation> power = Optional.empty();
    if (powerStageRuns(request.options(), request.identity().topology())) {
      PowerValidation v = PowerStage.assess(raw, ResultNames.rawFile(request.resultFilename()),
          request.identity().topology(), request.power(), request.workDir());
      power = Optional.of(v);
      row = ImmutableAggregateRow.copyOf(row).withPower(PowerFields.builder()
          .valid(v.valid())
          .metrics(v.metrics())
          .build());
    }
    String text = row.toJsonText();
    Path aggregate = request.workDir().resolve(ResultNames.aggregateFile(request.resultFilename()));
    AtomicFiles.writeString(aggregate, text);
    Optional<ProcessedResult.PowerOutcome> powerOutcome = Optional.empty();
    if (power.isPresent()) {
      Path sidecar = request.workDir()
          .resolve(ResultNames.powerValidationFile(request.resultFilename()));
      AtomicFiles.writeString(sidecar, PythonJson.dumps(power.get().sidecar(), 2));
      powerOutcome = Optional.of(new ProcessedResult.PowerOutcome(power.get(), sidecar));
    }
    int exit = row.benchmarkOutcome().filter(BenchmarkOutcome::isFailed).isPresent() ? 1 : 0;
    java.util.List<String> warnings = new java.util.ArrayList<>();
    for (String name : request.identity().emptyValues()) {
      warnings.add(name + " is empty; the aggregate publishes an empty identity value");
    }
    if (row.model().isEmpty()) {
      warnings.add("model_id is empty in the raw result; the aggregate's model is empty");
    }
    ProcessedResult result = new ProcessedResult(row, aggregate, text, powerOutcome, exit, warnings);
    if (request.power().requirePower() && power.isPresent() && !power.get().valid()) {
      throw new PowerRequiredException("Power validation failed: "
          + String.join(", ", power.get().reasons())
          + " (details: " + powerOutcome.get().sidecarFile().getFileName() + "); REQUIRE_POWER is"
          + " set, so the result fails (the aggregate was written with power_valid 0)", result);
    }
    return result;
  }

  private static boolean powerStageRuns(NormalizerOptions options, Topology topology) {
    return switch (options.powerFields()) {
      case ALWAYS -> true;
      case MULTI_NODE_ONLY -> topology.isMultinode();
      case NONE -> false;
    };
  }

  /**
   * Reads a raw result file as one JSON document (key order kept).
   *
   * @throws ResultsException {@code raw_file_missing} or {@code invalid_raw_json} (with line and
   *     column)
   */
  public static JsonNode readRaw(Path path) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw new ResultsException(ErrorKind.RAW_FILE_MISSING,
          "raw result file not found: " + path, e);
    } catch (IOException e) {
      throw new ResultsException(ErrorKind.RAW_FILE_MISSING,
          "cannot read raw result file " + path + ": " + e.getMessage(), e);
    }
    return parseJson(path, bytes, ErrorKind.INVALID_RAW_JSON);
  }

  /** Parses one JSON document; errors name the file, line and column. */
  static JsonNode parseJson(Path path, byte[] bytes, ErrorKind kind) {
    if (bytes.length == 0) {
      throw new ResultsException(kind, path + ": the file is empty (expected one JSON document)");
    }
    try {
      JsonNode node = Json.mapper().readTree(bytes);
      if (node == null || node.isMissingNode()) {
        throw new ResultsException(kind, path + ": no JSON document (only whitespace)");
      }
      return node;
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      String where = loc == null ? "" : ":" + loc.getLineNr() + ":" + loc.getColumnNr();
      throw new ResultsException(kind,
          path + where + ": not valid JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ResultsException(kind, path + ": cannot parse: " + e.getMessage(), e);
    }
  }
}
