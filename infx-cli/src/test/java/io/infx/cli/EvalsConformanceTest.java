package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every case of {@code shared/conformance/evals} in this JVM through the same entry points
 * {@code infx results collect-evals} / {@code validate-evals} use, exactly as the corpus harness
 * {@code run_case.py} does: input copied to a fresh directory, {@code empty_dirs} created,
 * {@code mtimes} applied, a clean environment plus the case's {@code env}, the directory's path
 * replaced by {@code {CWD}}, then exit code, stdout, stderr (exact or key line), the set of
 * written files and their bytes compared ({@code agg_eval_*.json} rows from different artifact
 * directories compared in a stable order by directory, as the harness does).
 */
class EvalsConformanceTest {

  @TempDir Path tmp;

  @Test
  void everyCasePasses() throws IOException {
    Path corpus = PlanConformanceTest.shared().resolve("conformance/evals");
    Assumptions.assumeTrue(Files.isDirectory(corpus),
        "evals conformance corpus not found at " + corpus + " (set INFX_SHARED); skipping");
    runCorpus(corpus, "evals conformance (in-process)");
  }

  /**
   * The project's own cases in {@code src/test/resources/evals-reference-derived}: inputs written
   * for paths the shared corpus does not cover (SWE-bench's resolved-rate score, thresholds files
   * that are not YAML), every expected output produced by running the reference scripts on them
   * ({@code derive.py} there says how). Always present, so never skipped.
   */
  @Test
  void everyReferenceDerivedCasePasses() throws IOException {
    Path corpus = Path.of("src/test/resources/evals-reference-derived").toAbsolutePath();
    assertThat(corpus).isDirectory();
    runCorpus(corpus, "evals reference-derived cases (in-process)");
  }

  private void runCorpus(Path corpus, String title) throws IOException {
    List<Path> cases;
    try (Stream<Path> s = Files.walk(corpus)) {
      cases = s.filter(p -> p.getFileName().toString().equals("case.json")).map(Path::getParent)
          .sorted().toList();
    }
    assertThat(cases).as("cases under " + corpus).isNotEmpty();
    List<String> failures = new ArrayList<>();
    int passed = 0;
    for (Path c : cases) {
      List<String> problems = run(c);
      if (problems.isEmpty()) {
        passed++;
      } else {
        failures.add(corpus.relativize(c) + ": " + String.join("; ", problems));
      }
    }
    System.out.println(title + ": " + passed + " passed, " + failures.size() + " failed");
    failures.forEach(f -> System.out.println("  FAIL " + f));
    assertThat(failures).as("failed cases").isEmpty();
  }

  private List<String> run(Path caseDir) throws IOException {
    JsonNode cj = Json.mapper().readTree(caseDir.resolve("case.json").toFile());
    Path w = Files.createDirectories(tmp.resolve(caseDir.getParent().getParent().getFileName() + "-"
        + caseDir.getParent().getFileName() + "-" + caseDir.getFileName()).resolve("w"));
    Path input = caseDir.resolve("input");
    // An input/ holding only empty directories cannot be stored in git; it is then absent.
    if (Files.isDirectory(input)) {
      copyTree(input, w);
    }
    for (JsonNode d : cj.path("empty_dirs")) {
      Files.createDirectories(w.resolve(d.asText()));
    }
    Iterator<Map.Entry<String, JsonNode>> mt = cj.path("mtimes").fields();
    while (mt.hasNext()) {
      Map.Entry<String, JsonNode> e = mt.next();
      Files.setLastModifiedTime(w.resolve(e.getKey()), FileTime.from(e.getValue().asLong(), TimeUnit.SECONDS));
    }
    List<String> argv = new ArrayList<>();
    cj.path("argv").forEach(a -> argv.add(a.asText()));
    Map<String, String> env = new HashMap<>();
    cj.path("env").fields().forEachRemaining(e -> env.put(e.getKey(), e.getValue().asText()));
    boolean collect = cj.path("tool").asText().equals("collect");

    Map<String, List<Long>> before = snapshot(w);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code;
    try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
      code = collect
          ? ResultsCollectEvalsCommand.run(argv, w, o, e)
          : ResultsValidateEvalsCommand.run(argv, w, env, o, e);
    }
    Map<String, List<Long>> after = snapshot(w);
    List<String> ws = List.of(w.toString(), w.toRealPath().toString());

