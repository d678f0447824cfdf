package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case of {@code shared/conformance/matrix/changelog} through {@code infx plan}
 * in-process: per case a fresh git repository with the base and head revisions committed and
 * tagged, the head checked out, and the planner pointed at it with {@code -C}.
 */
class PlanConformanceTest {

  static Path shared() {
    String env = System.getenv("INFX_SHARED");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    return Path.of(System.getProperty("infx.repo.root", "..")).toAbsolutePath().normalize()
        .resolveSibling("shared");
  }

  @TestFactory
  Stream<DynamicTest> changelogCases() throws IOException {
    Path corpus = shared().resolve("conformance/matrix");
    Path cases = corpus.resolve("changelog");
    Assumptions.assumeTrue(Files.isDirectory(cases),
        "changelog conformance corpus not found at " + cases + " (set INFX_SHARED)");
    List<Path> dirs;
    try (Stream<Path> s = Files.list(cases)) {
      dirs = s.filter(Files::isDirectory).sorted().toList();
    }
    assertThat(dirs).isNotEmpty();
    return dirs.stream().map(dir -> dynamicTest(dir.getFileName().toString(),
        () -> runCase(corpus, dir)));
  }

  private static void runCase(Path corpus, Path dir) throws Exception {
    JsonNode spec = Json.mapper().readTree(dir.resolve("case.json").toFile());
    Path repo = Files.createTempDirectory("infx-plan-case-");
    try {
      git(repo, "init", "-q");
      for (String rev : List.of("base", "head")) {
        clearWorkTree(repo);
        Path configs = Files.createDirectories(repo.resolve("configs"));
        if ("case".equals(spec.path("configs").asText())) {
          copyDir(dir.resolve(rev).resolve("configs"), configs);
          Files.copy(corpus.resolve("configs/runners.yaml"), configs.resolve("runners.yaml"));
        } else {
          copyDir(corpus.resolve("configs"), configs);
        }
        Files.copy(dir.resolve(rev).resolve("perf-changelog.yaml"),
            repo.resolve("perf-changelog.yaml"));
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "--allow-empty", "-m", rev);
        git(repo, "tag", rev);
      }
      List<String> args = new ArrayList<>(List.of("plan", "-C", repo.toString()));
      spec.get("args").forEach(a -> args.add(a.asText()));
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
      Path expected = dir.resolve("expected.json");
      if (Files.exists(expected)) {
        assertThat(code).as("exit status; stderr: %s", err).isZero();
        JsonNode want = Json.mapper().readTree(expected.toFile());
        JsonNode got = Json.mapper().readTree(out.toString());
        // toString keeps key order, so this compares values, list order and key order.
        assertThat(got.toString()).isEqualTo(want.toString());
      } else {
        JsonNode want = Json.mapper().readTree(dir.resolve("expected-error.json").toFile());
        assertThat(code).as("exit status; stdout: %s", out).isNotZero();
        assertThat(out.toString().strip()).as("stdout").isEmpty();
        assertThat(err.toString()).contains(want.get("message_contains").asText())
            .doesNotContain("\tat ");
      }
    } finally {
      deleteTree(repo);
    }
  }

  private static void git(Path dir, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("git", "-c", "init.defaultBranch=main",
        "-c", "user.name=infx", "-c", "user.email=infx@example.invalid",
        "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("git %s: %s", List.of(args),
        new String(output, StandardCharsets.UTF_8)).isZero();
  }

  private static void clearWorkTree(Path repo) throws IOException {
    try (Stream<Path> s = Files.list(repo)) {
      for (Path p : s.filter(p -> !p.getFileName().toString().equals(".git")).toList()) {
        deleteTree(p);
      }
    }
  }

  private static void copyDir(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.list(from)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        Files.copy(f, to.resolve(f.getFileName()));
      }
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
