package io.infx.core.tree;

/**
 * The type a scalar resolved to. YAML plain scalars are resolved with YAML 1.1 rules (as PyYAML's
 * safe loader does: {@code yes/no/on/off} are booleans, {@code 2_063_837} is an integer, {@code 010}
 * is octal, {@code 1e3} without a dot is a string); quoted scalars are always strings.
 */
public enum ScalarKind {
  STRING("string"),
  INTEGER("integer"),
  FLOAT("number"),
  BOOLEAN("boolean"),
  NULL("null"),
  /** A YAML 1.1 timestamp ({@code 2024-01-01}); never accepted where a string is expected. */
  TIMESTAMP("timestamp");

  private final String typeName;

  ScalarKind(String typeName) {
    this.typeName = typeName;
  }

  public String typeName() {
    return typeName;
  }
}