    Path exp = caseDir.resolve("expected");
    List<String> problems = new ArrayList<>();
    int wantCode = Integer.parseInt(Files.readString(exp.resolve("exit_code")).strip());
    if (code != wantCode) {
      problems.add("exit code " + code + " != " + wantCode);
    }
    if (!norm(out.toString(), ws).equals(Files.readString(exp.resolve("stdout.txt")))) {
      problems.add("stdout differs:\n" + out);
    }
    String errText = norm(err.toString(), ws);
    if (cj.path("stderr_compare").asText("exact").equals("exact")) {
      if (!errText.equals(Files.readString(exp.resolve("stderr.txt")))) {
        problems.add("stderr differs:\n" + errText);
      }
    } else {
      String key = Files.readString(exp.resolve("stderr_key.txt")).replaceAll("\n+$", "");
      if (!List.of(errText.split("\n", -1)).contains(key)) {
        problems.add("stderr key line missing:\n" + errText);
      }
    }
    Set<String> written = new TreeSet<>();
    after.forEach((rel, sig) -> {
      if (!Objects.equals(before.get(rel), sig)) {
        written.add(rel);
      }
    });
    Set<String> want = new TreeSet<>();
    cj.path("output_files").forEach(f -> want.add(f.asText()));
    if (!written.equals(want)) {
      problems.add("written files " + written + " != " + want);
    }
    for (String rel : want) {
      if (!written.contains(rel)) {
        continue;
      }
      String got = norm(Files.readString(w.resolve(rel), StandardCharsets.UTF_8), ws);
      String wantText = Files.readString(exp.resolve("files").resolve(rel), StandardCharsets.UTF_8);
      if (collect && rel.startsWith("agg_eval_")) {
        got = normalizeAgg(got);
        wantText = normalizeAgg(wantText);
      }
      if (!got.equals(wantText)) {
        problems.add("file " + rel + " differs");
      }
    }
    return problems;
  }

  private static String norm(String s, List<String> paths) {
    for (String p : paths) {
      s = s.replace(p, "{CWD}");
    }
    return s;
  }

  private static final Pattern BLOCK = Pattern.compile("\n  \\{\n.*?\n  \\}", Pattern.DOTALL);

  /** run_case.py's normalize_agg: row blocks stably sorted by the directory of their source. */
  static String normalizeAgg(String text) {
    JsonNode rows;
    try {
      rows = Json.mapper().readTree(text);
    } catch (IOException e) {
      return text;
    }
    if (rows == null || !rows.isArray() || rows.size() < 2) {
      return text;
    }
    List<String> blocks = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      blocks.add(m.group());
    }
    if (blocks.size() != rows.size() || !("[" + String.join(",", blocks) + "\n]").equals(text)) {
      return text;
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing(i -> parent(rows.get(i).path("source").asText(""))));
    StringBuilder sb = new StringBuilder("[");
    for (int k = 0; k < order.size(); k++) {
      sb.append(k == 0 ? "" : ",").append(blocks.get(order.get(k)));
    }
    return sb.append("\n]").toString();
  }

  private static String parent(String source) {
    int slash = source.lastIndexOf('/');
    return slash < 0 ? "." : source.substring(0, slash);
  }

  private static Map<String, List<Long>> snapshot(Path root) throws IOException {
    Map<String, List<Long>> res = new HashMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        res.put(root.relativize(file).toString(),
            List.of(attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS), attrs.size()));
        return FileVisitResult.CONTINUE;
      }
    });
    return res;
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
