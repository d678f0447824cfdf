package io.infx.matrix.config;

import io.infx.core.bind.SelfChecking;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** What {@link Worker} and {@link AggregateWorker} share: a role's replica count and topology. */
public interface WorkerShape {

  int numWorker();

  int tp();

  int pp();

  int dcpSize();

  int pcpSize();

  int ep();

  boolean dpAttn();

  Optional<String> hardware();

  Optional<List<String>> additionalSettings();

  /** Keys as written, in document order; empty when built in code. */
  List<String> keys();

  /** GPUs one replica of this role occupies: {@code tp × pp × pcp-size}. */
  default int gpusPerReplica() {
    return tp() * pp() * pcpSize();
  }

  /** Setting names that select recipes and so belong in {@code srt-recipe} fields (V19). */
  Set<String> RECIPE_SETTINGS = Set.of("CONFIG_FILE", "EVAL_CONFIG_FILE", "SRT_RECIPE", "EVAL_SRT_RECIPE");

  /** Rules V14 and V19 of a worker block. */
  static void checkShape(WorkerShape w, SelfChecking.Checks checks) {
    if (w.dcpSize() > 0 && w.tp() % w.dcpSize() != 0) {
      checks.fail("V14.dcp-divides-tp", "'tp' (" + w.tp() + ") must be divisible by 'dcp-size' ("
          + w.dcpSize() + ")");
    }
    List<String> settings = w.additionalSettings().orElse(List.of());
    for (int i = 0; i < settings.size(); i++) {
      String s = settings.get(i);
      int eq = s.indexOf('=');
      String name = eq < 0 ? s : s.substring(0, eq);
      if (RECIPE_SETTINGS.contains(name)) {
        checks.fail("V19.recipe-setting", "additional-settings/" + i,
            "Recipe selection belongs in srt-recipe/eval-srt-recipe, not worker additional-settings");
      }
    }
  }
}
