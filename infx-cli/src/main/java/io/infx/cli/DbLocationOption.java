package io.infx.cli;

import io.infx.store.StoreLocation;
import picocli.CommandLine.Option;

/** The {@code --db LOCATION} option every {@code infx db} command shares. */
final class DbLocationOption {

  @Option(names = "--db", paramLabel = "LOCATION",
      description = "Store: a file (NAME.mv.db; default $INFX_DB, else ./infx-results.mv.db) or a "
          + "jdbc:postgresql:// URL.")
  String db;

  StoreLocation location() {
    return db == null ? StoreLocation.defaultLocation() : StoreLocation.parse(db);
  }
}
