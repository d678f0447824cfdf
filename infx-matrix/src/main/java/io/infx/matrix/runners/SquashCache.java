package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import io.infx.core.bind.Wire;
import jakarta.validation.constraints.Positive;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.immutables.value.Value;

/** {@code slurm.squash}: where the cluster keeps squashed container images and how they get there. */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class SquashCache implements SelfChecking {

  public abstract String dir();

  @Value.Default
  public Visibility visibility() {
    return Visibility.SHARED;
  }

  @Wire("import")
  public abstract SquashLocation.ImportMode importMode();

  @Positive(message = "Input should be greater than 0")
  @Value.Default
  public int lockTimeoutS() {
    return 1800;
  }

  @Value.Default
  public SquashLocation.KeyStyle keyStyle() {
    return SquashLocation.KeyStyle.UNDERSCORE;
  }

  @Value.Default
  public LockFile lockFile() {
    return LockFile.BESIDE_SQUASH;
  }

  public abstract List<String> importStepArgs();

  @Value.Default
  public boolean singleNodeImport() {
    return false;
  }

  @Value.Default
  public boolean multiNodeImport() {
    return true;
  }

  public abstract Map<String, SquashLocation> frameworkDirs();

  /** Locations of helper images; keys are {@code nginx} or {@code dcgm-exporter}. */
  public abstract Map<String, SquashLocation> helperDirs();

  @Override
  public void check(Checks checks) {
    HostPaths.check(dir(), "dir", checks);
    HostPaths.checkLongOptions(importStepArgs(), "import-step-args", checks);
    for (String helper : helperDirs().keySet()) {
      if (!Set.of("nginx", "dcgm-exporter").contains(helper)) {
        checks.fail("V46.helper-image", "helper-dirs/" + helper, "Input should be 'nginx' or 'dcgm-exporter'");
      }
    }
    if (visibility() == Visibility.NODE_LOCAL) {
      boolean submitHost = importMode() == SquashLocation.ImportMode.SUBMIT_HOST;
      for (SquashLocation l : frameworkDirs().values()) {
        submitHost |= l.importMode().orElse(null) == SquashLocation.ImportMode.SUBMIT_HOST;
        for (SquashLocation p : l.modelPrefixes().values()) {
          submitHost |= p.importMode().orElse(null) == SquashLocation.ImportMode.SUBMIT_HOST;
        }
      }
      for (SquashLocation l : helperDirs().values()) {
        submitHost |= l.importMode().orElse(null) == SquashLocation.ImportMode.SUBMIT_HOST;
      }
      if (submitHost) {
        checks.fail("V46.squash-import", "submit-host import cannot populate node-local image storage");
      }
    }
  }

  /** Where the import lock lives. */
  public enum LockFile {
    BESIDE_SQUASH,
    LOCKS_DIR
  }
}
