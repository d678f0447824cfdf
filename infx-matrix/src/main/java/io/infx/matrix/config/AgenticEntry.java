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
 * One search-space entry of an {@code agentic-coding} block (AgentX trace replay). It is either
 * single-node shaped ({@code tp}) or multi-node shaped ({@code prefill} + {@code decode}, or one
 * aggregate {@code worker}); {@code conc} counts concurrent AgentX users (sessions).
 *
 * <p>Rules V9–V12, V14, V18, V21–V27 (V36 and V38–V40 are checked by the master).
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class AgenticEntry implements SelfChecking, Concurrency, SearchEntry, MultiNodeWorkers {

  /** Tensor parallel size of a single-node shaped entry. */
  public abstract Optional<Integer> tp();

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

  public abstract Optional<Integer> ep();

  public abstract Optional<Boolean> dpAttn();

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

  /** Required on single-node shaped entries (V22); multi-node shaped ones default to none. */
  public abstract Optional<KvOffloading> kvOffloading();

  public abstract Optional<OffloadBackend> kvOffloadBackend();

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

  /** Whether the entry is multi-node shaped ({@code worker}, or {@code prefill}/{@code decode}). */
  public boolean isMultiNodeShaped() {
    return tp().isEmpty();
  }

  /** The effective offload mode: the explicit value, else none. */
  public KvOffloading offload() {
    return kvOffloading().orElse(KvOffloading.NONE);
  }

  @Override
  public void check(Checks checks) {
    checkConcurrency(checks);
    // V25-V27: backend and offload mode agree
    if (kvOffloading().isEmpty()) {
      if (kvOffloadBackend().isPresent()) {
        checks.fail("V25.backend-needs-mode", "kv-offload-backend", "kv-offload-backend requires kv-offloading");
      }
    } else if (kvOffloading().get() == KvOffloading.NONE) {
      if (kvOffloadBackend().isPresent()) {
        checks.fail("V26.backend-without-offload", "kv-offload-backend",
            "kv-offload-backend can only be set when kv-offloading is not 'none'");
      }
    } else if (kvOffloadBackend().isEmpty()) {
      checks.fail("V27.backend-required", "kv-offloading",
          "kv-offload-backend is required when kv-offloading is '" + kvOffloading().get().wire() + "'");
    }
    boolean single = tp().isPresent();
    boolean aggregate = worker().isPresent();
    boolean anyPair = prefill().isPresent() || decode().isPresent();
    boolean pair = prefill().isPresent() && decode().isPresent();
    int shapes = (single ? 1 : 0) + (aggregate ? 1 : 0) + (pair ? 1 : 0);
    if (shapes != 1 || (anyPair && !pair)) {
      checks.fail("V21.agentic-shape",
          "Agentic search-space entries must specify exactly one of tp, worker, or both prefill and decode");
    }
    if (single) {
      if (kvOffloading().isEmpty()) {
        checks.fail("V22.agentic-offload-mode",
            "Single-node agentic search-space entries must specify kv-offloading");
      }
      if (dcpSize() > 0 && tp().get() % dcpSize() != 0) {
        checks.fail("V14.dcp-divides-tp", "'tp' (" + tp().get() + ") must be divisible by 'dcp-size' ("
            + dcpSize() + ")");
      }
    }
    if (aggregate || pair) {
      if (keys().contains("pp") || keys().contains("dcp-size") || keys().contains("pcp-size")
          || pp() != 1 || dcpSize() != 1 || pcpSize() != 1) {
        checks.fail("V23.agentic-multinode-sizes",
            "Multinode agentic search-space entries cannot specify 'pp', 'dcp-size', 'pcp-size'");
      }
      if (pair) {
        MultiNodeWorkers.checkHardwarePair(this, checks);
      }
    }
  }

  public static ImmutableAgenticEntry.Builder builder() {
    return ImmutableAgenticEntry.builder();
  }
}
