package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import jakarta.validation.constraints.Size;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/** Pre-staged checkpoints of a cluster, keyed by checkpoint directory name. */
@Value.Immutable
@InfxStyle
public abstract class ClusterModels {

  public abstract Map<String, ModelEntry> entries();

  public abstract Optional<@Size(min = 1, message = "String should have at least 1 character") String> downloadRoot();
}
