package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeepOrigin;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Origin;
import io.infx.core.bind.Rule;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * One single-node search-space entry of a {@code fixed-seq-len} block: a TP/PP/DCP/PCP/EP topology
 * on one node plus its concurrency points. GPU footprint {@code tp × pp × pcp-size} (DCP reuses TP
 * GPUs). Rules V9–V14.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class SingleNodeEntry implements SelfChecking, Concurrency, SearchEntry {

  public abstract int tp();

  @Override
  @Rule("V42.recipe-selector")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> srtRecipe();

  @Override
  @Rule("V42.recipe-selector")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> evalSrtRecipe();

  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int pp() {
    return 1;
  }

  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int dcpSize() {
    return 1;
  }

  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int pcpSize() {
    return 1;
  }

  /** Expert parallelism; rows write 1 when absent. */
  public abstract Optional<Integer> ep();

  @Override
  @Value.Default
  public SpecDecoding specDecoding() {
    return SpecDecoding.NONE;
  }

  /** Data-parallel attention; rows write false when absent. */
  public abstract Optional<Boolean> dpAttn();

  @Override
  public abstract Optional<Component> router();

  @Override
  public abstract Optional<Integer> concStart();

  @Override
  public abstract Optional<Integer> concEnd();

  @Override
  public abstract Optional<List<Integer>> concList();

  @Override
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  @Override
  @KeepOrigin
  @Value.Auxiliary
  public abstract Optional<Origin> origin();

  @Override
  public Optional<String> kvP2pTransfer() {
    return Optional.empty();
  }

  @Override
  public void check(Checks checks) {
    checkConcurrency(checks);
    if (dcpSize() > 0 && tp() % dcpSize() != 0) {
      checks.fail("V14.dcp-divides-tp", "'tp' (" + tp() + ") must be divisible by 'dcp-size' ("
          + dcpSize() + ")");
    }
  }

  public static ImmutableSingleNodeEntry.Builder builder() {
    return ImmutableSingleNodeEntry.builder();
  }
}
