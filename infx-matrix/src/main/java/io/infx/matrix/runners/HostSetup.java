package io.infx.matrix.runners;

import io.infx.core.InfxStyle;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Positive;
import java.util.Map;
import java.util.Optional;
import org.immutables.value.Value;

/** A repository hook run on allocated hosts before a job ({@code srt-slurm.host-setup}). */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class HostSetup implements SelfChecking {

  /** Repository-relative script path. */
  public abstract String script();

  public abstract Map<String, String> env();

  public abstract Optional<@Positive(message = "Input should be greater than 0") Integer> timeoutS();

  public abstract Optional<Nodes> nodes();

  @Override
  public void check(Checks checks) {
    String s = script();
    if (s.startsWith("/") || java.util.Arrays.asList(s.split("/")).contains("..")) {
      checks.fail("V46.host-setup", "script", "host-setup script must be repository-relative: " + s);
    }
  }

  /** Which hosts run the hook. */
  public enum Nodes {
    ALL
  }
}
