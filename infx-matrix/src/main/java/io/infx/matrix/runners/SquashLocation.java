package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import io.infx.core.bind.Wire;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * Where some images' squash files live and how they get there; unset fields are the cache's. With
 * {@code model-prefixes} it describes one framework's images ({@code framework-dirs.<framework>}).
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class SquashLocation implements SelfChecking {

  public abstract Optional<String> dir();

  public abstract Optional<KeyStyle> keyStyle();

  @Wire("import")
  public abstract Optional<ImportMode> importMode();

  /** Per-model-prefix locations (only meaningful under {@code framework-dirs}). */
  public abstract Map<String, SquashLocation> modelPrefixes();

  @Override
  public void check(Checks checks) {
    dir().ifPresent(d -> HostPaths.check(d, "dir", checks));
  }

  /** How squash files are keyed by image name. */
  public enum KeyStyle {
    UNDERSCORE,
    PLUS,
    PLUS_STRIP_NVCR
  }

  /** How images reach the squash storage. */
  public enum ImportMode {
    SUBMIT_HOST,
    COMPUTE,
    ALL_NODES,
    PRE_STAGED,
    UNCHECKED
  }
}
