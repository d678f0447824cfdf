package io.infx.matrix.changelog;

import java.nio.file.Path;

/** Locates the shared conformance corpus the way CI lays it out. */
final class CorpusPaths {

  private CorpusPaths() {}

  static Path shared() {
    String env = System.getenv("INFX_SHARED");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String root = System.getProperty("infx.repo.root", "..");
    return Path.of(root).toAbsolutePath().normalize().resolveSibling("shared");
  }

  static Path changelogCases() {
    return shared().resolve("conformance/matrix/changelog");
  }
}
