package io.infx.testing;

import io.infx.core.tree.Source;
import io.infx.matrix.Catalog;
import java.util.List;
import java.util.Objects;

/**
 * One variant of a team's own master file, made by {@link ConfigMutators}: what was changed and the
 * resulting file text. A variant is not guaranteed to be valid (a doubled tp may break a team rule,
 * a dropped key may be one a rule needs): that is what a property over variants tests.
 *
 * @param description what changed, e.g. {@code dsr1-fp8-h200-sglang /scenarios/fixed-seq-len/0/search-space/1: drop ep}
 * @param yaml the whole master file after the change (block style)
 */
public record ConfigVariant(String description, String yaml) {

  public ConfigVariant {
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(yaml, "yaml");
  }

  /** The variant as a master file named {@code label}. */
  public Source source(String label) {
    return Source.text(label, yaml);
  }

  /** Loads and validates the variant as {@code variant.yaml}. */
  public Catalog catalog() {
    return Catalog.load(List.of(source("variant.yaml")));
  }

  @Override
  public String toString() {
    return "ConfigVariant[" + description + "]";
  }
}
