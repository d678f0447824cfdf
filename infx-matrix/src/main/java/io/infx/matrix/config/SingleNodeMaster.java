package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.io.FileNames;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Rule;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Pattern;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A master config with {@code multinode: false}: every deployment fits one node. It cannot be
 * disaggregated (V6) and has no KV transfer engine (V36); its entries are TP-shaped (V38).
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public non-sealed abstract class SingleNodeMaster implements MasterConfig, SelfChecking {

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

  public abstract SingleNodeScenarios scenarios();

  @Override
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  @Override
  public Optional<String> kvP2pTransfer() {
    return Optional.empty();
  }

  @Override
  public List<SingleNodeSeqLen> fixedSeqLen() {
    return scenarios().fixedSeqLen();
  }

  @Override
  public List<AgenticScenario> agenticCoding() {
    return scenarios().agenticCoding();
  }

  @Override
  public void check(Checks checks) {
    if (multinode()) {
      checks.fail("V5.multinode-flag", "multinode", "Input should be False");
    }
    if (disagg()) {
      checks.fail("V6.single-node-disagg", "disagg", "Input should be False");
    }
    MasterRules.check(this, checks);
  }

  public static ImmutableSingleNodeMaster.Builder builder() {
    return ImmutableSingleNodeMaster.builder();
  }
}
