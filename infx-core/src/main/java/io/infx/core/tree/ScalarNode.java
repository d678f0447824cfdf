package io.infx.core.tree;

import io.infx.core.Location;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A scalar value: its resolved {@link ScalarKind}, the source text, and the resolved value
 * ({@link String}, {@link BigInteger}, {@link BigDecimal} for finite numbers, {@link Double} for
 * {@code .inf}/{@code .nan}, {@link Boolean}, or none for null).
 */
public final class ScalarNode implements Node {

  private final String pointer;
  private final Location location;
  private final ScalarKind kind;
  private final String text;
  private final Object value;

  public ScalarNode(String pointer, Location location, ScalarKind kind, String text, @Nullable Object value) {
    this.pointer = Objects.requireNonNull(pointer, "pointer");
    this.location = Objects.requireNonNull(location, "location");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.text = Objects.requireNonNull(text, "text");
    this.value = value;
    if ((value == null) != (kind == ScalarKind.NULL)) {
      throw new IllegalArgumentException("a " + kind + " scalar needs a matching value: " + value);
    }
  }

  public ScalarKind kind() {
    return kind;
  }

  /** The scalar as written (without quotes). */
  public String text() {
    return text;
  }

  /** The resolved value; {@code null} only for {@link ScalarKind#NULL}. */
  public Object value() {
    return value;
  }

  @Override
  public String pointer() {
    return pointer;
  }

  @Override
  public Location location() {
    return location;
  }

  @Override
  public String typeName() {
    return kind.typeName();
  }

  @Override
  public Object toPlain() {
    return kind == ScalarKind.TIMESTAMP ? text : value;
  }

  /** The value rendered for messages: strings quoted, everything else as resolved. */
  public String display() {
    return switch (kind) {
      case STRING, TIMESTAMP -> "'" + text + "'";
      case NULL -> "null";
      case BOOLEAN -> value.toString();
      case INTEGER -> value.toString();
      case FLOAT -> text;
    };
  }

  @Override
  public String toString() {
    return location + " " + display();
  }
}
