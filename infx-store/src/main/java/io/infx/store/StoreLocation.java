package io.infx.store;

import static io.infx.core.Wording.setting;

import io.infx.core.UsageException;
import io.infx.core.Wording;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a results store lives: an embedded single-file database (H2, no server; the default) or
 * PostgreSQL at scale. Parsed from the {@code --db} value: a {@code jdbc:postgresql://…} URL, or a
 * file path. An embedded store is the single file {@code NAME.mv.db}; {@code --db results} and
 * {@code --db results.mv.db} both name {@code results.mv.db}. PostgreSQL credentials come from the
 * environment ({@code INFX_DB_USER}/{@code INFX_DB_PASSWORD}, else {@code PGUSER}/{@code PGPASSWORD})
 * and are never printed; {@link #toString()} shows the URL without any password parameter.
 */
public final class StoreLocation {

  /** File name of the default embedded store (in the working directory). */
  public static final String DEFAULT_FILE = "infx-results.mv.db";

  /** Environment variable naming the default store (a file path or a JDBC URL). */
  public static final String ENV_DB = "INFX_DB";

  private static final String H2_SUFFIX = ".mv.db";

  private final Path file;
  private final String jdbcUrl;

  private StoreLocation(Path file, String jdbcUrl) {
    this.file = file;
    this.jdbcUrl = jdbcUrl;
  }

  /** An embedded store in {@code file} ({@code .mv.db} is appended when missing). */
  public static StoreLocation embedded(Path file) {
    Objects.requireNonNull(file, "file");
    Path abs = file.toAbsolutePath().normalize();
    String name = abs.getFileName().toString();
    if (!name.endsWith(H2_SUFFIX)) {
      abs = abs.resolveSibling(name + H2_SUFFIX);
    }
    return new StoreLocation(abs, null);
  }

  /**
   * A PostgreSQL store.
   *
   * @throws UsageException when the URL is not {@code jdbc:postgresql:…}
   */
  public static StoreLocation postgres(String jdbcUrl) {
    if (jdbcUrl == null || !jdbcUrl.toLowerCase(Locale.ROOT).startsWith("jdbc:postgresql:")) {
      throw new UsageException(Wording.of(setting("db"), ": a database URL must start with jdbc:postgresql: (got "
          + redact(String.valueOf(jdbcUrl)) + ")"));
    }
    return new StoreLocation(null, jdbcUrl);
  }

  /**
   * Parses a {@code --db} value: {@code jdbc:postgresql:…} or a file path.
   *
   * @throws UsageException for an empty value or another JDBC driver
   */
  public static StoreLocation parse(String value) {
    if (value == null || value.isBlank()) {
      throw new UsageException(Wording.of(setting("db"), ": empty location; give a file path or a jdbc:postgresql:// URL"));
    }
    if (value.toLowerCase(Locale.ROOT).startsWith("jdbc:")) {
      return postgres(value);
    }
    return embedded(Path.of(value));
  }

  /** {@code $INFX_DB} when set, else {@value #DEFAULT_FILE} in the working directory. */
  public static StoreLocation defaultLocation() {
    String env = System.getenv(ENV_DB);
    return env != null && !env.isBlank() ? parse(env) : embedded(Path.of(DEFAULT_FILE));
  }

  public boolean isEmbedded() {
    return file != null;
  }

  /** The embedded file ({@code NAME.mv.db}); only for embedded stores. */
  public Path file() {
    if (file == null) {
      throw new IllegalStateException("not an embedded store: " + this);
    }
    return file;
  }

  /** The JDBC URL to connect with (may hold a password parameter: never print it). */
  String jdbcUrl() {
    if (file != null) {
      String base = file.toString().substring(0, file.toString().length() - H2_SUFFIX.length());
      return "jdbc:h2:file:" + base
          + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;LOCK_TIMEOUT=120000";
    }
    return jdbcUrl;
  }

  @Override
  public String toString() {
    return file != null ? file.toString() : redact(jdbcUrl);
  }

  private static String redact(String url) {
    return url.replaceAll("(?i)(password=)[^&;]*", "$1***").replaceAll("//[^/@]*:[^/@]*@", "//***@");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoreLocation s && Objects.equals(file, s.file) && Objects.equals(jdbcUrl, s.jdbcUrl);
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, jdbcUrl);
  }
}
