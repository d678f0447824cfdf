package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Size;
import org.immutables.value.Value;

/** A pre-staged checkpoint: directory {@code dir} of volume {@code root}. */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class ModelEntry implements SelfChecking {

  @Size(min = 1, message = "String should have at least 1 character")
  public abstract String root();

  @Size(min = 1, message = "String should have at least 1 character")
  public abstract String dir();

  @Override
  public void check(Checks checks) {
    String d = dir();
    if (d.startsWith("/") || java.util.Arrays.asList(d.split("/")).contains("..")) {
      checks.fail("V46.model-dir", "dir", "model dir must be relative to its root: '" + d + "'");
    }
  }
}
