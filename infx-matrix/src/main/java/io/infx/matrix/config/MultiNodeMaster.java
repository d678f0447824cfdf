package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.io.FileNames;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Rule;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Size;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A master config with {@code multinode: true}: deployments span nodes, either disaggregated
 * ({@code disagg: true}: prefill + decode pools and a KV transfer engine, V37, V39) or aggregated
 * ({@code disagg: false}: one worker pool and an explicit {@code num-nodes}, V40).
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public non-sealed abstract class MultiNodeMaster implements MasterConfig, SelfChecking {

  @Override
  public abstract String image();

  @Override
  public abstract String model();

  @Override
  @Rule("infx.file-name-part")
  @Pattern(regexp = FileNames.PART_REGEX, message = FileNames.PART_MESSAGE)
  public abstract String modelPrefix();

  @Override
  @Rule("infx.file-name-part")
  @Pattern(regexp = FileNames.PART_REGEX, message = FileNames.PART_MESSAGE)
  public abstract String precision();

  @Override
  @Rule("infx.file-name-part")
  @Pattern(regexp = FileNames.PART_REGEX, message = FileNames.PART_MESSAGE)
  public abstract String framework();

  @Override
  @Rule("infx.file-name-part")
  @Pattern(regexp = FileNames.PART_REGEX, message = FileNames.PART_MESSAGE)
  public abstract String runner();

  @Override
  public abstract boolean multinode();

  @Override
  @Value.Default
  public boolean disagg() {
    return false;
  }

  @Override
  public abstract Optional<Component> router();

  @Override
  @Rule("V34.transfer-name")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> kvP2pTransfer();

  public abstract MultiNodeScenarios scenarios();

  @Override
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  @Override
  public List<MultiNodeSeqLen> fixedSeqLen() {
    return scenarios().fixedSeqLen();
  }

  @Override
  public List<AgenticScenario> agenticCoding() {
    return scenarios().agenticCoding();
  }

  @Override
  public void check(Checks checks) {
    if (!multinode()) {
      checks.fail("V5.multinode-flag", "multinode", "Input should be True");
    }
    MasterRules.check(this, checks);
  }

  public static ImmutableMultiNodeMaster.Builder builder() {
    return ImmutableMultiNodeMaster.builder();
  }
}
