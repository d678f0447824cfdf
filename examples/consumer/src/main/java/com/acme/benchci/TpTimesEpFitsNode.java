package com.acme.benchci;

import io.infx.core.Violation;
import io.infx.matrix.ConfigRule;
import io.infx.matrix.config.AgenticEntry;
import io.infx.matrix.config.AgenticScenario;
import io.infx.matrix.config.MasterConfig;
import io.infx.matrix.config.SearchEntry;
import io.infx.matrix.config.SeqLen;
import io.infx.matrix.config.SingleNodeEntry;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * This team's own config rule, run by infx beside its built-in ones ({@code Catalog.load(sources,
 * List.of(rule))}): a single-node point must fit one node of its runner — tp × ep ≤ the GPUs per
 * node of the runner label's cluster in the team's {@code runners.yaml} (the smallest, when the
 * label spans clusters of different sizes). Rule id {@value #RULE_ID}; a violation points at the
 * entry's {@code ep} (or its {@code tp} when it writes no {@code ep}), so infx reports it with
 * {@code file:line:column} like a built-in violation.
 *
 * <p>Scope: single-node entries of {@code fixed-seq-len} and {@code agentic-coding} blocks (a
 * multi-node worker spans nodes); a label without a cluster record is not checked (its node size
 * is unknown).
 */
public final class TpTimesEpFitsNode implements ConfigRule {

  /** The rule id violations carry. */
  public static final String RULE_ID = "acme.tp-ep-fits-node";

  private final RunnerInventory runners;

  /** The rule for the team's fleet {@code runners}. */
  public TpTimesEpFitsNode(RunnerInventory runners) {
    this.runners = Objects.requireNonNull(runners, "runners");
  }

  /** GPUs per node of {@code label}: the smallest among its clusters; empty when it has none. */
  public OptionalInt gpusPerNode(String label) {
    OptionalInt[] smallest = {OptionalInt.empty()};
    runners.clusterOf(label).ifPresent(c -> smallest[0] = OptionalInt.of(c.gpusPerNode()));
    for (String runner : runners.runnersOf(label)) {
      for (String l : runners.labelsOf(runner)) {
        runners.clusterOf(l).ifPresent(c -> {
          if (smallest[0].isEmpty() || c.gpusPerNode() < smallest[0].getAsInt()) {
            smallest[0] = OptionalInt.of(c.gpusPerNode());
          }
        });
      }
    }
    return smallest[0];
  }

  @Override
  public List<Violation> check(String key, MasterConfig config) {
    OptionalInt gpus = gpusPerNode(config.runner());
    List<Violation> out = new ArrayList<>();
    if (gpus.isEmpty()) {
      return out;
    }
    List<? extends SeqLen> fixed = config.fixedSeqLen();
    for (int b = 0; b < fixed.size(); b++) {
      List<? extends SearchEntry> space = fixed.get(b).searchSpace();
      for (int i = 0; i < space.size(); i++) {
        if (space.get(i) instanceof SingleNodeEntry e) {
          check(config, "/scenarios/fixed-seq-len/" + b + "/search-space/" + i, e.tp(), e.ep(), gpus.getAsInt(), out);
        }
      }
    }
    List<AgenticScenario> agentic = config.agenticCoding();
    for (int b = 0; b < agentic.size(); b++) {
      List<AgenticEntry> space = agentic.get(b).searchSpace();
      for (int i = 0; i < space.size(); i++) {
        AgenticEntry e = space.get(i);
        if (e.tp().isPresent()) {   // single-node shape (worker-shaped entries span nodes)
          check(config, "/scenarios/agentic-coding/" + b + "/search-space/" + i, e.tp().get(), e.ep(),
              gpus.getAsInt(), out);
        }
      }
    }
    return out;
  }

  private static void check(MasterConfig config, String entry, int tp, Optional<Integer> ep, int gpus,
      List<Violation> out) {
    int e = ep.orElse(1);
    if ((long) tp * e > gpus) {
      out.add(ConfigRule.at(RULE_ID, entry + (ep.isPresent() ? "/ep" : "/tp"), "tp × ep = " + tp + " × " + e
          + " = " + (long) tp * e + " exceeds the " + gpus + " GPUs per node of runner '" + config.runner() + "'"));
    }
  }
}
