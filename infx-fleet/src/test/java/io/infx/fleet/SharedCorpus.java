package io.infx.fleet;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Finds the shared folder the way CI lays it out: {@code $INFX_SHARED} when set, else
 * {@code <infx.repo.root>/../shared}. Tests that need it skip (JUnit assumption naming the path)
 * when it is absent.
 */
public final class SharedCorpus {

  private SharedCorpus() {}

  /** The shared folder, or a skipped test when it does not exist. */
  public static Path sharedDir() {
    Path p = candidate();
    assumeTrue(Files.isDirectory(p), "shared folder not found at " + p
        + " (set INFX_SHARED or put shared/ beside the clone); skipping");
    return p;
  }

  /** A folder inside the shared folder, or a skipped test when it does not exist. */
  public static Path require(String relative) {
    Path p = candidate().resolve(relative);
    assumeTrue(Files.isDirectory(p), "conformance folder not found at " + p + "; skipping");
    return p;
  }

  public static Path candidate() {
    String env = System.getenv("INFX_SHARED");
    if (env != null && !env.isBlank()) {
      return Path.of(env).toAbsolutePath().normalize();
    }
    String root = System.getProperty("infx.repo.root", System.getProperty("user.dir") + "/..");
    return Path.of(root).toAbsolutePath().normalize().resolveSibling("shared");
  }

  /** Every row object in the matrix corpus's expected outputs (generator arrays and planner buckets). */
  public static List<ObjectNode> allMatrixRows() {
    Path matrix = require("conformance/matrix");
    List<ObjectNode> rows = new ArrayList<>();
    try (Stream<Path> files = Files.walk(matrix)) {
      for (Path f : files.filter(p -> p.getFileName().toString().equals("expected.json")).sorted().toList()) {
        collect(Json.mapper().readTree(f.toFile()), rows, 0);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }

  /** The {@code index}-th row of a matrix corpus expected file (array or planner buckets flattened). */
  public static ObjectNode matrixRow(String relativeExpected, int index) {
    Path f = require("conformance/matrix").resolve(relativeExpected);
    try {
      List<ObjectNode> rows = new ArrayList<>();
      collect(Json.mapper().readTree(f.toFile()), rows, 0);
      return rows.get(index);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void collect(JsonNode n, List<ObjectNode> out, int depth) {
    if (n.isArray()) {
      n.forEach(e -> {
        if (e.isObject() && e.has("image")) {
          out.add((ObjectNode) e);
        }
      });
    } else if (n.isObject() && depth < 2) {
      n.fields().forEachRemaining(e -> collect(e.getValue(), out, depth + 1));
    }
  }
}
