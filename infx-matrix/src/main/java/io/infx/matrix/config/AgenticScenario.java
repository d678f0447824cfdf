package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Required;
import io.infx.core.bind.Rule;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * An {@code agentic-coding} block: AgentX trace-replay deployments and the fraction of host DRAM
 * ({@code dram-utilization}, 0 &lt; x ≤ 1, kept exact) offered to KV offload. Rules V28, V29.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class AgenticScenario implements SelfChecking {

  @Required
  public abstract List<AgenticEntry> searchSpace();

  @Rule("V28.utilization-range")
  public abstract Optional<
      @DecimalMin(value = "0", inclusive = false, message = "Input should be greater than 0")
      @DecimalMax(value = "1", message = "Input should be less than or equal to 1") BigDecimal> dramUtilization();

  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  @Override
  public void check(Checks checks) {
    if (dramUtilization().isPresent()) {
      return;
    }
    for (AgenticEntry e : searchSpace()) {
      if (e.kvOffloading().orElse(KvOffloading.NONE) == KvOffloading.DRAM) {
        checks.fail("V29.dram-needs-utilization",
            "kv-offloading='dram' requires dram-utilization with runner hardware metadata");
        return;
      }
    }
  }

  public static ImmutableAgenticScenario.Builder builder() {
    return ImmutableAgenticScenario.builder();
  }
}
