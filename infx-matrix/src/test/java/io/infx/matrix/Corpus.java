package io.infx.matrix;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the shared conformance corpus the way CI does: {@code $INFX_SHARED} when set, else
 * {@code <repo root>/../shared} (the repo root comes from the {@code infx.repo.root} property that
 * Surefire sets).
 */
final class Corpus {

  private Corpus() {}

  static Path sharedDir() {
    String env = System.getenv("INFX_SHARED");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String root = System.getProperty("infx.repo.root", System.getProperty("user.dir"));
    return Path.of(root).toAbsolutePath().normalize().resolveSibling("shared");
  }

  /** The matrix corpus folder; skips the calling test with a clear message when it is absent. */
  static Path matrix() {
    Path dir = sharedDir().resolve("conformance/matrix");
    assumeTrue(Files.isRegularFile(dir.resolve("index.json")),
        "matrix conformance corpus not found at " + dir + " (set INFX_SHARED or put shared/ beside the clone)");
    return dir;
  }
}
