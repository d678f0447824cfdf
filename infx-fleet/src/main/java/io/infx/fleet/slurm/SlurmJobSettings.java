package io.infx.fleet.slurm;

import io.infx.core.InfxStyle;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Scheduler facts of one Slurm cluster (newer reference {@code clusters.<id>.slurm} record, fleet
 * spec §6.2, §10): where and how to ask for resources. Everything is optional; an empty record
 * submits to the default partition with the default account.
 */
@Value.Immutable
@InfxStyle
public abstract class SlurmJobSettings {

  /** How a job reaches the cluster. */
  public enum Mode {
    /** {@code sbatch --parsable} a one-line batch script (the job outlives a dead launcher until cancelled). */
    BATCH,
    /**
     * The reference single-node pattern: {@code salloc --no-shell} an allocation, then
     * {@code srun --jobid=<id>} the command in it, then {@code scancel} the allocation.
     */
    ALLOC
  }

  @Value.Default
  public Mode mode() {
    return Mode.BATCH;
  }

  public abstract Optional<String> partition();

  public abstract Optional<String> account();

  /** GRES template with {@code {gpus}}, e.g. {@code gpu:{gpus}} or {@code gpu:h200:{gpus}}. */
  @Value.Default
  public String gresTemplate() {
    return "gpu:{gpus}";
  }

  @Value.Default
  public boolean exclusive() {
    return false;
  }

  /** Nodes never to use ({@code --exclude}), e.g. the reference's {@code SALLOC_EXCLUDE}. */
  public abstract List<String> exclude();

  /** {@code --cpus-per-task} (0 = scheduler default). */
  @Value.Default
  public int cpusPerTask() {
    return 0;
  }

  /** Extra arguments for {@code sbatch}/{@code salloc}. */
  public abstract List<String> extraArgs();

  /**
   * Pass the job's image to Pyxis ({@code --container-image}, {@code --container-mounts},
   * {@code --container-workdir}, {@code --no-container-entrypoint}, {@code --container-remap-root},
   * {@code --no-container-mount-home}) — only for clusters whose record says so.
   */
  @Value.Default
  public boolean pyxis() {
    return false;
  }

  /** Directory holding the Slurm tools (default: found on PATH). Tests point it at fakes. */
  public abstract Optional<Path> binDir();

  /** How often the job's state is read while waiting. */
  @Value.Default
  public java.time.Duration pollInterval() {
    return java.time.Duration.ofSeconds(1);
  }

  public static ImmutableSlurmJobSettings.Builder builder() {
    return ImmutableSlurmJobSettings.builder();
  }

  public static SlurmJobSettings defaults() {
    return builder().build();
  }
}
