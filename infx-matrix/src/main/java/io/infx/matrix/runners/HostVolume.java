package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import org.immutables.value.Value;

/** A named directory on a Slurm cluster's storage ({@code slurm.volumes.<name>}). */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class HostVolume implements SelfChecking {

  /** Absolute host path ({@code ~} means the runner's home). */
  public abstract String path();

  @Value.Default
  public Visibility visibility() {
    return Visibility.SHARED;
  }

  @Override
  public void check(Checks checks) {
    HostPaths.check(path(), "path", checks);
  }
}
