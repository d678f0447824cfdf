package io.infx.fleet.recipe;

import java.util.List;
import java.util.Objects;

/**
 * What recipe selection looks at in a matrix row.
 *
 * @param name how errors name the row, e.g. its {@code RESULT_FILENAME} or {@code exp-name}
 * @param configKeys the master-config keys the row was expanded from (usually one; empty when the
 *     row came without its config, e.g. a row file)
 * @param modelPrefix {@code model-prefix}
 * @param precision {@code precision}
 * @param framework {@code framework}
 * @param runnerLabel the row's {@code runner} (a label such as {@code h200} or {@code cluster:x})
 * @param runner the concrete runner the point lands on, e.g. {@code h200-cw_0}
 */
public record RecipeRow(String name, List<String> configKeys, String modelPrefix, String precision,
    String framework, String runnerLabel, String runner) {

  public RecipeRow {
    Objects.requireNonNull(name, "name");
    configKeys = List.copyOf(configKeys);
    Objects.requireNonNull(modelPrefix, "modelPrefix");
    Objects.requireNonNull(precision, "precision");
    Objects.requireNonNull(framework, "framework");
    Objects.requireNonNull(runnerLabel, "runnerLabel");
    Objects.requireNonNull(runner, "runner");
  }

  /** E.g. {@code dsr1_fp8_… (config dsr1-fp8-h200-sglang; dsr1/fp8/sglang on h200 → h200-cw_0)}. */
  public String describe() {
    return name + " (" + (configKeys.isEmpty() ? "" : "config " + String.join("|", configKeys) + "; ")
        + "model-prefix " + modelPrefix + ", precision " + precision + ", framework " + framework
        + ", runner " + runnerLabel + (runner.equals(runnerLabel) ? "" : " → " + runner) + ")";
  }
}
