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
 * The single {@code worker} pool of an aggregated multi-node deployment ({@code disagg: false}),
 * serving both prefill and decode. Same fields as {@link Worker}, except {@code num-worker} is
 * optional (strict positive, default 1). In matrix rows it becomes the legacy pair
 * {@code prefill = worker}, {@code decode = worker with num-worker 0}.
 */
@Value.Immutable
@InfxStyle
@SelfChecked
public abstract class AggregateWorker implements SelfChecking, WorkerShape {

  @Override
  @Rule("V13.positive-size")
  @Positive(message = Messages.POSITIVE)
  @Value.Default
  public int numWorker() {
    return 1;
  }

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

  @Override
  @Rule("V18.hardware-name")
  public abstract Optional<@Size(min = 1, message = Messages.NON_EMPTY) String> hardware();

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

  public static ImmutableAggregateWorker.Builder builder() {
    return ImmutableAggregateWorker.builder();
  }
}
