package io.infx.results;

import io.infx.core.InfxStyle;
import io.infx.results.power.PowerSettings;
import java.nio.file.Path;
import org.immutables.value.Value;

/**
 * A file-level normalization: read {@code <resultFilename>.json} from {@link #workDir()}, write
 * {@code agg_<resultFilename>.json} (and the power sidecar) next to it. The typed counterpart of
 * the reference's environment-driven script.
 */
@Value.Immutable
@InfxStyle
public abstract class ProcessRequest {

  /** Directory holding the raw result; outputs are written here. */
  public abstract Path workDir();

  /** The {@code RESULT_FILENAME} stem (no directories, no {@code .json}). */
  public abstract String resultFilename();

  public abstract RunIdentity identity();

  @Value.Default
  public NormalizerOptions options() {
    return NormalizerOptions.reference();
  }

  @Value.Default
  public PowerSettings power() {
    return PowerSettings.defaults();
  }

  @Value.Check
  protected void check() {
    ResultNames.checked(resultFilename());
  }

  public static ImmutableProcessRequest.Builder builder() {
    return ImmutableProcessRequest.builder();
  }
}
