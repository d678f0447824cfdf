package io.infx.matrix.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A matrix row under construction: an insertion-ordered map with the semantics of the reference's
 * Python dicts (re-assigning a key keeps its position, a removed and re-added key moves to the end),
 * so the emitted key order is exactly the reference's. Values are String, Integer, Boolean,
 * unmodifiable List&lt;Integer&gt;/List&lt;String&gt;, nested {@link Row}s, or null.
 */
public final class Row extends LinkedHashMap<String, Object> {

  private static final long serialVersionUID = 1L;

  public Row() {
    super(48);
  }

  public Row(Map<String, Object> other) {
    super(other);
  }

  public String str(String key) {
    return (String) get(key);
  }

  public int integer(String key) {
    return (Integer) get(key);
  }

  public boolean flag(String key) {
    return Boolean.TRUE.equals(get(key));
  }

  public Row sub(String key) {
    return (Row) get(key);
  }

  /** The row's concurrency values: the int, or the list. */
  @SuppressWarnings("unchecked")
  public List<Integer> concValues() {
    Object c = get("conc");
    return c instanceof List<?> l ? (List<Integer>) l : List.of((Integer) c);
  }

  /**
   * A grouping key: every entry except {@code ignored}, compared structurally and independently of
   * key order (as the reference's frozen, key-sorted tuples).
   */
  public Map<String, Object> keyWithout(Set<String> ignored) {
    Map<String, Object> out = new java.util.HashMap<>(size() * 2);
    for (Map.Entry<String, Object> e : entrySet()) {
      if (!ignored.contains(e.getKey())) {
        out.put(e.getKey(), e.getValue());
      }
    }
    return out;
  }

  /** A deep copy (nested rows and lists copied), so later edits cannot leak between rows. */
  public Row deepCopy() {
    Row out = new Row();
    for (Map.Entry<String, Object> e : entrySet()) {
      out.put(e.getKey(), copyValue(e.getValue()));
    }
    return out;
  }

  private static Object copyValue(Object v) {
    if (v instanceof Row r) {
      return r.deepCopy();
    }
    if (v instanceof Collection<?> c) {
      List<Object> l = new ArrayList<>(c.size());
      for (Object o : c) {
        l.add(copyValue(o));
      }
      return java.util.Collections.unmodifiableList(l);
    }
    return v;
  }
}
