package io.infx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 003's planner extras through the command line in a real git repository: {@code --canary}
 * on changelog case 001, and the {@code retired: true} flow behind {@code --allow-retired}.
 */
class PlanExtrasCliTest {

  private static final String KEY = "dsr1-fp4-b200-sglang";

  @TempDir Path repo;
  @TempDir Path scratch;
  private Path corpus;

  @BeforeEach
  void corpus() {
    corpus = PlanConformanceTest.shared().resolve("conformance/matrix");
    Assumptions.assumeTrue(Files.isDirectory(corpus.resolve("changelog/001-single-node-fixed")),
        "matrix conformance corpus not found at " + corpus + " (set INFX_SHARED)");
  }

  @Test
  void canaryMovesTheLowestConcurrencyRowOutOfTheMatrix() throws Exception {
    Path c = corpus.resolve("changelog/001-single-node-fixed");
    commit("base", corpus.resolve("configs"), Files.readString(c.resolve("base/perf-changelog.yaml")));
    commit("head", corpus.resolve("configs"), Files.readString(c.resolve("head/perf-changelog.yaml")));
    JsonNode want = Json.mapper().readTree(c.resolve("expected.json").toFile());

    Run r = plan("--canary");

    assertThat(r.code).as(r.err).isZero();
    JsonNode got = Json.mapper().readTree(r.out);
    // the expected plan's only throughput family is 8k1k: the canary is its first lowest-conc row
    ArrayNode rows = (ArrayNode) want.get("single_node").get("8k1k");
    int lowest = 0;
    for (int i = 1; i < rows.size(); i++) {
      if (rows.get(i).get("conc").asInt() < rows.get(lowest).get("conc").asInt()) {
        lowest = i;
      }
    }
    JsonNode canary = rows.get(lowest);
    ArrayNode rest = rows.deepCopy();
    rest.remove(lowest);
    assertThat(got.get("canary")).hasSize(1);
    assertThat(got.get("canary").get(0)).isEqualTo(canary);
    assertThat(got.get("single_node").get("8k1k")).isEqualTo(rest);
    assertThat(got.get("evals")).isEqualTo(want.get("evals"));
  }

  @Test
  void aRetiredEntryIsVerifiedAgainstBothRevisionsAndPlansNothing() throws Exception {
    String base = Files.readString(corpus.resolve("changelog/001-single-node-fixed/base/perf-changelog.yaml"));
    String retire = """
        - config-keys:
            - %s
          description:
            - "Retire the B200 SGLang FP4 config"
          pr-link: https://github.com/example/perf/pull/9
          retired: true
        """.formatted(KEY);
    commit("base", corpus.resolve("configs"), base);
    Path headConfigs = Files.createDirectories(scratch.resolve("head-configs"));
    copyDir(corpus.resolve("configs"), headConfigs);
    Files.writeString(headConfigs.resolve("nvidia-master.yaml"),
        withoutTopLevelKey(Files.readString(headConfigs.resolve("nvidia-master.yaml")), KEY));
    commit("head", headConfigs, base + retire);

    Run refused = plan();
    assertThat(refused.code).isNotZero();
    assertThat(refused.out.strip()).isEmpty();
    assertThat(refused.err).contains("retired").contains("Extra inputs are not permitted");

    Run r = plan("--allow-retired");
    assertThat(r.code).as(r.err).isZero();
    JsonNode got = Json.mapper().readTree(r.out);
    assertThat(got.get("single_node")).isEmpty();
    assertThat(got.get("multi_node")).isEmpty();
    assertThat(got.get("evals")).isEmpty();
    JsonNode entries = got.get("changelog_metadata").get("entries");
    assertThat(entries).hasSize(1);
    assertThat(entries.get(0).get("config-keys").get(0).asText()).isEqualTo(KEY);

    // the same entry while the config is still in the head: the removal is not verified
    commit("head2", corpus.resolve("configs"), base + retire);
    Run notRemoved = plan("--allow-retired", "--head-ref", "head2");
    assertThat(notRemoved.code).isNotZero();
    assertThat(notRemoved.err).contains(KEY);
  }

  // ---- helpers ----

  private record Run(int code, String out, String err) {}

  private Run plan(String... extra) {
    List<String> args = new ArrayList<>(List.of("plan", "-C", repo.toString(), "--base-ref", "base",
        "--head-ref", "head", "--changelog-file", "perf-changelog.yaml"));
    for (int i = 0; i < extra.length; i++) {
      if (extra[i].equals("--head-ref")) {
        args.set(args.indexOf("--head-ref") + 1, extra[++i]);
      } else {
        args.add(extra[i]);
      }
    }
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
    return new Run(code, out.toString(), err.toString());
  }

  private void commit(String tag, Path configs, String changelog) throws Exception {
    if (!Files.isDirectory(repo.resolve(".git"))) {
      git("init", "-q");
    }
    try (Stream<Path> s = Files.list(repo)) {
      for (Path p : s.filter(p -> !p.getFileName().toString().equals(".git")).toList()) {
        deleteTree(p);
      }
    }
    copyDir(configs, Files.createDirectories(repo.resolve("configs")));
    Files.writeString(repo.resolve("perf-changelog.yaml"), changelog);
    git("add", "-A");
    git("commit", "-q", "--allow-empty", "-m", tag);
    git("tag", tag);
  }

  /** The YAML text without the block of one top-level key (up to the next top-level line). */
  private static String withoutTopLevelKey(String yaml, String key) {
    StringBuilder out = new StringBuilder();
    boolean skipping = false;
    for (String line : yaml.split("\n", -1)) {
      boolean topLevel = !line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && !line.startsWith("#");
      if (topLevel) {
        skipping = line.equals(key + ":");
      }
      if (!skipping) {
        out.append(line).append('\n');
      }
    }
    assertThat(out.length()).isLessThan(yaml.length());
    return out.substring(0, out.length() - 1);
  }

  private void git(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("git", "-c", "init.defaultBranch=main",
        "-c", "user.name=infx", "-c", "user.email=infx@example.invalid",
        "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(repo.toFile()).redirectErrorStream(true).start();
    byte[] output = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("git %s: %s", List.of(args), new String(output, StandardCharsets.UTF_8))
        .isZero();
  }

  private static void copyDir(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.list(from)) {
      for (Path f : s.filter(Files::isRegularFile).toList()) {
        Files.copy(f, to.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void deleteTree(Path p) throws IOException {
    try (Stream<Path> s = Files.walk(p)) {
      for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }
}
