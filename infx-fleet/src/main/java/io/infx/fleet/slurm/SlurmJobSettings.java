package io.infx.fleet.slurm;

import io.infx.core.InfxStyle;
import io.infx.core.UsageException;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.matrix.runners.Cluster;
import io.infx.matrix.runners.SlurmSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.immutables.value.Value;

/**
 * What infx submits a Slurm job with (fleet spec §6.2, §10): where and how to ask for resources,
 * and how the node runs the bench driver. One typed value from its two sources to
 * {@link SlurmBackend}: the runner's {@code runners.yaml} cluster record
 * ({@link #fromCluster}, typed as {@link SlurmSettings}, validated with file:line:column when
 * the inventory loads) overlaid by the command line's {@code -o slurm.*} options
 * ({@link #withOptions}, checked before any point runs). Everything is optional; an empty value
 * submits to the default partition with the default account.
 */
@Value.Immutable
@InfxStyle
public abstract class SlurmJobSettings {

  /** The {@code -o} keys {@link #withOptions} takes. */
  public static final Set<String> OPTION_KEYS = Set.of("slurm.mode", "slurm.partition", "slurm.account",
      "slurm.gres", "slurm.gpus", "slurm.exclusive", "slurm.exclude", "slurm.cpus-per-task", "slurm.java",
      "slurm.classpath", "slurm.bin-dir");

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

  /** GPUs to request; empty = the point's {@code GPU_COUNT}; {@code 0} = no GRES (a Slurm without GPUs). */
  public abstract Optional<Integer> gpus();

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

  /** The {@code java} binary on the nodes; empty = this JVM's. */
  public abstract Optional<String> java();

  /** The class path on the nodes; empty = this JVM's. */
  public abstract Optional<String> classpath();

  /** Directory holding the Slurm tools (default: found on PATH). Tests point it at fakes. */
  public abstract Optional<Path> binDir();

  /** How often the job's state is read while waiting. */
  @Value.Default
  public Duration pollInterval() {
    return Duration.ofSeconds(1);
  }

  public static ImmutableSlurmJobSettings.Builder builder() {
    return ImmutableSlurmJobSettings.builder();
  }

  public static SlurmJobSettings defaults() {
    return builder().build();
  }

  /**
   * The settings a cluster record gives a runner: its {@code slurm:} partition (the runner's
   * {@code partition:<name>} label when the record lists {@code partitions}), account, exclusive,
   * exclude, gres and cpus-per-task. A cluster without a {@code slurm:} record gives the defaults.
   *
   * @param runnerLabels the runner's labels in the runner file (where its {@code partition:} label is)
   */
  public static SlurmJobSettings fromCluster(Cluster cluster, List<String> runnerLabels) {
    ImmutableSlurmJobSettings.Builder b = builder();
    cluster.slurm().ifPresent(s -> {
      b.partition(partitionOf(s, runnerLabels));
      s.account().ifPresent(b::account);
      b.exclusive(s.exclusive());
      b.exclude(s.exclude());
      s.gres().ifPresent(b::gresTemplate);
      s.cpusPerTask().ifPresent(b::cpusPerTask);
    });
    return b.build();
  }

  private static String partitionOf(SlurmSettings s, List<String> runnerLabels) {
    if (!s.partitions().isEmpty()) {
      for (String label : runnerLabels) {
        if (label.startsWith("partition:")) {
          return label.substring("partition:".length());
        }
      }
    }
    return s.partition();
  }

  /**
   * {@code base} with the command line's {@code -o slurm.*} options over it (an option given wins
   * over the record): {@code slurm.mode} ({@code batch|alloc}), {@code slurm.partition},
   * {@code slurm.account}, {@code slurm.gres}, {@code slurm.gpus} (≥ 0), {@code slurm.exclusive}
   * ({@code true|false}), {@code slurm.exclude} (comma list), {@code slurm.cpus-per-task} (> 0),
   * {@code slurm.java}, {@code slurm.classpath}, {@code slurm.bin-dir}.
   *
   * @throws UsageException naming the option for an unknown {@code slurm.*} key or a bad value
   */
  public static SlurmJobSettings withOptions(SlurmJobSettings base, AdapterOptions o) {
    o.requireKnown("slurm.", OPTION_KEYS);
    ImmutableSlurmJobSettings.Builder b = builder().from(base);
    o.get("slurm.mode").ifPresent(m -> b.mode(switch (m) {
      case "batch" -> Mode.BATCH;
      case "alloc" -> Mode.ALLOC;
      default -> throw new UsageException("slurm.mode must be batch or alloc, got '" + m + "'");
    }));
    o.get("slurm.partition").ifPresent(b::partition);
    o.get("slurm.account").ifPresent(b::account);
    o.get("slurm.gres").ifPresent(b::gresTemplate);
    o.get("slurm.gpus").ifPresent(v -> b.gpus(nonNegative("slurm.gpus", v)));
    o.get("slurm.exclusive").ifPresent(v -> b.exclusive(bool("slurm.exclusive", v)));
    o.get("slurm.exclude").ifPresent(v -> b.exclude(Arrays.stream(v.split(",")).map(String::strip)
        .filter(s -> !s.isEmpty()).toList()));
    o.get("slurm.cpus-per-task").ifPresent(v -> b.cpusPerTask(positive("slurm.cpus-per-task", v)));
    o.get("slurm.java").ifPresent(b::java);
    o.get("slurm.classpath").ifPresent(b::classpath);
    o.get("slurm.bin-dir").ifPresent(v -> b.binDir(Path.of(v)));
    return b.build();
  }

  /** {@link #withOptions} over the defaults. */
  public static SlurmJobSettings fromOptions(AdapterOptions o) {
    return withOptions(defaults(), o);
  }

  private static boolean bool(String key, String v) {
    return switch (v.strip()) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new UsageException(key + " must be true or false, got '" + v + "'");
    };
  }

  private static int positive(String key, String v) {
    int n = nonNegative(key, v);
    if (n == 0) {
      throw new UsageException(key + " must be > 0, got " + v);
    }
    return n;
  }

  private static int nonNegative(String key, String v) {
    try {
      int n = Integer.parseInt(v.strip());
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(key + " must be a non-negative integer, got '" + v + "'");
    }
  }
}
