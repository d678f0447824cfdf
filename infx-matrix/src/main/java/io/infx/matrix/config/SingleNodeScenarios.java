package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.AcceptsNull;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import java.util.List;
import org.immutables.value.Value;

/** The {@code scenarios} of a single-node master. Rule V7: at least one non-empty scenario list. */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class SingleNodeScenarios implements SelfChecking {

  @AcceptsNull
  public abstract List<SingleNodeSeqLen> fixedSeqLen();

  @AcceptsNull
  public abstract List<AgenticScenario> agenticCoding();

  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  @Override
  public void check(Checks checks) {
    if (fixedSeqLen().isEmpty() && agenticCoding().isEmpty()) {
      checks.fail("V7.scenario-required", "At least one scenario type must be specified");
    }
  }
}
