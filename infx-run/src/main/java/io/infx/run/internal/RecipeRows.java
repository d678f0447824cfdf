package io.infx.run.internal;

import io.infx.fleet.recipe.RecipeRow;
import io.infx.matrix.Catalog;
import io.infx.matrix.MatrixRow;
import io.infx.matrix.config.MasterConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds what recipe selection looks at from a matrix row and the configs it came from. */
public final class RecipeRows {

  private RecipeRows() {}

  /**
   * The master-config keys a row can have been expanded from: those whose image, model,
   * model-prefix, precision, framework and runner equal the row's (rows do not carry their key).
   */
  public static List<String> configKeys(Catalog catalog, MatrixRow row) {
    List<String> keys = new ArrayList<>();
    for (Map.Entry<String, MasterConfig> e : catalog.configs().entrySet()) {
      MasterConfig c = e.getValue();
      if (c.image().equals(row.image()) && c.model().equals(row.model())
          && c.modelPrefix().equals(row.modelPrefix()) && c.precision().equals(row.precision())
          && c.framework().equals(row.framework()) && c.runner().equals(row.runner())) {
        keys.add(e.getKey());
      }
    }
    return keys;
  }

  /** The selection view of a row landing on {@code runner}, named by {@code name}. */
  public static RecipeRow of(Catalog catalog, MatrixRow row, String runner, String name) {
    return new RecipeRow(name, configKeys(catalog, row), row.modelPrefix(), row.precision(), row.framework(),
        row.runner(), runner);
  }
}
