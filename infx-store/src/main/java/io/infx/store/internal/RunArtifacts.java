package io.infx.store.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.infx.core.json.Json;
import io.infx.store.StoreException;
import io.infx.store.mapping.Normalizers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * Everything ingestible in one run directory, read into memory before any database write: an infx
 * run directory ({@code run.json}, {@code bmk/bmk_*}, {@code results_bmk/agg_bmk.json}) or an
 * InferenceX artifact directory ({@code bmk_*}, {@code results_*}, {@code run-stats},
 * {@code eval_results_all}, {@code eval_*}, {@code changelog-metadata}, optional
 * {@code workflow_run.json} in the GitHub API's shape). A single {@code .json} file of rows is
 * accepted too.
 */
public final class RunArtifacts {

  /** One raw benchmark row with where it came from. */
  public record BenchmarkInput(JsonNode row, String file, Normalizers.IslOsl islOslFallback) {}

  /** One individual eval artifact: {@code meta_env.json}, a results file and its samples. */
  public record EvalInput(String dir, JsonNode meta, JsonNode results, List<SampleFile> samples) {}

  /** A {@code samples_<task>_<ts>.jsonl} file. */
  public record SampleFile(String task, List<JsonNode> lines) {}

  /**
   * One GPU telemetry CSV of a {@code gpu_metrics_<suffix>} artifact with the sidecars beside it
   * (InferenceX-app's {@code gpu-metrics-artifacts.ts} layout).
   *
   * @param artifactName the artifact directory's name
   * @param suffix the name without {@code gpu_metrics_}: pairs with {@code bmk_<suffix>}
   * @param fileName the CSV's path inside the artifact ({@code /}-separated)
   * @param text the CSV
   * @param sha256 its SHA-256 (hex)
   * @param context {@code gpu_metrics_context.json} (or {@code *gpu_metrics*_context.json}), or null
   * @param identity {@code gpu_metrics_identity.json}, else the identity CSV as rows, or null
   * @param energyStart {@code gpu_metrics_energy_start.csv} (GPU id → J), or null
   * @param energyEnd {@code gpu_metrics_energy_end.csv}, or null
   */
  public record GpuMetricsInput(String artifactName, String suffix, String fileName, String text, String sha256,
      JsonNode context, JsonNode identity, java.util.Map<String, Double> energyStart,
      java.util.Map<String, Double> energyEnd) {}

  /**
   * The server {@code /metrics} time series of an infx point ({@code server_metrics_<suffix>/
   * server_metrics.jsonl}, written by {@code io.infx.client.telemetry}).
   */
  public record ServerMetricsInput(String artifactName, String suffix, String fileName, String text) {}

  public final Path dir;
  public final String source;
  public final JsonNode workflowRun;
  public final List<BenchmarkInput> benchmarks = new ArrayList<>();
  public final List<JsonNode> runStats = new ArrayList<>();
  public final List<JsonNode> aggEvalRows = new ArrayList<>();
  public final List<EvalInput> evals = new ArrayList<>();
  public final List<JsonNode> changelogs = new ArrayList<>();
  public final List<String> ignoredFiles = new ArrayList<>();
  public final List<GpuMetricsInput> gpuMetrics = new ArrayList<>();
  public final List<ServerMetricsInput> serverMetrics = new ArrayList<>();
  private final MessageDigest digest;
  private Instant newest = Instant.EPOCH;
  private String contentId;

  private RunArtifacts(Path dir, String source, JsonNode workflowRun) {
    this.dir = dir;
    this.source = source;
    this.workflowRun = workflowRun;
    try {
      this.digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Reads a directory (or one JSON file of rows).
   *
   * @throws StoreException when the path does not exist, a JSON file is malformed, or nothing in it
   *     is ingestible
   */
  public static RunArtifacts read(Path path) {
    if (!Files.exists(path)) {
      throw new StoreException(path + ": no such file or directory");
    }
    ObjectMapper mapper = Json.mapper();
    try {
      if (Files.isRegularFile(path)) {
        RunArtifacts a = new RunArtifacts(path, "directory", null);
        a.readRowsFile(path, path.getParent() == null ? path : path.getParent(), mapper);
        a.requireSomething();
        return a;
      }
      Path wf = path.resolve("workflow_run.json");
      JsonNode workflow = Files.isRegularFile(wf) ? parse(mapper, wf) : null;
      boolean infxRun = Files.isRegularFile(path.resolve("run.json"));
      String source = workflow != null ? "github" : infxRun ? "infx" : "directory";
      RunArtifacts a = new RunArtifacts(path, source, workflow);
      if (workflow != null) {
        a.consume(path, wf);
      }
      List<Path> bmkDirs = new ArrayList<>();
      List<Path> resultDirs = new ArrayList<>();
      List<Path> evalDirs = new ArrayList<>();
      List<Path> gpuDirs = new ArrayList<>();
      List<Path> serverDirs = new ArrayList<>();
      for (Path base : List.of(path, path.resolve("bmk"))) {
        if (!Files.isDirectory(base)) {
          continue;
        }
        for (Path child : sortedChildren(base)) {
          String name = child.getFileName().toString();
          if (!Files.isDirectory(child)) {
            continue;
          }
          if (name.startsWith(GPU_METRICS_PREFIX)) {
            gpuDirs.add(child);
          } else if (name.startsWith(SERVER_METRICS_PREFIX)) {
            serverDirs.add(child);
          } else if (name.startsWith("bmk_")) {
            bmkDirs.add(child);
          } else if (base.equals(path) && name.startsWith("results_")) {
            resultDirs.add(child);
          } else if (base.equals(path) && name.startsWith("eval_") && !name.startsWith("eval_results_all")) {
            evalDirs.add(child);
          }
        }
      }
      for (Path d : bmkDirs) {
        for (Path f : jsonFiles(d)) {
          a.readRowsFile(f, path, mapper);
        }
      }
      for (Path d : resultDirs) {
        for (Path f : jsonFiles(d)) {
          a.readRowsFile(f, path, mapper);
        }
      }
      Path stats = path.resolve("run-stats");
      if (Files.isDirectory(stats)) {
        for (Path f : jsonFiles(stats)) {
          a.runStats.add(parse(mapper, f));
          a.consume(path, f);
        }
      }
      for (Path child : sortedChildren(path)) {
        if (Files.isDirectory(child) && child.getFileName().toString().startsWith("eval_results_all")) {
          for (Path f : jsonFiles(child)) {
            JsonNode n = parse(mapper, f);
            a.consume(path, f);
            if (n.isArray()) {
              n.forEach(a.aggEvalRows::add);
            } else {
              a.ignoredFiles.add(path.relativize(f).toString());
            }
          }
        }
      }
      for (Path d : evalDirs) {
        a.readEvalDir(d, path, mapper);
      }
      for (Path d : gpuDirs) {
        a.readGpuMetricsDir(d, path, mapper);
      }
      for (Path d : serverDirs) {
        a.readServerMetricsDir(d, path);
      }
      Path changelog = path.resolve("changelog-metadata");
      if (Files.isDirectory(changelog)) {
        for (Path f : jsonFiles(changelog)) {
          a.changelogs.add(parse(mapper, f));
          a.consume(path, f);
        }
      }
      a.requireSomething();
      return a;
    } catch (IOException e) {
      throw new StoreException(path + ": cannot read: " + e.getMessage(), e);
    }
  }

  private void requireSomething() {
    if (benchmarks.isEmpty() && runStats.isEmpty() && aggEvalRows.isEmpty() && evals.isEmpty() && changelogs.isEmpty()) {
      throw new StoreException(dir + ": nothing to ingest (expected bmk_*/, results_*/agg_bmk.json, run-stats/, "
          + "eval_results_all/, eval_*/ or changelog-metadata/)");
    }
  }

  private void readRowsFile(Path f, Path root, ObjectMapper mapper) throws IOException {
    JsonNode n = parse(mapper, f);
    String rel = root.relativize(f).toString();
    Normalizers.IslOsl fallback = Normalizers.parseIslOsl(rel.replace('\\', '/')).orElse(null);
    List<JsonNode> rows = new ArrayList<>();
    if (n.isObject() && isRow(n)) {
      rows.add(n);
    } else if (n.isArray()) {
      for (JsonNode e : n) {
        if (e.isObject() && isRow(e)) {
          rows.add(e);
        }
      }
    }
    if (rows.isEmpty()) {
      ignoredFiles.add(rel);
      return;
    }
    consume(root, f);
    for (JsonNode r : rows) {
      benchmarks.add(new BenchmarkInput(r, rel, fallback));
    }
  }

  private static boolean isRow(JsonNode n) {
    return n.has("hw") || n.has("infmax_model_prefix") || n.has("model");
  }

  private void readEvalDir(Path d, Path root, ObjectMapper mapper) throws IOException {
    Path metaFile = d.resolve("meta_env.json");
    if (!Files.isRegularFile(metaFile)) {
      ignoredFiles.add(root.relativize(d) + "/");
      return;
    }
    JsonNode meta = parse(mapper, metaFile);
    consume(root, metaFile);
    List<Path> files = jsonFiles(d);
    List<SampleFile> samples = new ArrayList<>();
    try (Stream<Path> s = Files.walk(d)) {
      for (Path f : s.filter(p -> p.getFileName().toString().startsWith("samples_") && p.toString().endsWith(".jsonl"))
          .sorted().toList()) {
        String name = f.getFileName().toString();
        String stem = name.substring("samples_".length(), name.length() - ".jsonl".length());
        int cut = stem.lastIndexOf('_');
        String task = cut > 0 ? stem.substring(0, cut) : stem;
        List<JsonNode> lines = new ArrayList<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
          lineNo++;
          if (line.isBlank()) {
            continue;
          }
          try {
            lines.add(mapper.readTree(line));
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StoreException(f + ":" + lineNo + ": malformed JSON line: " + e.getOriginalMessage());
          }
        }
        consume(root, f);
        samples.add(new SampleFile(task, lines));
      }
    }
    boolean any = false;
    for (Path f : files) {
      if (f.getFileName().toString().startsWith("results_")) {
        evals.add(new EvalInput(root.relativize(d).toString(), meta, parse(mapper, f), List.copyOf(samples)));
        consume(root, f);
        any = true;
        samples.clear();
      }
    }
    if (!any) {
      ignoredFiles.add(root.relativize(d) + "/");
    }
  }

  /** Artifact directories of GPU telemetry: {@code gpu_metrics_<suffix>}. */
  public static final String GPU_METRICS_PREFIX = "gpu_metrics_";
  /** Artifact directories of infx's server-metrics time series: {@code server_metrics_<suffix>}. */
  public static final String SERVER_METRICS_PREFIX = "server_metrics_";

  /** A telemetry CSV: {@code gpu_metrics*.csv}, sidecars ({@code _identity}, {@code _energy_}) excluded. */
  static boolean isGpuMetricsCsv(String fileName) {
    String lower = fileName.toLowerCase(java.util.Locale.ROOT);
    return lower.startsWith("gpu_metrics") && lower.endsWith(".csv") && !lower.contains("_identity")
        && !lower.contains("_energy_");
  }

  private void readGpuMetricsDir(Path d, Path root, ObjectMapper mapper) throws IOException {
    String artifact = d.getFileName().toString();
    List<Path> csvs;
    try (Stream<Path> s = Files.walk(d)) {
      csvs = s.filter(Files::isRegularFile).filter(p -> isGpuMetricsCsv(p.getFileName().toString())).sorted().toList();
    }
    for (Path csv : csvs) {
      Path dir = csv.getParent();
      JsonNode context = null;
      try (Stream<Path> s = Files.list(dir)) {
        for (Path c : s.filter(p -> {
          String n = p.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
          return n.endsWith("_context.json") && n.contains("gpu_metrics");
        }).sorted().toList()) {
          try {
            JsonNode n = mapper.readTree(c.toFile());
            if (n != null && n.isObject()) {
              context = n;
              consume(root, c);
              break;
            }
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // a malformed context is no context (the app's rule); the CSV is still read
          }
        }
      }
      JsonNode identity = null;
      Path idJson = dir.resolve("gpu_metrics_identity.json");
      Path idCsv = dir.resolve("gpu_metrics_identity.csv");
      if (Files.isRegularFile(idJson)) {
        try {
          identity = mapper.readTree(idJson.toFile());
          consume(root, idJson);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          identity = null;
        }
      } else if (Files.isRegularFile(idCsv)) {
        identity = identityRows(Files.readString(idCsv, StandardCharsets.UTF_8));
        consume(root, idCsv);
      }
      java.util.Map<String, Double> start = energy(root, dir.resolve("gpu_metrics_energy_start.csv"));
      java.util.Map<String, Double> end = energy(root, dir.resolve("gpu_metrics_energy_end.csv"));
      byte[] bytes = Files.readAllBytes(csv);
      consume(root, csv);
      String sha;
      try {
        sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      gpuMetrics.add(new GpuMetricsInput(artifact, artifact.substring(GPU_METRICS_PREFIX.length()),
          d.relativize(csv).toString().replace('\\', '/'), new String(bytes, StandardCharsets.UTF_8), sha,
          context, identity, start, end));
    }
    if (csvs.isEmpty()) {
      ignoredFiles.add(root.relativize(d) + "/");
    }
  }

  private java.util.Map<String, Double> energy(Path root, Path f) throws IOException {
    if (!Files.isRegularFile(f)) {
      return null;
    }
    consume(root, f);
    java.util.Map<String, Double> m = io.infx.store.mapping.GpuMetricsCsv.energySnapshot(
        Files.readString(f, StandardCharsets.UTF_8));
    return m.isEmpty() ? null : m;
  }

  private static JsonNode identityRows(String text) {
    com.fasterxml.jackson.databind.node.ArrayNode rows = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    List<String> lines = text.lines().map(String::trim).filter(l -> !l.isEmpty()).toList();
    if (lines.size() <= 1) {
      return null;
    }
    List<String> header = io.infx.store.mapping.GpuMetricsCsv.split(lines.get(0));
    for (String line : lines.subList(1, lines.size())) {
      List<String> cells = io.infx.store.mapping.GpuMetricsCsv.split(line);
      com.fasterxml.jackson.databind.node.ObjectNode o = rows.addObject();
      for (int i = 0; i < header.size(); i++) {
        o.put(header.get(i), i < cells.size() ? cells.get(i) : "");
      }
    }
    return rows;
  }

  private void readServerMetricsDir(Path d, Path root) throws IOException {
    String artifact = d.getFileName().toString();
    List<Path> files;
    try (Stream<Path> s = Files.walk(d)) {
      files = s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
    }
    for (Path f : files) {
      consume(root, f);
      serverMetrics.add(new ServerMetricsInput(artifact, artifact.substring(SERVER_METRICS_PREFIX.length()),
          d.relativize(f).toString().replace('\\', '/'), Files.readString(f, StandardCharsets.UTF_8)));
    }
    if (files.isEmpty()) {
      ignoredFiles.add(root.relativize(d) + "/");
    }
  }

  private static JsonNode parse(ObjectMapper mapper, Path f) throws IOException {
    try {
      JsonNode n = mapper.readTree(f.toFile());
      if (n == null || n.isMissingNode()) {
        throw new StoreException(f + ": empty JSON file");
      }
      return n;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      var loc = e.getLocation();
      throw new StoreException(f + (loc == null ? "" : ":" + loc.getLineNr() + ":" + loc.getColumnNr())
          + ": malformed JSON: " + e.getOriginalMessage());
    }
  }

  private void consume(Path root, Path f) throws IOException {
    digest.update(root.relativize(f).toString().replace('\\', '/').getBytes(StandardCharsets.UTF_8));
    digest.update((byte) 0);
    digest.update(Files.readAllBytes(f));
    digest.update((byte) 0);
    Instant m = Files.getLastModifiedTime(f).toInstant();
    if (m.isAfter(newest)) {
      newest = m;
    }
  }

  private static List<Path> sortedChildren(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.sorted().toList();
    }
  }

  private static List<Path> jsonFiles(Path d) throws IOException {
    try (Stream<Path> s = Files.walk(d)) {
      return s.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
  }

  /** A run id derived from the content of the consumed files: the same artifacts are the same run. */
  public synchronized String contentRunId() {
    if (contentId == null) {
      String hex = HexFormat.of().formatHex(digest.digest()).substring(0, 16);
      contentId = (source.equals("infx") ? "infx-" : "dir-") + hex;
    }
    return contentId;
  }

  /** The date of the newest consumed file (UTC). */
  public LocalDate newestFileDate() {
    return LocalDate.ofInstant(newest, ZoneOffset.UTC);
  }
}
