package io.infx.matrix.internal;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A matrix row: a compact insertion-ordered map with the semantics of the reference's Python dicts
 * (re-assigning a key keeps its position, a removed and re-added key moves to the end), so the
 * emitted key order is exactly the reference's. Keys and values live in two small arrays (rows hold
 * about twenty keys; a linear scan beats hashing and takes a quarter of a {@code LinkedHashMap}'s
 * memory, which matters at 100,000 rows). Equality and hash code follow the {@link Map} contract
 * (order-insensitive), as the reference's frozen, key-sorted grouping keys do.
 *
 * <p>Values are String, Integer, Boolean, unmodifiable lists, nested rows, or null. A row can be
 * {@linkplain #freeze() frozen}: then it and its nested rows reject every change, so finished
 * matrices can hand their rows out without copying.
 */
public final class Row extends AbstractMap<String, Object> {

  private String[] keys;
  private Object[] values;
  private int size;
  private boolean frozen;

  public Row() {
    this(24);
  }

  private Row(int capacity) {
    keys = new String[capacity];
    values = new Object[capacity];
  }

  public Row(Map<String, ?> other) {
    this(Math.max(4, other.size() + 4));
    for (Map.Entry<String, ?> e : other.entrySet()) {
      put(e.getKey(), e.getValue());
    }
  }

  private int indexOf(Object key) {
    for (int i = 0; i < size; i++) {
      if (keys[i] == key) {
        return i;
      }
    }
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  private void mutable() {
    if (frozen) {
      throw new UnsupportedOperationException("matrix rows are immutable");
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  @Override
  public Object get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public Object getOrDefault(Object key, Object fallback) {
    int i = indexOf(key);
    return i < 0 ? fallback : values[i];
  }

  @Override
  public Object put(String key, Object value) {
    mutable();
    int i = indexOf(key);
    if (i >= 0) {
      Object old = values[i];
      values[i] = value;
      return old;
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size++] = value;
    return null;
  }

  @Override
  public Object remove(Object key) {
    mutable();
    int i = indexOf(key);
    if (i < 0) {
      return null;
    }
    Object old = values[i];
    System.arraycopy(keys, i + 1, keys, i, size - i - 1);
    System.arraycopy(values, i + 1, values, i, size - i - 1);
    size--;
    keys[size] = null;
    values[size] = null;
    return old;
  }

  @Override
  public void clear() {
    mutable();
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(values, 0, size, null);
    size = 0;
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, Object>> iterator() {
        return new Iterator<>() {
          private int next;
          private int last = -1;

          @Override
          public boolean hasNext() {
            return next < size;
          }

          @Override
          public Map.Entry<String, Object> next() {
            if (next >= size) {
              throw new NoSuchElementException();
            }
            last = next++;
            int at = last;
            return new SimpleImmutableEntry<>(keys[at], values[at]) {
              private static final long serialVersionUID = 1L;

              @Override
              public Object setValue(Object value) {
                mutable();
                Object old = values[at];
                values[at] = value;
                return old;
              }
            };
          }

          @Override
          public void remove() {
            if (last < 0) {
              throw new IllegalStateException();
            }
            Row.this.remove(keys[last]);
            next = last;
            last = -1;
          }
        };
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** Keys in order (a copy). */
  public List<String> keyList() {
    return List.of(Arrays.copyOf(keys, size));
  }

  /** The key at position {@code i}. */
  public String keyAt(int i) {
    return keys[i];
  }

  /** The value at position {@code i}. */
  public Object valueAt(int i) {
    return values[i];
  }

  /** Makes this row and its nested rows immutable (idempotent); returns this row. */
  public Row freeze() {
    if (!frozen) {
      frozen = true;
      if (keys.length > size + 2) {
        keys = Arrays.copyOf(keys, size);
        values = Arrays.copyOf(values, size);
      }
      for (int i = 0; i < size; i++) {
        if (values[i] instanceof Row r) {
          r.freeze();
        }
      }
    }
    return this;
  }

  public boolean frozen() {
    return frozen;
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
  public Row keyWithout(Set<String> ignored) {
    Row out = new Row(size);
    for (int i = 0; i < size; i++) {
      if (!ignored.contains(keys[i])) {
        out.keys[out.size] = keys[i];
        out.values[out.size++] = values[i];
      }
    }
    return out;
  }

  /** A deep copy (nested rows and lists copied), mutable. */
  public Row deepCopy() {
    Row out = new Row(size + 4);
    for (int i = 0; i < size; i++) {
      out.keys[i] = keys[i];
      out.values[i] = copyValue(values[i]);
    }
    out.size = size;
    return out;
  }

  private static Object copyValue(Object v) {
    if (v instanceof Row r) {
      return r.deepCopy();
    }
    if (v instanceof Map<?, ?> m) {
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) m;
      Row out = new Row(map.size() + 2);
      map.forEach((k, val) -> out.put(k, copyValue(val)));
      return out;
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

  private int hash = 0;

  @Override
  public int hashCode() {
    if (frozen && hash != 0) {
      return hash;
    }
    int h = 0;
    for (int i = 0; i < size; i++) {
      h += keys[i].hashCode() ^ (values[i] == null ? 0 : values[i].hashCode());
    }
    if (frozen) {
      hash = h;
    }
    return h;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Map<?, ?> m) || m.size() != size) {
      return false;
    }
    if (o instanceof Row r) {
      for (int i = 0; i < size; i++) {
        int j = r.indexOf(keys[i]);
        if (j < 0 || !java.util.Objects.equals(values[i], r.values[j])) {
          return false;
        }
      }
      return true;
    }
    return super.equals(o);
  }
}
