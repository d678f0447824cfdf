package io.infx.matrix;

import io.infx.core.UsageException;
import io.infx.matrix.internal.Evals;
import io.infx.matrix.internal.Expansion;
import io.infx.matrix.internal.Row;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Expands a validated {@link Catalog} into a {@link Matrix}, exactly as the reference's
 * {@code generate full-sweep} and {@code generate test-config} do (spec §4): rows, row order, key
 * order and values.
 *
 * <p>Errors: {@code selection} (unknown runner type, unknown key, pattern matching nothing),
 * {@code generation} (runner facts missing for a DRAM budget or node count, a topology that does not
 * tile the node, {@code require-power} outside 8k1k), {@code usage} (bad {@code exp-names}); all as
 * {@link io.infx.core.InfxException}s with rule ids, located at the offending entry when possible.
 */
public final class Generator {

  private Generator() {}

  /**
   * {@code generate full-sweep}: every config passing the filters, with concurrency bounds applied
   * per row type (§4.5): single-node fixed ranges are clamped before expansion (a cap below the range
   * gives one point at the cap); lists and multi-node rows are filtered, and a multi-node or list
   * entry left empty by {@code maxConc} runs at the cap; agentic points are only filtered.
   * {@code maxTp}/{@code maxEp} act on single-node fixed entries only.
   */
  public static Matrix fullSweep(Catalog catalog, RunnerInventory runners, FullSweepOptions options) {
    List<Row> rows = new Expansion(runners).fullSweep(catalog, options);
    return freeze(Evals.select(rows, options.evalMode(), options.trimConc()));
  }

  /**
   * {@code generate test-config}: the configs named by {@code options.configKeys()} (exact keys or
   * globs), step factor 2, no bounds; then {@code --conc}, {@code --exp-names}, eval selection.
   */
  public static Matrix testConfig(Catalog catalog, RunnerInventory runners, TestConfigOptions options) {
    List<Row> rows = new Expansion(runners).testConfig(catalog, options.configKeys(), options.seqLens(),
        options.scenarioTypes(), options.runnerNodeFilter(), options.concs());
    if (!options.expNames().isEmpty()) {
      rows = filterExpNames(rows, options.expNames());
    }
    return freeze(Evals.select(rows, options.evalMode(), options.trimConc()));
  }

  /**
   * Resolves test-config key arguments against {@code catalog} (exact keys and {@code *}/{@code ?}
   * globs, first occurrence kept).
   */
  public static List<String> resolveKeys(Catalog catalog, List<String> patterns) {
    return Expansion.resolveKeys(patterns, catalog.keys());
  }

  /**
   * {@code --trim-conc} on finished rows: the minimum-concurrency row of every deployment shape
   * (multi-node concurrency lists collapse to their minimum), eval picks moved onto the kept row.
   */
  public static List<MatrixRow> trimConc(List<MatrixRow> rows) {
    return freeze(Evals.trim(thaw(rows))).rows();
  }

  /**
   * Keeps at most one eval per app identity across {@code rows} (the planner applies this across
   * changelog entries): rows without KV offload claim identities first.
   */
  public static List<MatrixRow> dropAppCollidingEvals(List<MatrixRow> rows) {
    return freeze(Evals.dropAppCollidingEvals(thaw(rows))).rows();
  }

  private static List<Row> thaw(List<MatrixRow> rows) {
    List<Row> out = new ArrayList<>(rows.size());
    for (MatrixRow r : rows) {
      out.add(r.toRow());
    }
    return out;
  }

  private static List<Row> filterExpNames(List<Row> rows, List<String> names) {
    if (new HashSet<>(names).size() != names.size()) {
      throw new UsageException("--exp-names contains duplicate values");
    }
    Map<String, Integer> matches = new HashMap<>();
    for (String n : names) {
      matches.put(n, 0);
    }
    for (Row r : rows) {
      Object name = r.get("exp-name");
      if (name instanceof String s && matches.containsKey(s)) {
        matches.merge(s, 1, Integer::sum);
      }
    }
    Set<String> missing = new TreeSet<>();
    Set<String> ambiguous = new TreeSet<>();
    matches.forEach((n, c) -> {
      if (c == 0) {
        missing.add(n);
      } else if (c > 1) {
        ambiguous.add(n);
      }
    });
    if (!missing.isEmpty()) {
      throw new UsageException("Experiment name(s) not found: " + String.join(", ", missing));
    }
    if (!ambiguous.isEmpty()) {
      throw new UsageException("Experiment name(s) matched multiple rows: " + String.join(", ", ambiguous));
    }
    List<Row> out = new ArrayList<>();
    for (Row r : rows) {
      if (matches.containsKey(r.get("exp-name"))) {
        out.add(r);
      }
    }
    return out;
  }

  private static Matrix freeze(List<Row> rows) {
    List<MatrixRow> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      out.add(MatrixRow.wrap(r));
    }
    return Matrix.of(out);
  }
}
