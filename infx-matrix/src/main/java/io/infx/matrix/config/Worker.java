package io.infx.matrix.config;

import io.infx.core.InfxStyle;
import io.infx.core.bind.KeyOrder;
import io.infx.core.bind.Rule;
import io.infx.core.bind.SelfChecked;
import io.infx.core.bind.SelfChecking;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Optional;
import org.immutables.value.Value;

/**
 * A worker pool of a multi-node deployment: the {@code prefill} or {@code decode} role, i.e.
 * {@code num-worker} replicas of a TP/EP/PP/DCP/PCP topology. A pool allocates
 * {@code num-worker × tp × pp × pcp-size} GPUs.
 *
 * <p>Rules: V14 ({@code tp} divisible by {@code dcp-size}), V13 (strict positive sizes), V16
 * (required fields), V18 ({@code hardware} non-empty), V19 (recipes are selected with
 * {@code srt-recipe}, not {@code CONFIG_FILE=} settings).
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class Worker implements SelfChecking, WorkerShape {

  /** Replicas of this role (0 allowed: the historical way to write an aggregated deployment). */
  @Override
  public abstract int numWorker();

  @Override
  public abstract int tp();

  @Override
  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int pp() {
    return 1;
  }

  @Override
  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int dcpSize() {
    return 1;
  }

  @Override
  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int pcpSize() {
    return 1;
  }

  @Override
  public abstract int ep();

  @Override
  public abstract boolean dpAttn();

  /** GPU SKU label for heterogeneous disaggregation; set on both roles or neither. */
  @Override
  @Rule("V18.hardware-name")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> hardware();

  /** Free {@code NAME=value} settings forwarded to launchers (an explicit null is kept as null). */
  @Override
  public abstract Optional<List<String>> additionalSettings();

  @Override
  @KeyOrder
  @Value.Auxiliary
  public abstract List<String> keys();

  @Override
  public void check(Checks checks) {
    WorkerShape.checkShape(this, checks);
  }

  public static ImmutableWorker.Builder builder() {
    return ImmutableWorker.builder();
  }
}
