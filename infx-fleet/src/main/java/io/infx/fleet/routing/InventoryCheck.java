package io.infx.fleet.routing;

import io.infx.core.InfxException;
import io.infx.fleet.RunnerName;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks an inventory against the routing table and the registered adapters at load time, not at
 * job time — "runner prefix without launcher" is a stop condition in the reference's architecture
 * (fleet spec §5).
 */
public final class InventoryCheck {

  /**
   * What is inconsistent. Every list is sorted and duplicate-free.
   *
   * @param runnersWithoutAdapter runners no rule routes (or routed to an adapter that is not registered)
   * @param prefixesWithoutRunner routing-table prefixes that no listed runner uses (legacy: a
   *     launcher script nobody calls)
   * @param adaptersWithoutRunner registered adapters no listed runner reaches
   */
  public record Report(List<String> runnersWithoutAdapter, List<String> prefixesWithoutRunner,
      List<String> adaptersWithoutRunner) {

    public Report {
      runnersWithoutAdapter = List.copyOf(runnersWithoutAdapter);
      prefixesWithoutRunner = List.copyOf(prefixesWithoutRunner);
      adaptersWithoutRunner = List.copyOf(adaptersWithoutRunner);
    }

    /** True when every runner has an adapter (unused prefixes and adapters are only reported). */
    public boolean ok() {
      return runnersWithoutAdapter.isEmpty();
    }

    /** Human-readable lines, one finding per line. */
    public List<String> lines() {
      List<String> out = new ArrayList<>();
      runnersWithoutAdapter.forEach(r -> out.add("runner without adapter: " + r));
      prefixesWithoutRunner.forEach(p -> out.add("routing prefix without runner: " + p));
      adaptersWithoutRunner.forEach(a -> out.add("adapter without runner: " + a));
      return out;
    }
  }

  private InventoryCheck() {}

  /** Every runner listed under any label of the inventory, once, in inventory order. */
  public static List<String> runners(RunnerInventory inventory) {
    Set<String> all = new LinkedHashSet<>();
    inventory.labels().values().forEach(all::addAll);
    return List.copyOf(all);
  }

  /**
   * Checks {@code runners} against {@code router} and {@code registeredAdapters}; prefixes of
   * {@code prefixTable} (when given) that no runner uses are reported too.
   */
  public static Report check(Collection<String> runners, FleetRouter router, Optional<PrefixRouter> prefixTable,
      Set<String> registeredAdapters) {
    Set<String> without = new TreeSet<>();
    Set<String> usedAdapters = new TreeSet<>();
    Set<String> usedPrefixes = new TreeSet<>();
    for (String r : runners) {
      RunnerName name = RunnerName.of(r);
      Optional<FleetBinding> b;
      try {
        b = router.resolve(name);
      } catch (InfxException e) {
        without.add(r + " (" + e.getMessage() + ")");
        continue;
      }
      if (b.isEmpty()) {
        without.add(r);
      } else if (!registeredAdapters.contains(b.get().adapterId())) {
        without.add(r + " (adapter '" + b.get().adapterId() + "' is not registered)");
      } else {
        usedAdapters.add(b.get().adapterId());
      }
      usedPrefixes.add(name.fleetPrefix());
    }
    Set<String> unusedPrefixes = new TreeSet<>();
    prefixTable.ifPresent(t -> t.table().keySet().stream().filter(p -> !usedPrefixes.contains(p))
        .forEach(unusedPrefixes::add));
    Set<String> unusedAdapters = new TreeSet<>(registeredAdapters);
    unusedAdapters.removeAll(usedAdapters);
    return new Report(List.copyOf(without), List.copyOf(unusedPrefixes), List.copyOf(unusedAdapters));
  }
}
