package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Required;
import java.util.List;
import org.immutables.value.Value;

/** A {@code fixed-seq-len} block of a multi-node master: one ISL/OSL pair and its search space. */
@Value.Immutable
@InfxStyle
public abstract class MultiNodeSeqLen implements SeqLen {

  @Override
  public abstract int isl();

  @Override
  public abstract int osl();

  @Override
  @Value.Default
  public boolean requirePower() {
    return false;
  }

  @Required
  public abstract List<MultiNodeEntry> searchSpace();

  @Override
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  public static ImmutableMultiNodeSeqLen.Builder builder() {
    return ImmutableMultiNodeSeqLen.builder();
  }
}
