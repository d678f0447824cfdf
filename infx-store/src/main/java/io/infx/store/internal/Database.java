package io.infx.store.internal;

import io.infx.store.StoreException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * A connection factory for one store plus its migrations. Embedded stores keep one connection
 * open for the store's lifetime so H2 does not close and reopen the file between operations.
 */
public final class Database implements AutoCloseable {

  /** Where migrations live on the class path (Flyway's {@code classpath:} location). */
  public static final String MIGRATIONS = "classpath:db/infx";

  private final String url;
  private final Properties credentials;
  private final boolean postgres;
  private final Jdbi jdbi;
  private final String shown;
  private Connection keeper;

  private Database(String url, Properties credentials, boolean postgres, String shown) {
    this.url = url;
    this.credentials = credentials;
    this.postgres = postgres;
    this.shown = shown;
    this.jdbi = Jdbi.create(() -> DriverManager.getConnection(url, credentials));
  }

  /**
   * Opens (creating an embedded file when missing) and migrates to the current schema.
   *
   * @param url the JDBC URL
   * @param shown how to name the store in messages (no password)
   * @throws StoreException when the database cannot be reached, is locked by another process, or
   *     a migration fails
   */
  public static Database open(String url, String shown) {
    boolean postgres = url.startsWith("jdbc:postgresql:");
    Properties p = new Properties();
    if (postgres) {
      String user = env("INFX_DB_USER", "PGUSER");
      String password = env("INFX_DB_PASSWORD", "PGPASSWORD");
      if (user != null) {
        p.setProperty("user", user);
      }
      if (password != null) {
        p.setProperty("password", password);
      }
    } else {
      p.setProperty("user", "infx");
      p.setProperty("password", "");
    }
    Database db = new Database(url, p, postgres, shown);
    try {
      if (!postgres) {
        db.keeper = DriverManager.getConnection(url, p);
      }
      Flyway.configure(Database.class.getClassLoader())
          .dataSource(url, p.getProperty("user"), p.getProperty("password"))
          .locations(MIGRATIONS)
          .table("infx_schema_history")
          .loggers("slf4j")
          .load()
          .migrate();
    } catch (SQLException e) {
      db.close();
      throw new StoreException("cannot open store " + shown + ": " + describe(e), e);
    } catch (FlywayException e) {
      db.close();
      throw new StoreException("cannot migrate store " + shown + ": " + e.getMessage(), e);
    }
    return db;
  }

  private static String describe(SQLException e) {
    String m = e.getMessage();
    if (m != null && (m.contains("Database may be already in use") || m.contains("locked"))) {
      return "the embedded file is in use by another process (an embedded store serves one process at a time; "
          + "use PostgreSQL for concurrent writers)";
    }
    return m;
  }

  private static String env(String primary, String fallback) {
    String v = System.getenv(primary);
    return v != null && !v.isEmpty() ? v : System.getenv(fallback);
  }

  public boolean isPostgres() {
    return postgres;
  }

  public Jdbi jdbi() {
    return jdbi;
  }

  /** Opens a handle; the caller closes it. */
  public Handle open() {
    return jdbi.open();
  }

  /** The store's name for messages (never a password). */
  public String shown() {
    return shown;
  }

  /** The applied schema version (Flyway), e.g. {@code 1}. */
  public String schemaVersion() {
    try (Handle h = open()) {
      return h.createQuery("select max(version) from infx_schema_history where success = true")
          .mapTo(String.class).one();
    }
  }

  @Override
  public void close() {
    if (keeper != null) {
      try {
        keeper.close();
      } catch (SQLException ignored) {
        // closing a connection that failed to open: nothing to release
      }
      keeper = null;
    }
  }

  String url() {
    return url;
  }
}
