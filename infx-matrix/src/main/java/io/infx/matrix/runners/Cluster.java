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
 *
 * <p>infx extension (the reference has no such key and rejects it as unknown): {@code adapter:
 * <id>} names the fleet adapter the cluster's runners launch on, ahead of the scheduler and of
 * runner-name prefixes. Its shape is checked here (rule {@code V46.adapter-name}); whether an
 * adapter of that id is registered is checked by {@code infx-fleet} when it routes (rule
 * {@code V46.adapter-registered}), both located at the value. A record with {@code adapter} may
 * leave out {@code scheduler} (and then has no scheduler record); without {@code adapter} the
 * record is exactly the reference's.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class Cluster implements SelfChecking {

  /** Schedulers with a registered settings record. */
  public static final List<String> SCHEDULERS = List.of("slurm");

  /**
   * Shape of an {@code adapter} value (rule {@code V46.adapter-name}): an id as {@code --adapter}
   * takes it — a letter or digit, then letters, digits, {@code .}, {@code _} or {@code -}.
   */
  public static final java.util.regex.Pattern ADAPTER_ID = java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

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

  /**
   * The scheduler ({@code slurm}); required unless {@link #adapter()} is given (a cluster launched
   * by an adapter of its own needs no scheduler record).
   */
  @io.infx.core.bind.RequiredUnless("adapter")
  public abstract Optional<String> scheduler();

  public abstract Optional<SlurmSettings> slurm();

  /**
   * The fleet adapter id this cluster's runners launch on (infx extension; e.g. {@code slurm} or a
   * plugin's id). Preferred by routing over the scheduler and runner-name prefixes.
   */
  public abstract Optional<String> adapter();

  /** Where the {@code adapter} value was read (for located errors about it), when given. */
  @io.infx.core.bind.KeepOrigin("adapter")
  @Value.Auxiliary
  public abstract Optional<io.infx.core.bind.Origin> adapterOrigin();

  @Override
  public void check(Checks checks) {
    adapter().ifPresent(a -> {
      if (!ADAPTER_ID.matcher(a).matches()) {
        checks.fail("V46.adapter-name", "adapter", "adapter must be an adapter id (a letter or digit, then letters, "
            + "digits, '.', '_' or '-'), got " + PythonRepr.repr(a));
      }
    });
    if (scheduler().isEmpty()) {
      // only with adapter (the binder requires one of the two): no scheduler, so no scheduler record
      if (adapter().isEmpty()) {
        checks.fail("V46.scheduler", "adapter", "a cluster needs a scheduler or an adapter (adapter is null)");
      } else if (slurm().isPresent()) {
        checks.fail("V46.scheduler", "slurm", "a 'slurm' record needs scheduler 'slurm'");
      }
    } else if (!SCHEDULERS.contains(scheduler().get())) {
      checks.fail("V46.scheduler", "scheduler",
          "scheduler must be one of " + PythonRepr.repr(SCHEDULERS) + ", got " + PythonRepr.repr(scheduler().get()));
    } else if (slurm().isEmpty()) {
      checks.fail("V46.scheduler", "scheduler " + PythonRepr.repr(scheduler().get()) + " needs its "
          + PythonRepr.repr(scheduler().get()) + " record");
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
    // without a scheduler record (an adapter-only cluster) no volume exists for models to name
    if (slurm().isPresent() || scheduler().isEmpty()) {
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
