package io.infx.examples;

import io.infx.matrix.Catalog;
import io.infx.matrix.FullSweepOptions;
import io.infx.matrix.Generator;
import io.infx.matrix.Matrix;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.runners.RunnerInventory;
import java.nio.file.Path;

/**
 * Validates master configs and expands them into matrix rows, like
 * {@code infx generate full-sweep --single-node --max-conc 16}.
 *
 * <p>Run: {@code examples/run ExpandSweep [MASTER.yaml RUNNERS.yaml]}.
 */
public final class ExpandSweep {

  private ExpandSweep() {}

  public static void main(String[] args) {
    Path master = Path.of(args.length > 0 ? args[0] : "examples/configs/example-master.yaml");
    Path runnerFile = Path.of(args.length > 1 ? args[1] : "examples/configs/runners.yaml");

    Catalog catalog = Catalog.load(master);              // every violation at once, located
    RunnerInventory runners = RunnerInventory.load(runnerFile);
    Matrix matrix = Generator.fullSweep(catalog, runners, FullSweepOptions.builder()
        .singleNode(true).multiNode(false)
        .maxConc(16)
        .build());

    System.out.printf("%d configs → %d single-node rows (conc ≤ 16)%n", catalog.size(), matrix.size());
    for (MatrixRow row : matrix) {
      System.out.printf("  %-14s %-8s tp=%-2s conc=%-4s runner=%s%n", row.expName(), row.framework(),
          row instanceof MatrixRow.OnOneNode one ? one.tp() : "-", row.conc(), row.runner());
    }
  }
}
