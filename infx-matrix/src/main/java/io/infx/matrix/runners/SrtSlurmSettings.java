package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import io.infx.core.tree.Node;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/** Cluster-owned facts for srt-slurm recipe runs ({@code slurm.srt-slurm}). */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class SrtSlurmSettings implements SelfChecking {

  public abstract String networkInterface();

  public abstract Optional<String> jobTag();

  public abstract Optional<@Pattern(regexp = "\\d+:\\d{2}:\\d{2}",
      message = "String should match pattern '^\\d+:\\d\\{2\\}:\\d\\{2\\}\\$'") String> defaultTimeLimit();

  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> singleNodeTimeLimit();

  @Value.Default
  public SingleNodeModels singleNodeModels() {
    return SingleNodeModels.HUB;
  }

  @Value.Default
  public boolean preflight() {
    return true;
  }

  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> distTimeoutS();

  public abstract Optional<Boolean> gpusPerNodeDirective();

  public abstract Optional<Boolean> segmentDirective();

  @Value.Default
  public boolean singleNodeExclusive() {
    return true;
  }

  public abstract List<String> containerAliases();

  public abstract List<String> nginxAliases();

  public abstract Optional<HostSetup> hostSetup();

  public abstract Optional<PowerTelemetry> powerTelemetry();

  public abstract Map<String, String> env();

  public abstract Optional<String> outputs();

  public abstract Optional<String> sharedRunRoot();

  public abstract Optional<String> uvCacheRoot();

  /** Volume name → mount point inside the job's containers. */
  public abstract Map<String, String> volumeMounts();

  /** Host path → container path. */
  public abstract Map<String, String> mounts();

  /** Opaque settings passed through to srt-slurm as written. */
  public abstract Map<String, Node> extra();

  @Override
  public void check(Checks checks) {
    outputs().ifPresent(p -> HostPaths.check(p, "outputs", checks));
    sharedRunRoot().ifPresent(p -> HostPaths.check(p, "shared-run-root", checks));
    uvCacheRoot().ifPresent(p -> HostPaths.check(p, "uv-cache-root", checks));
  }

  /** Where single-node jobs read model weights. */
  public enum SingleNodeModels {
    STAGED,
    HUB
  }
}
