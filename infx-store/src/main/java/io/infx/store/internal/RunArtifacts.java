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

  public final Path dir;
  public final String source;
  public final JsonNode workflowRun;
  public final List<BenchmarkInput> benchmarks = new ArrayList<>();
  public final List<JsonNode> runStats = new ArrayList<>();
  public final List<JsonNode> aggEvalRows = new ArrayList<>();
  public final List<EvalInput> evals = new ArrayList<>();
  public final List<JsonNode> changelogs = new ArrayList<>();
  public final List<String> ignoredFiles = new ArrayList<>();
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
      for (Path base : List.of(path, path.resolve("bmk"))) {
        if (!Files.isDirectory(base)) {
          continue;
        }
        for (Path child : sortedChildren(base)) {
          String name = child.getFileName().toString();
          if (!Files.isDirectory(child)) {
            continue;
          }
          if (name.startsWith("bmk_")) {
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
