package io.infx.matrix;

import io.infx.core.Violation;
import io.infx.matrix.config.MasterConfig;
import java.util.List;

/**
 * A team's own master-config rule, run by {@link Catalog#load(List, List)} beside the built-in rules
 * (V1–V42) on every config that binds to a typed {@link MasterConfig}. For example, "tp × ep must not
 * exceed the GPUs per node of the config's runner":
 *
 * <pre>{@code
 * RunnerInventory runners = RunnerInventory.load(Path.of("runners.yaml"));
 * ConfigRule fitsNode = (key, config) -> { ... return violations; };
 * Catalog catalog = Catalog.load(List.of(Source.file(Path.of("acme.yaml"))), List.of(fitsNode));
 * }</pre>
 *
 * <p>A rule reports each problem as a {@link Violation} whose {@link Violation#pointer() pointer} is
 * relative to the config (e.g. {@code /scenarios/fixed-seq-len/0/search-space/1/tp}, built with
 * {@link #at}). The catalogue prefixes the config's key and, for configs read from a file, adds the
 * {@code file:line:column} of the value the pointer names (or of its nearest existing ancestor, for
 * a key the config does not write), exactly as for built-in violations. All violations of all rules
 * are reported together in one {@link io.infx.core.ValidationException} of kind
 * {@code config-validation}.
 */
@FunctionalInterface
public interface ConfigRule {

  /**
   * The violations of this rule in one config; empty when it holds. Must not throw for a config it
   * dislikes: a thrown exception escapes {@code Catalog.load} unchanged.
   *
   * @param key the config's catalogue key (e.g. {@code dsr1-fp8-h200-sglang})
   * @param config the bound config; its built-in rules may still have failed elsewhere in the file
   */
  List<Violation> check(String key, MasterConfig config);

  /**
   * A violation of {@code ruleId} (a team's own id, e.g. {@code acme.tp-ep-fits-node}) at
   * {@code pointer}, relative to the config.
   */
  static Violation at(String ruleId, String pointer, String message) {
    return Violation.builder().ruleId(ruleId).pointer(pointer).message(message).build();
  }
}
