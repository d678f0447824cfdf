package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import io.infx.core.python.PythonRepr;
import jakarta.validation.constraints.Positive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One {@code clusters.<id>} record of the runner file: node shape, architecture, launch
 * environment, pre-staged models and the scheduler's own record (only {@code slurm} is registered).
 * The matrix reads {@code gpus-per-node} (node counts, DRAM budgets) and
 * {@code available-cpu-dram-mib} (DRAM budgets of agentic KV offload).
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class Cluster implements SelfChecking {

  /** Schedulers with a registered settings record. */
  public static final List<String> SCHEDULERS = List.of("slurm");

  @io.infx.core.bind.Rule("V46.node-facts")
  @Positive(message = "Input should be greater than 0")
  public abstract int gpusPerNode();

  /** Host DRAM usable by jobs, MiB. */
  @io.infx.core.bind.Rule("V46.node-facts")
  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> availableCpuDramMib();

  public abstract Arch arch();

  /** Launch environment; values may not contain {@code ,} (srun --export splits on it). */
  public abstract Map<String, String> env();

  @Value.Default
  public ClusterModels models() {
    return ImmutableClusterModels.builder().build();
  }

  public abstract String scheduler();

  public abstract Optional<SlurmSettings> slurm();

  @Override
  public void check(Checks checks) {
    if (!SCHEDULERS.contains(scheduler())) {
      checks.fail("V46.scheduler", "scheduler",
          "scheduler must be one of " + PythonRepr.repr(SCHEDULERS) + ", got " + PythonRepr.repr(scheduler()));
    } else if (slurm().isEmpty()) {
      checks.fail("V46.scheduler", "scheduler " + PythonRepr.repr(scheduler()) + " needs its " + PythonRepr.repr(scheduler())
          + " record");
    }
    List<String> commas = new ArrayList<>();
    for (Map.Entry<String, String> e : env().entrySet()) {
      if (e.getValue().indexOf(',') >= 0) {
        commas.add(e.getKey());
      }
    }
    if (!commas.isEmpty()) {
      commas.sort(null);
      checks.fail("V46.env", "env", "env values cannot contain ',' (srun --export splits on it): "
          + PythonRepr.repr(commas));
    }
    Map<String, HostVolume> volumes = slurm().map(SlurmSettings::volumes).orElse(Map.of());
    if (slurm().isPresent()) {
      for (Map.Entry<String, ModelEntry> e : models().entries().entrySet()) {
        if (!volumes.containsKey(e.getValue().root())) {
          checks.fail("V46.model-volume", "models/entries/" + e.getKey(), "model entry " + PythonRepr.repr(e.getKey())
              + " uses unknown volume " + PythonRepr.repr(e.getValue().root()));
        }
      }
      models().downloadRoot().ifPresent(root -> {
        if (!volumes.containsKey(root)) {
          checks.fail("V46.model-volume", "models/download-root",
              "download-root names unknown volume " + PythonRepr.repr(root));
        } else if (volumes.get(root).visibility() != Visibility.SHARED) {
          checks.fail("V46.model-volume", "models/download-root",
              "download-root " + PythonRepr.repr(root) + " must be a shared volume");
        }
      });
    }
  }
}
