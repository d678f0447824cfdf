package io.infx.run;

import io.infx.core.InfxException;
import io.infx.store.IngestOptions;
import io.infx.store.IngestReport;
import io.infx.store.ResultStore;
import io.infx.store.StoreLocation;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The run's own results store: after collection, {@code infx run} ingests its directory into the
 * embedded store {@code DIR/infx-results.mv.db} (infx-store), so {@code infx db query|history --db
 * DIR/infx-results.mv.db} work on every run. Simulated rows are stored flagged (they never enter
 * the latest view of real rows). A store failure is reported and never fails the run: the
 * artifacts on disk are the record.
 */
final class RunStore {

  /** File name of a run's embedded store, in the run directory. */
  static final String FILE = "infx-results.mv.db";

  private RunStore() {}

  static void ingest(RunLayout layout, RunListener listener) {
    if (!Files.isRegularFile(layout.collectedFile())) {
      return;
    }
    Path file = layout.dir().resolve(FILE);
    try (ResultStore store = ResultStore.open(StoreLocation.embedded(file))) {
      IngestReport r = store.ingest(layout.dir(), IngestOptions.defaults().allowSimulated(true));
      listener.note("store: " + file + " (run " + r.runId() + ": " + r.benchmarksInserted() + " new, "
          + r.benchmarksDuplicate() + " duplicate, " + r.skipped() + " skipped)");
    } catch (InfxException e) {
      listener.note("store: not updated: " + e.getMessage());
    }
  }
}
