package io.infx.matrix.config;

import io.infx.core.bind.SelfChecking;
import java.util.Optional;

/** The worker pools of a multi-node shaped entry (fixed or agentic). */
public interface MultiNodeWorkers {

  Optional<AggregateWorker> worker();

  Optional<Worker> prefill();

  Optional<Worker> decode();

  Optional<Integer> numNodes();

  /** Rule V18: {@code hardware} on both roles or on neither. */
  static void checkHardwarePair(MultiNodeWorkers t, SelfChecking.Checks checks) {
    boolean p = t.prefill().flatMap(Worker::hardware).filter(h -> !h.isEmpty()).isPresent();
    boolean d = t.decode().flatMap(Worker::hardware).filter(h -> !h.isEmpty()).isPresent();
    if (p != d) {
      checks.fail("V18.hardware-pair",
          "'hardware' must be specified for both 'prefill' and 'decode', or neither");
    }
  }
}
