package io.infx.core.tree;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** RFC 6901 JSON pointers: building, escaping and splitting. */
public final class Pointers {

  private Pointers() {}

  /** {@code parent} extended by one reference token ({@code ~} and {@code /} escaped). */
  public static String child(String parent, String token) {
    java.util.Objects.requireNonNull(parent, "parent");
    java.util.Objects.requireNonNull(token, "token");
    if (token.indexOf('~') < 0 && token.indexOf('/') < 0) {
      return parent + "/" + token;
    }
    return parent + "/" + token.replace("~", "~0").replace("/", "~1");
  }

  /** {@code parent} extended by a list index. */
  public static String child(String parent, int index) {
    java.util.Objects.requireNonNull(parent, "parent");
    return parent + "/" + index;
  }

  /** The unescaped reference tokens of {@code pointer} ({@code ""} gives none). */
  public static List<String> tokens(String pointer) {
    List<String> out = new ArrayList<>();
    if (pointer.isEmpty()) {
      return out;
    }
    if (pointer.charAt(0) != '/') {
      throw new IllegalArgumentException("a JSON pointer starts with '/': " + pointer);
    }
    for (String raw : pointer.substring(1).split("/", -1)) {
      out.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return out;
  }

  /** The node {@code pointer} names inside {@code root}, or the deepest existing ancestor. */
  public static Node resolveNearest(@Nullable Node root, String pointer) {
    Node cur = root;
    for (String token : tokens(pointer)) {
      Node next = null;
      if (cur instanceof MapNode m) {
        next = m.get(token).orElse(null);
      } else if (cur instanceof ListNode l) {
        try {
          int i = Integer.parseInt(token);
          next = i >= 0 && i < l.size() ? l.get(i) : null;
        } catch (NumberFormatException e) {
          next = null;
        }
      }
      if (next == null) {
        return cur;
      }
      cur = next;
    }
    return cur;
  }
}
