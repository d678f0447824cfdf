package io.infx.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Locates the shared folder as CI lays it out: INFX_SHARED, else {@code <repo root>/../shared}. */
final class SharedDir {

  private SharedDir() {}

  static Optional<Path> find(String sub) {
    String env = System.getenv("INFX_SHARED");
    Path base = env != null && !env.isBlank() ? Path.of(env)
        : Path.of(System.getProperty("infx.repo.root", ".")).toAbsolutePath().resolve("../shared");
    Path p = base.resolve(sub).normalize();
    return Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
  }

  static String describe(String sub) {
    String env = System.getenv("INFX_SHARED");
    return env != null ? env + "/" + sub
        : System.getProperty("infx.repo.root", ".") + "/../shared/" + sub;
  }
}
