package io.infx.results.agentx;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Locates {@code shared/conformance/agentx} as CI does, and compares JSON like its README says. */
final class AgentxCorpus {

  private AgentxCorpus() {}

  /** The corpus folder; skips the calling test (with the path looked for) when it is absent. */
  static Path folder() {
    String shared = System.getenv("INFX_SHARED");
    Path dir;
    if (shared != null && !shared.isBlank()) {
      dir = Path.of(shared, "conformance", "agentx");
    } else {
      String root = System.getProperty("infx.repo.root", ".");
      dir = Path.of(root).toAbsolutePath().normalize().resolveSibling("shared")
          .resolve("conformance").resolve("agentx");
    }
    assumeTrue(Files.isDirectory(dir),
        "AgentX conformance corpus not found at " + dir + " (set INFX_SHARED); cases skipped");
    return dir;
  }

  /** Case directories in id order. */
  static List<Path> cases() throws IOException {
    try (Stream<Path> s = Files.list(folder())) {
      return s.filter(Files::isDirectory).sorted().toList();
    }
  }

  /** Copies a case into {@code tmp/a/b/c/<name>} so no file above it can leak in. */
  static Path privateCopy(Path caseDir, Path tmp) throws IOException {
    Path target = tmp.resolve("a").resolve("b").resolve("c").resolve(caseDir.getFileName());
    try (Stream<Path> walk = Files.walk(caseDir)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path dest = target.resolve(caseDir.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
    return target;
  }

  /**
   * Structural differences: key order ignored, arrays ordered, null significant, numbers equal
   * within 1e-9. Empty when equal.
   */
  static List<String> diff(JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    diff("$", expected, actual, out);
    return out;
  }

  private static void diff(String path, JsonNode e, JsonNode a, List<String> out) {
    if (e.isNumber() && a.isNumber()) {
      if (Math.abs(e.doubleValue() - a.doubleValue()) > 1e-9) {
        out.add(path + ": expected " + e + " but was " + a);
      }
      return;
    }
    if (e.getNodeType() != a.getNodeType()) {
      out.add(path + ": expected " + e + " but was " + a);
      return;
    }
    if (e.isObject()) {
      TreeSet<String> keys = new TreeSet<>();
      e.fieldNames().forEachRemaining(keys::add);
      a.fieldNames().forEachRemaining(keys::add);
      for (String k : keys) {
        if (!e.has(k)) {
          out.add(path + "." + k + ": unexpected, was " + a.get(k));
        } else if (!a.has(k)) {
          out.add(path + "." + k + ": missing, expected " + e.get(k));
        } else {
          diff(path + "." + k, e.get(k), a.get(k), out);
        }
      }
    } else if (e.isArray()) {
      if (e.size() != a.size()) {
        out.add(path + ": expected " + e.size() + " elements but was " + a.size() + ": " + a);
        return;
      }
      for (int i = 0; i < e.size(); i++) {
        diff(path + "[" + i + "]", e.get(i), a.get(i), out);
      }
    } else if (!e.equals(a)) {
      out.add(path + ": expected " + e + " but was " + a);
    }
  }

  /** The string entries of a flat JSON object. */
  static Map<String, String> stringMap(JsonNode object) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = object.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> en = it.next();
      m.put(en.getKey(), en.getValue().asText());
    }
    return m;
  }
}
