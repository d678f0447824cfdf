package io.infx.matrix.changelog;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import io.infx.matrix.EvalMode;
import io.infx.matrix.Generator;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.ScenarioType;
import io.infx.matrix.TestConfigOptions;
import io.infx.matrix.runners.RunnerInventory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Binds the planner to the {@code io.infx.matrix} generator. */
final class StandardMatrixBackend implements MatrixBackend {

  static final StandardMatrixBackend INSTANCE = new StandardMatrixBackend();

  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

  private StandardMatrixBackend() {}

  private record Cat(Catalog catalog) implements Catalogue {
    @Override
    public List<String> keys() {
      return catalog.keys();
    }
  }

  private record Inv(RunnerInventory inventory) implements Runners {}

  @Override
  public Catalogue loadCatalogue(List<ConfigText> masters) {
    List<Source> sources = new ArrayList<>();
    masters.forEach(m -> sources.add(Source.text(m.name(), m.text())));
    return new Cat(Catalog.load(sources));
  }

  @Override
  public Runners loadRunners(ConfigText runners) {
    return new Inv(RunnerInventory.load(Source.text(runners.name(), runners.text())));
  }

  @Override
  public List<ObjectNode> expand(Catalogue catalogue, Runners runners, List<String> keys,
      Set<ScenarioType> scenarios, EvalMode mode) {
    TestConfigOptions options = TestConfigOptions.builder().configKeys(keys)
        .scenarioTypes(scenarios).evalMode(mode).build();
    return toNodes(Generator.testConfig(((Cat) catalogue).catalog(), ((Inv) runners).inventory(),
        options).rows());
  }

  @Override
  public List<ObjectNode> trimConc(List<ObjectNode> rows) {
    return toNodes(Generator.trimConc(toRows(rows)));
  }

  @Override
  public List<ObjectNode> dropAppCollidingEvals(List<ObjectNode> rows) {
    return toNodes(Generator.dropAppCollidingEvals(toRows(rows)));
  }

  private static List<ObjectNode> toNodes(List<MatrixRow> rows) {
    List<ObjectNode> out = new ArrayList<>(rows.size());
    rows.forEach(r -> out.add(Json.mapper().valueToTree(r.fields())));
    return out;
  }

  private static List<MatrixRow> toRows(List<ObjectNode> nodes) {
    List<MatrixRow> out = new ArrayList<>(nodes.size());
    for (ObjectNode n : nodes) {
      Map<String, Object> fields = Json.mapper().convertValue(n, MAP);
      out.add(MatrixRow.of(fields));
    }
    return out;
  }
}
