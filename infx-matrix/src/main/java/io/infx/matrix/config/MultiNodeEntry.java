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
 * One multi-node search-space entry of a {@code fixed-seq-len} block: either {@code prefill} +
 * {@code decode} worker pools (disaggregated) or one aggregate {@code worker} with
 * {@code num-nodes}. Rules V9–V12, V17, V18; the scope rules V37–V40 are checked by the master.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class MultiNodeEntry implements SelfChecking, Concurrency, SearchEntry, MultiNodeWorkers {

  @Override
  @Rule("V42.recipe-selector")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> srtRecipe();

  @Override
  @Rule("V42.recipe-selector")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> evalSrtRecipe();

  @Override
  @Value.Default
  public SpecDecoding specDecoding() {
    return SpecDecoding.NONE;
  }

  @Override
  public abstract Optional<AggregateWorker> worker();

  @Override
  public abstract Optional<Worker> prefill();

  @Override
  public abstract Optional<Worker> decode();

  @Override
  @Rule("V13.positive-size")
  public abstract Optional<@Positive(message = Messages.POSITIVE) Integer> numNodes();

  @Override
  public abstract Optional<Component> router();

  @Override
  @Rule("V34.transfer-name")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> kvP2pTransfer();

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
  public void check(Checks checks) {
    checkConcurrency(checks);
    boolean worker = worker().isPresent();
    boolean anyPair = prefill().isPresent() || decode().isPresent();
    boolean pair = prefill().isPresent() && decode().isPresent();
    if (worker == anyPair || (anyPair && !pair)) {
      checks.fail("V17.multinode-topology",
          "Multinode search-space entries must specify either worker or both prefill and decode");
    }
    if (pair) {
      MultiNodeWorkers.checkHardwarePair(this, checks);
    }
  }

  public static ImmutableMultiNodeEntry.Builder builder() {
    return ImmutableMultiNodeEntry.builder();
  }
}
