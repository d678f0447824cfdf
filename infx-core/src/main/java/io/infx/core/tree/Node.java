package io.infx.core.tree;

import io.infx.core.Location;

/**
 * One value of a parsed YAML or JSON document, with where it came from: its RFC 6901 JSON pointer
 * inside the document and its {@code file:line:column} location. Trees are immutable and cheap to
 * walk; {@link io.infx.core.bind.Binder} turns them into typed values and reports every problem at
 * once with these positions.
 */
public sealed interface Node permits MapNode, ListNode, ScalarNode {

  /** RFC 6901 pointer from the document root ({@code ""} for the root itself). */
  String pointer();

  /** Where the value starts in its source. */
  Location location();

  /** A short word for the node's type as users see it: mapping, list, string, integer, ... */
  String typeName();

  /** Whether this is an explicit YAML/JSON null (or an empty YAML value). */
  default boolean isNull() {
    return this instanceof ScalarNode s && s.kind() == ScalarKind.NULL;
  }

  /** The node as plain Java values: LinkedHashMap, ArrayList, String, Long/BigInteger, BigDecimal, Boolean, null. */
  Object toPlain();
}
