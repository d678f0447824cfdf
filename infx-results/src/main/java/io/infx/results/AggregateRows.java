package io.infx.results;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reading aggregate rows back: {@link #fromJson(JsonNode)} maps one {@code agg_*.json} object to a
 * typed {@link AggregateRow}; {@link #load(List)} reads files and directories of aggregates (single
 * rows or arrays such as {@code agg_bmk.json}), the way the reference comparison script does.
 */
public final class AggregateRows {

  private static final ObjectMapper LENIENT =
      Json.mapper().copy().disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());

  private static final Set<String> NOT_METRICS = Set.of(
      "power_metric_schema_version", "power_valid", "num_aggregate_gpu");

  private AggregateRows() {}

  /** A row and where it was read from ({@code file} or {@code file#index} for arrays). */
  public record Sourced(String source, Path file, AggregateRow row) {}

  /** A JSON element that was not used, and why. */
  public record Unused(String source, String reason) {}

  /** What {@link #load(List)} found. */
  public record Loaded(List<Sourced> rows, List<Unused> agentic, List<Unused> invalid) {}

  /**
   * Parses one fixed-sequence aggregate row (the reference shape, or newer upstream rows with
   * {@code benchmark_outcome} / {@code num_aggregate_gpu}). Unknown numeric keys become metrics.
   *
   * @throws ValidationException kind {@code aggregate-validation} listing every broken rule
   */
  public static AggregateRow fromJson(JsonNode row) {
    List<Violation> violations = AggregateSchema.validate(row).stream()
        .filter(v -> !v.ruleId().equals("aggregate.unknown-key"))
        .collect(Collectors.toList());
    if (AggregateSchema.isAgentic(row)) {
      violations.add(Violation.of("aggregate.fixed-sequence",
          "an AgentX row (scenario_type " + row.get("scenario_type") + ") is not a fixed-sequence row"));
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(ErrorKind.AGGREGATE_VALIDATION, violations);
    }
    ImmutableRunIdentity.Builder id = RunIdentity.builder()
        .hw(text(row, "hw")).image(text(row, "image")).modelPrefix(text(row, "infmax_model_prefix"))
        .framework(text(row, "framework")).precision(text(row, "precision"))
        .specDecoding(text(row, "spec_decoding")).disagg(row.get("disagg").booleanValue())
        .recipeFingerprint(row.has("recipe_fingerprint") ? text(row, "recipe_fingerprint") : "")
        .isl(row.get("isl").intValue()).osl(row.get("osl").intValue());
    JsonNode router = row.get("router");
    if (router != null) {
      id.router(ImmutableComponentMetadata.builder()
          .name(router.get("name").textValue()).version(router.get("version").textValue())
          .versionFirst(router.fieldNames().next().equals("version")).build());
    }
    if (row.has("kv_p2p_transfer")) {
      id.kvP2pTransfer(text(row, "kv_p2p_transfer"));
    }
    if (row.get("is_multinode").booleanValue()) {
      int aggregate = row.path("num_aggregate_gpu").asInt(0);
      ImmutableMultiNodeTopology.Builder m = MultiNodeTopology.builder()
          .prefill(role(row, "prefill_")).prefillDpAttention(text(row, "prefill_dp_attention"))
          .prefillNumWorkers(row.get("prefill_num_workers").intValue())
          .decode(role(row, "decode_")).decodeDpAttention(text(row, "decode_dp_attention"))
          .decodeNumWorkers(row.get("decode_num_workers").intValue())
          .prefillGpus(aggregate > 0 ? 0 : row.get("num_prefill_gpu").intValue())
          .decodeGpus(row.get("num_decode_gpu").intValue())
          .aggregateGpus(aggregate);
      if (row.has("prefill_hw")) {
        m.prefillHardware(text(row, "prefill_hw")).decodeHardware(text(row, "decode_hw"));
      }
      id.topology(m.build());
    } else {
      id.topology(SingleNodeTopology.builder()
          .parallelism(Parallelism.builder().tp(row.get("tp").intValue()).pp(row.get("pp").intValue())
              .dcpSize(row.get("dcp_size").intValue()).pcpSize(row.get("pcp_size").intValue())
              .ep(row.get("ep").intValue()).build())
          .dpAttention(text(row, "dp_attention")).build());
    }
    ImmutableAggregateRow.Builder b = AggregateRow.builder()
        .identity(id.build())
        .conc(row.get("conc").intValue())
        .model(text(row, "model"))
        .tputPerGpu(row.get("tput_per_gpu").doubleValue())
        .outputTputPerGpu(row.get("output_tput_per_gpu").doubleValue())
        .inputTputPerGpu(row.get("input_tput_per_gpu").doubleValue());
    JsonNode outcome = row.get("benchmark_outcome");
    if (outcome != null && outcome.isObject()) {
      b.benchmarkOutcome(new BenchmarkOutcome(outcome.path("status").asText(),
          outcome.path("requested").asInt(), outcome.path("completed").asInt(),
          outcome.path("failed").asInt()));
    }
    Map<String, Double> metrics = new LinkedHashMap<>();
    Map<String, Double> power = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = row.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String k = e.getKey();
      if (PowerFields.METRIC_KEYS.contains(k) || PowerFields.ROLE_METRIC_KEYS.contains(k)) {
        power.put(k, e.getValue().doubleValue());
      } else if (!AggregateRow.RESERVED_KEYS.contains(k) && !NOT_METRICS.contains(k)
          && e.getValue().isNumber()) {
        metrics.put(k, e.getValue().doubleValue());
      }
    }
    b.metrics(metrics);
    if (row.has("server_engine")) {
      b.server(io.infx.core.provenance.ServerProvenance.of(text(row, "server_engine"),
          text(row, "server_version"), "aggregate row"));
    }
    if (row.has(Repetitions.KEY)) {
      b.repetitions(Repetitions.fromJson(row.get(Repetitions.KEY))); // validated above
    }
    if (row.has("power_valid")) {
      boolean valid = row.get("power_valid").intValue() == 1;
      b.power(PowerFields.builder()
          .schemaVersion(row.path("power_metric_schema_version").asInt(PowerFields.SCHEMA_VERSION))
          .valid(valid).metrics(valid ? power : Map.of()).build());
    }
    return b.build();
  }

  /**
   * Loads aggregate rows from files and directories (every {@code *.json} below, sorted). Run
   * directories count each point once: for an {@code infx run} directory the per-point
   * {@code points/<RF>/agg_<RF>.json} files (raw results beside them), for a downloaded CI run its
   * collected {@code results_bmk/agg_bmk.json}. A file may hold one row or an array of rows. AgentX rows and rows that are not valid fixed-sequence
   * aggregates are returned separately, never silently dropped.
   *
   * @throws InfxException kind {@code file} when a path does not exist or a file is not JSON
   */
  public static Loaded load(List<Path> paths) {
    List<Sourced> rows = new ArrayList<>();
    List<Unused> agentic = new ArrayList<>();
    List<Unused> invalid = new ArrayList<>();
    for (Path p : paths) {
      for (Path file : jsonFiles(p)) {
        JsonNode node = read(file);
        List<JsonNode> elements = new ArrayList<>();
        if (node.isArray()) {
          node.forEach(elements::add);
        } else {
          elements.add(node);
        }
        for (int i = 0; i < elements.size(); i++) {
          String source = node.isArray() ? file + "#" + i : file.toString();
          JsonNode e = elements.get(i);
          if (AggregateSchema.isAgentic(e)) {
            agentic.add(new Unused(source, "AgentX row"));
            continue;
          }
          try {
            rows.add(new Sourced(source, file, fromJson(e)));
          } catch (ValidationException | ResultsException ex) {
            invalid.add(new Unused(source, ex.getMessage()));
          }
        }
      }
    }
    return new Loaded(rows, agentic, invalid);
  }

  private static List<Path> jsonFiles(Path p) {
    if (Files.isRegularFile(p)) {
      return List.of(p);
    }
    if (!Files.isDirectory(p)) {
      throw new InfxException(ErrorKind.FILE, "no such file or directory: " + p);
    }
    // A run directory holds every point more than once. An infx run directory (run.json, points/):
    // read the per-point aggregates, which have their raw result beside them for the comparability
    // lint. A downloaded CI run: read the collected results_bmk/agg_bmk.json.
    Path points = p.resolve("points");
    if (Files.isRegularFile(p.resolve("run.json")) && Files.isDirectory(points)) {
      List<Path> files = new ArrayList<>();
      try (Stream<Path> s = Files.walk(points, 2)) {
        s.filter(f -> f.getFileName().toString().startsWith("agg_")
                && f.getFileName().toString().endsWith(".json") && Files.isRegularFile(f))
            .sorted().forEach(files::add);
      } catch (IOException e) {
        throw new InfxException(ErrorKind.FILE, "cannot list " + points + ": " + e.getMessage(), e);
      }
      // AgentX points' aggregates (bmk/bmk_agentic_<RF>/<RF>.json), reported as AgentX rows
      Path bmk = p.resolve("bmk");
      if (Files.isDirectory(bmk)) {
        try (Stream<Path> s = Files.walk(bmk, 2)) {
          s.filter(f -> f.getParent().getFileName().toString().startsWith("bmk_agentic_")
                  && f.getFileName().toString().endsWith(".json") && Files.isRegularFile(f))
              .sorted().forEach(files::add);
        } catch (IOException e) {
          throw new InfxException(ErrorKind.FILE, "cannot list " + bmk + ": " + e.getMessage(), e);
        }
      }
      return files;
    }
    Path collected = p.resolve("results_bmk").resolve(ResultNames.COLLECTED_FILE);
    if (Files.isRegularFile(collected)) {
      return List.of(collected);
    }
    try (Stream<Path> s = Files.walk(p)) {
      return s.filter(f -> f.getFileName().toString().endsWith(".json"))
          .filter(Files::isRegularFile)
          .sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot list " + p + ": " + e.getMessage(), e);
    }
  }

  /**
   * Largest aggregate file read (256 MiB, about 200,000 rows): a bigger one is refused with its
   * size instead of exhausting memory (the whole tree is held while rows are checked).
   */
  public static final long MAX_FILE_BYTES = 256L << 20;

  private static JsonNode read(Path file) {
    try {
      long size = Files.size(file);
      if (size > MAX_FILE_BYTES) {
        throw new InfxException(ErrorKind.TOO_BIG, file + " is " + (size >> 20) + " MiB; aggregate files over "
            + (MAX_FILE_BYTES >> 20) + " MiB are refused (split it, or filter it with jq first)");
      }
      JsonNode n = LENIENT.readTree(file.toFile());
      if (n == null || n.isMissingNode()) {
        throw new InfxException(ErrorKind.FILE, file + ": empty file, expected JSON");
      }
      return n;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      String where = e.getLocation() == null ? ""
          : ":" + e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr();
      // Jackson's "start marker at [Source: REDACTED …; line: 1, …]" without the source part
      String why = e.getOriginalMessage().replaceAll("\\[Source: [^;]*; ", "[");
      throw new InfxException(ErrorKind.FILE, file + where + ": not valid JSON: " + why, e);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static Parallelism role(JsonNode row, String prefix) {
    return Parallelism.builder().tp(row.get(prefix + "tp").intValue())
        .pp(row.get(prefix + "pp").intValue()).dcpSize(row.get(prefix + "dcp_size").intValue())
        .pcpSize(row.get(prefix + "pcp_size").intValue()).ep(row.get(prefix + "ep").intValue())
        .build();
  }

  private static String text(JsonNode row, String key) {
    return row.get(key).textValue();
  }

  /** The raw result next to an {@code agg_<name>.json} file: {@code <name>.json}, if it exists. */
  public static Optional<Path> rawBeside(Path aggregateFile) {
    String name = aggregateFile.getFileName().toString();
    if (!name.startsWith("agg_") || !name.endsWith(".json") || name.equals(ResultNames.COLLECTED_FILE)) {
      return Optional.empty();
    }
    Path raw = aggregateFile.resolveSibling(name.substring(4));
    return Files.isRegularFile(raw) ? Optional.of(raw) : Optional.empty();
  }
}
