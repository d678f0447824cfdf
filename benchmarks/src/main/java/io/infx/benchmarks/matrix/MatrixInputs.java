package io.infx.benchmarks.matrix;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the real InferenceX master configs (the shared conformance corpus) for the benchmarks. */
final class MatrixInputs {

  private MatrixInputs() {}

  /**
   * The corpus {@code configs/} folder: {@code -Dinfx.matrix.configs=DIR}, else
   * {@code $INFX_SHARED/conformance/matrix/configs}, else {@code ../shared/...} from the working
   * directory (the repository root).
   */
  static Path configs() {
    String prop = System.getProperty("infx.matrix.configs");
    if (prop != null) {
      return Path.of(prop);
    }
    String shared = System.getenv("INFX_SHARED");
    Path base = shared != null ? Path.of(shared) : Path.of("").toAbsolutePath().resolveSibling("shared");
    Path dir = base.resolve("conformance/matrix/configs");
    if (!Files.isRegularFile(dir.resolve("nvidia-master.yaml"))) {
      throw new IllegalStateException("real master configs not found at " + dir
          + " (set INFX_SHARED or -Dinfx.matrix.configs)");
    }
    return dir;
  }
}
