package io.infx.results;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;

/**
 * Locates {@code shared/conformance/<area>} the way CI does: {@code $INFX_SHARED} when set, else
 * {@code <infx.repo.root>/../shared}. When the corpus is absent (a fresh clone without
 * {@code ../shared}) tests are skipped with a message naming the path looked at.
 */
final class SharedCorpus {

  private SharedCorpus() {}

  static Path expectedDir(String area) {
    String env = System.getenv("INFX_SHARED");
    String root = System.getProperty("infx.repo.root");
    Path shared = env != null && !env.isEmpty()
        ? Paths.get(env)
        : Paths.get(root != null ? root : ".").toAbsolutePath().normalize().resolve("../shared");
    return shared.resolve("conformance").resolve(area).normalize();
  }

  private static String absent(Path dir) {
    return "conformance corpus not found at " + dir
        + " (set INFX_SHARED or place shared/ beside the repository); skipping";
  }

  /** The corpus directory; skips the calling test when absent. */
  static Path conformanceDir(String area) {
    Path dir = expectedDir(area);
    assumeTrue(Files.isDirectory(dir), absent(dir));
    return dir;
  }

  /**
   * One dynamic test per case directory, or a single skipped test naming the missing corpus (so
   * the skip is visible in reports).
   */
  static Stream<DynamicTest> cases(String area, Function<Path, Executable> body) throws IOException {
    return cases(area, c -> true, body);
  }

  /** One dynamic test per case that produces an aggregate ({@code expected.json}; error cases left out). */
  static Stream<DynamicTest> successCases(String area, Function<Path, Executable> body) throws IOException {
    return cases(area, c -> Files.exists(c.resolve("expected.json")), body);
  }

  private static Stream<DynamicTest> cases(String area, java.util.function.Predicate<Path> keep,
      Function<Path, Executable> body) throws IOException {
    Path dir = expectedDir(area);
    if (!Files.isDirectory(dir)) {
      return Stream.of(DynamicTest.dynamicTest("corpus absent",
          () -> assumeTrue(false, absent(dir))));
    }
    List<Path> cases;
    try (Stream<Path> s = Files.list(dir)) {
      cases = s.filter(Files::isDirectory).filter(keep).sorted().collect(Collectors.toList());
    }
    if (cases.isEmpty()) {
      throw new IllegalStateException("no cases in " + dir);
    }
    return cases.stream()
        .map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), body.apply(c)));
  }
}
