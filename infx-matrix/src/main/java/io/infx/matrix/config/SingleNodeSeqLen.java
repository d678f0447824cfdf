package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Required;
import java.util.List;
import org.immutables.value.Value;

/**
 * A {@code fixed-seq-len} block of a single-node master: one ISL/OSL pair (tokens) and its
 * search space. {@code require-power: true} marks every row for power measurement (8192/1024 only).
 */
@Value.Immutable
@InfxStyle
public abstract class SingleNodeSeqLen implements SeqLen {

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
  public abstract List<SingleNodeEntry> searchSpace();

  @Override
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  public static ImmutableSingleNodeSeqLen.Builder builder() {
    return ImmutableSingleNodeSeqLen.builder();
  }
}
