package io.infx.matrix.internal;

import io.infx.core.python.PythonRepr;
import io.infx.core.bind.Origin;
import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.RunnerInventory;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runner-derived facts used while rows are built: GPUs per node and host DRAM per
 * {@code cluster:<id>} label, node counts of multi-node rows (§4.9.4) and DRAM budgets of agentic
 * rows (§4.10.3).
 */
final class Hardware {

  /** 3 TB decimal, in MiB: the cap on available DRAM before utilization scaling. */
  static final long MAX_AVAILABLE_DRAM_MIB = 2_861_022L;
  private static final MathContext PYTHON_DECIMAL = new MathContext(28, RoundingMode.HALF_EVEN);

  private final Map<String, Cluster> byLabel = new LinkedHashMap<>();

  Hardware(RunnerInventory runners) {
    for (Map.Entry<String, Cluster> e : runners.clusters().entrySet()) {
      byLabel.put(RunnerInventory.CLUSTER_PREFIX + e.getKey(), e.getValue());
    }
  }

  private String availableKeys() {
    return String.join(", ", new TreeSet<>(byLabel.keySet()));
  }

  int availableDramMib(String runner, Optional<Origin> where) {
    Cluster c = byLabel.get(runner);
    if (c == null || c.availableCpuDramMib().isEmpty()) {
      throw Fail.generation("V55.runner-hardware", "Runner '" + runner
          + "' requires 'available-cpu-dram-mib' in runner hardware metadata. Available hardware keys: "
          + availableKeys(), where);
    }
    return c.availableCpuDramMib().get();
  }

  int gpusPerNode(String runner, Optional<Origin> where) {
    Cluster c = byLabel.get(runner);
    if (c == null) {
      throw Fail.generation("V55.runner-hardware", "Runner '" + runner
          + "' requires 'gpus-per-node' in runner hardware metadata. Available hardware keys: "
          + availableKeys(), where);
    }
    return c.gpusPerNode();
  }

  /** GPUs per node of a runner or worker hardware label: exact record, else its GPU family (V59). */
  int schedulingGpusPerNode(String label, Optional<Origin> where) {
    Cluster exact = byLabel.get(label);
    if (exact != null) {
      return exact.gpusPerNode();
    }
    String family = family(label);
    TreeSet<Integer> matches = new TreeSet<>();
    for (Map.Entry<String, Cluster> e : byLabel.entrySet()) {
      if (family(e.getKey()).equals(family)) {
        matches.add(e.getValue().gpusPerNode());
      }
    }
    if (matches.size() == 1) {
      return matches.first();
    }
    if (matches.isEmpty()) {
      throw Fail.generation("V59.node-count", "Cannot resolve gpus-per-node for '" + label + "'", where);
    }
    throw Fail.generation("V59.node-count", "Ambiguous gpus-per-node for '" + label + "': " + PythonRepr.repr(matches), where);
  }

  private static String family(String label) {
    String s = label.startsWith(RunnerInventory.CLUSTER_PREFIX)
        ? label.substring(RunnerInventory.CLUSTER_PREFIX.length()) : label;
    int dash = s.indexOf('-');
    return dash < 0 ? s : s.substring(0, dash);
  }

  /** Nodes a prefill or decode role occupies: explicit ROLE_NODES setting, else ceil(GPUs / G). */
  int roleNodes(Row worker, String role, String runner, Optional<Origin> where) {
    Integer override = nodeOverride(worker, role.toUpperCase(java.util.Locale.ROOT) + "_NODES", where);
    if (override != null) {
      return override;
    }
    Object hw = worker.get("hardware");
    String label = hw instanceof String s && !s.isEmpty() ? s : runner;
    int g = schedulingGpusPerNode(label, where);
    long total = (long) worker.integer("num-worker") * worker.integer("tp") * worker.integer("pp")
        * worker.integer("pcp-size");
    return (int) Math.floorDiv(total + g - 1, (long) g);
  }

  private static Integer nodeOverride(Row worker, String name, Optional<Origin> where) {
    Object settings = worker.get("additional-settings");
    if (!(settings instanceof List<?> list)) {
      return null;
    }
    Pattern p = Pattern.compile("^" + Pattern.quote(name) + "=(\\d+)$");
    List<Long> values = new ArrayList<>();
    for (Object o : list) {
      Matcher m = p.matcher((String) o);
      if (m.matches()) {
        values.add(Long.parseLong(m.group(1)));
      }
    }
    if (values.isEmpty()) {
      return null;
    }
    if (new TreeSet<>(values).size() != 1 || values.get(0) <= 0 || values.get(0) > Integer.MAX_VALUE) {
      throw Fail.generation("V59.node-count", "Conflicting or invalid " + name + " settings: " + PythonRepr.repr(values), where);
    }
    return values.get(0).intValue();
  }

  /**
   * {@code floor(min(A, cap) × 1,048,576 × u × g / G / 10^9)} with Python's 28-digit decimal
   * arithmetic: the DRAM budget (decimal GB) of one agentic server.
   */
  static int dramBudgetGb(long availableMib, BigDecimal utilization, int gpus, int gpusPerNode) {
    BigDecimal u = new BigDecimal(Double.toString(utilization.doubleValue()));
    BigDecimal bytes = BigDecimal.valueOf(Math.min(availableMib, MAX_AVAILABLE_DRAM_MIB))
        .multiply(BigDecimal.valueOf(1024L * 1024L), PYTHON_DECIMAL)
        .multiply(u, PYTHON_DECIMAL)
        .multiply(BigDecimal.valueOf(gpus), PYTHON_DECIMAL)
        .divide(BigDecimal.valueOf(gpusPerNode), PYTHON_DECIMAL);
    return bytes.divide(BigDecimal.valueOf(1_000_000_000L), PYTHON_DECIMAL)
        .setScale(0, RoundingMode.DOWN).intValueExact();
  }

}
