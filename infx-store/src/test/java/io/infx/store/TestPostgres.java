package io.infx.store;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A real PostgreSQL for the store tests: a throwaway cluster started from Debian's
 * {@code postgresql} package ({@code /usr/lib/postgresql/<v>/bin}) on a free loopback port, run as
 * the {@code postgres} user when the tests run as root (PostgreSQL refuses root), trust
 * authentication, data in a temporary directory removed at JVM exit. Each test gets a fresh
 * database. Without the binaries the tests skip, unless {@code INFX_REQUIRE_POSTGRES=1} (CI), where
 * they fail. {@code INFX_TEST_POSTGRES_URL} (an admin URL) uses an existing server instead.
 */
final class TestPostgres {

  private static String adminUrl;
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private TestPostgres() {}

  /** A URL of a fresh, empty database; skips the test when PostgreSQL is unavailable. */
  static synchronized String freshDatabase() throws Exception {
    if (adminUrl == null) {
      String given = System.getenv("INFX_TEST_POSTGRES_URL");
      adminUrl = given != null && !given.isBlank() ? given : start();
    }
    String name = "infx_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    try (Connection c = DriverManager.getConnection(adminUrl, "postgres", "");
         Statement s = c.createStatement()) {
      s.execute("create database " + name);
    }
    return adminUrl.substring(0, adminUrl.lastIndexOf('/') + 1) + name + "?user=postgres";
  }

  private static String start() throws Exception {
    Path bin = findBin();
    if (bin == null) {
      String msg = "PostgreSQL binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)";
      if ("1".equals(System.getenv("INFX_REQUIRE_POSTGRES"))) {
        throw new IllegalStateException(msg + "; INFX_REQUIRE_POSTGRES=1");
      }
      Assumptions.abort(msg + "; skipping the PostgreSQL tests");
    }
    boolean root = "root".equals(System.getProperty("user.name"));
    Path dir = Files.createTempDirectory(Path.of("/tmp"), "infx-pg-");
    Path data = dir.resolve("data");
    if (root) {
      run(List.of("chown", "postgres", dir.toString()), dir);
    }
    run(asPostgres(root, bin.resolve("initdb").toString(), "-D", data.toString(), "-U", "postgres", "-A", "trust",
        "-E", "UTF8", "--no-sync"), dir);
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    run(asPostgres(root, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(),
        "-w", "-t", "60", "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"), dir);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        run(asPostgres(root, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "stop"), dir);
      } catch (Exception ignored) {
        // the JVM is exiting; the cluster dies with its temp directory
      }
      deleteTree(dir);
    }));
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  private static Path findBin() throws IOException {
    Path base = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(base)) {
      return null;
    }
    try (Stream<Path> s = Files.list(base)) {
      return s.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
          .max(Comparator.comparing(Path::toString)).orElse(null);
    }
  }

  private static List<String> asPostgres(boolean root, String... cmd) {
    List<String> l = new ArrayList<>();
    if (root) {
      l.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    l.addAll(List.of(cmd));
    return l;
  }

  private static void run(List<String> cmd, Path dir) throws IOException, InterruptedException {
    Path log = dir.resolve("cmd.log");
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("failed: " + String.join(" ", cmd) + "\n" + Files.readString(log));
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // best effort at JVM exit
    }
  }
}
