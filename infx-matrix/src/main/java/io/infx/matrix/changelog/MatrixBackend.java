package io.infx.matrix.changelog;

import io.infx.matrix.EvalMode;
import io.infx.matrix.ScenarioType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;

/**
 * What the planner needs from matrix expansion (the {@code io.infx.matrix} generator): load a
 * catalogue, expand selected keys with {@code test-config} semantics, and the generator's
 * post-processing steps the planner reuses. Rows are exchanged in <em>generator form</em>: JSON
 * objects whose keys are in the order {@code generate} prints them.
 *
 * <p>Implementations must return fresh rows on every call (the planner mutates them).
 */
public interface MatrixBackend {

  /** A loaded and validated set of master configs. */
  interface Catalogue {
    /** Config keys in catalogue order (file order, then key order within each file). */
    List<String> keys();
  }

  /** A loaded and validated runner file. */
  interface Runners {}

  /**
   * Loads and validates master configs, merged in the given order.
   *
   * @throws io.infx.core.InfxException on any load or validation error
   */
  Catalogue loadCatalogue(List<ConfigText> masters);

  /**
   * Loads and validates a runner file.
   *
   * @throws io.infx.core.InfxException on any load or validation error
   */
  Runners loadRunners(ConfigText runners);

  /**
   * Expands {@code keys} (exact keys, in this order) like
   * {@code generate test-config --config-keys <keys> [--scenario-type <scenarios>] <mode flags>}.
   *
   * @param scenarios the scenarios to expand; both when it holds both
   */
  List<ObjectNode> expand(Catalogue catalogue, Runners runners, List<String> keys,
      Set<ScenarioType> scenarios, EvalMode mode);

  /** The generator's {@code --trim-conc} applied to already generated rows. */
  List<ObjectNode> trimConc(List<ObjectNode> rows);

  /** The generator's app-identity de-duplication of eval rows ({@code drop_app_colliding_evals}). */
  List<ObjectNode> dropAppCollidingEvals(List<ObjectNode> rows);

  /** The backend used when none is given: the {@code io.infx.matrix} generator. */
  static MatrixBackend standard() {
    return StandardMatrixBackend.INSTANCE;
  }
}
