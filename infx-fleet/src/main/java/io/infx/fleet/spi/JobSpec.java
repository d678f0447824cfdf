package io.infx.fleet.spi;

import io.infx.core.InfxStyle;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.immutables.value.Value;

/**
 * What a {@link SchedulerBackend} runs: one command in a workspace with an explicit environment, plus the
 * resources a scheduler needs. Backends receive the complete environment map (no allow-list; any
 * filtering is the backend's, explicit and tested — fleet spec §3.3 pitfall).
 */
@Value.Immutable
@InfxStyle
public abstract class JobSpec {

  /** Job name; launches use the runner name so leftovers can be cancelled by name. */
  public abstract String name();

  /** The command (argv). Not run through a shell unless it says so ({@code bash -c …}). */
  public abstract List<String> command();

  /** Variables added to (or replacing) the backend's base environment. */
  public abstract Map<String, String> env();

  /** Names in {@link #env()} that are secrets (never logged; passed by reference where possible). */
  public abstract Set<String> secretEnv();

  /** Working directory; results land here (shared with the launcher for BIND delivery). */
  public abstract Path workspace();

  /** Container image, for container backends. */
  public abstract Optional<String> image();

  /** GPUs to request (0 = none). */
  @Value.Default
  public int gpus() {
    return 0;
  }

  /** Wall-clock limit; the backend ends the job as TIMED_OUT after it. Default 180 min (reference salloc). */
  @Value.Default
  public Duration timeLimit() {
    return Duration.ofMinutes(180);
  }

  /** File (relative to the workspace) that receives the job's stdout and stderr. */
  @Value.Default
  public String logFile() {
    return name() + ".log";
  }

  /** Host path → container path mounts (container backends). */
  public abstract Map<String, String> mounts();

  @Value.Check
  protected void check() {
    if (command().isEmpty()) {
      throw new IllegalArgumentException("a job needs a command");
    }
    if (timeLimit().isNegative() || timeLimit().isZero()) {
      throw new IllegalArgumentException("time limit must be > 0");
    }
    if (gpus() < 0) {
      throw new IllegalArgumentException("gpus must be >= 0");
    }
  }

  public static ImmutableJobSpec.Builder builder() {
    return ImmutableJobSpec.builder();
  }
}
