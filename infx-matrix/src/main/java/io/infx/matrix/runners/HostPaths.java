package io.infx.matrix.runners;

import io.infx.core.bind.SelfChecking;
import java.util.List;

/** Checks shared by the runner file's path and option fields. */
final class HostPaths {

  private HostPaths() {}

  /** A host path must be absolute after expanding a leading {@code ~}. */
  static void check(String path, String pointer, SelfChecking.Checks checks) {
    if (!path.startsWith("/") && !path.startsWith("~")) {
      checks.fail("V46.cluster-path", pointer, "cluster path must be absolute: " + path);
    }
  }

  /** Extra scheduler arguments must be long options ({@code --name[=value]}). */
  static void checkLongOptions(List<String> args, String pointer, SelfChecking.Checks checks) {
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (!a.startsWith("--") || a.length() == 2) {
        checks.fail("V46.long-option", pointer + "/" + i,
            "expected a long option such as --container-remap-root: '" + a + "'");
      }
    }
  }
}
