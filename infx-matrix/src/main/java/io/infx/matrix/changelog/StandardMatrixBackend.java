package io.infx.matrix.changelog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import java.util.List;
import java.util.Set;

/**
 * Binds the planner to the {@code io.infx.matrix} generator. Until that library API is on the
 * classpath, every call reports that matrix expansion is unavailable.
 */
final class StandardMatrixBackend implements MatrixBackend {

  static final StandardMatrixBackend INSTANCE = new StandardMatrixBackend();

  private StandardMatrixBackend() {}

  /** Whether real expansion is available (false until the generator's API is wired in). */
  static boolean available() {
    return false;
  }

  private static InfxException unavailable() {
    return new InfxException("generation",
        "matrix expansion (io.infx.matrix) is not available in this build");
  }

  @Override
  public Catalogue loadCatalogue(List<ConfigText> masters) {
    throw unavailable();
  }

  @Override
  public Runners loadRunners(ConfigText runners) {
    throw unavailable();
  }

  @Override
  public List<ObjectNode> expand(Catalogue catalogue, Runners runners, List<String> keys,
      Set<ScenarioType> scenarios, EvalMode mode) {
    throw unavailable();
  }

  @Override
  public List<ObjectNode> trimConc(List<ObjectNode> rows) {
    throw unavailable();
  }

  @Override
  public List<ObjectNode> dropAppCollidingEvals(List<ObjectNode> rows) {
    throw unavailable();
  }
}
