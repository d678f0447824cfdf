package io.infx.store;

import java.nio.file.Path;

/**
 * Child process of {@link KilledIngestTest}: ingests a directory and, once its benchmark rows are
 * written inside the open transaction, says so on stdout and waits to be killed.
 */
public final class KilledIngestChild {

  private KilledIngestChild() {}

  public static void main(String[] args) throws Exception {
    try (ResultStore store = ResultStore.open(StoreLocation.parse(args[0]))) {
      store.ingest(Path.of(args[1]), IngestOptions.defaults().runId("killed"), line -> {
        if (line.startsWith("benchmark rows written")) {
          System.out.println("WRITTEN " + line);
          System.out.flush();
          try {
            Thread.sleep(600_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      });
    }
    System.out.println("COMMITTED");
  }
}
