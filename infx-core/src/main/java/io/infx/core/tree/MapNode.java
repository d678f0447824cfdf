package io.infx.core.tree;

import io.infx.core.Location;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A mapping with its entries in document order. Keys are unique (the readers reject duplicate
 * keys); {@link Entry#keyNode()} keeps the key's own type and location, so callers can reject
 * non-string keys.
 */
public final class MapNode implements Node {

  /** One {@code key: value} pair. */
  public record Entry(String key, ScalarNode keyNode, Node value) {
    public Entry {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(keyNode, "keyNode");
      Objects.requireNonNull(value, "value");
    }
  }

  private final String pointer;
  private final Location location;
  private final List<Entry> entries;
  private final Map<String, Entry> byKey;

  public MapNode(String pointer, Location location, List<Entry> entries) {
    this.pointer = Objects.requireNonNull(pointer, "pointer");
    this.location = Objects.requireNonNull(location, "location");
    this.entries = List.copyOf(entries);
    Map<String, Entry> index = new HashMap<>(Math.max(4, entries.size() * 2));
    for (Entry e : this.entries) {
      if (index.putIfAbsent(e.key(), e) != null) {
        throw new IllegalArgumentException("duplicate key '" + e.key() + "' at " + e.keyNode().location());
      }
    }
    this.byKey = index;
  }

  public List<Entry> entries() {
    return entries;
  }

  /** Keys in document order. */
  public List<String> keys() {
    List<String> keys = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      keys.add(e.key());
    }
    return Collections.unmodifiableList(keys);
  }

  public int size() {
    return entries.size();
  }

  public boolean has(String key) {
    return byKey.containsKey(key);
  }

  public Optional<Node> get(String key) {
    Entry e = byKey.get(key);
    return e == null ? Optional.empty() : Optional.of(e.value());
  }

  public Optional<Entry> entry(String key) {
    return Optional.ofNullable(byKey.get(key));
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
    return "mapping";
  }

  @Override
  public Object toPlain() {
    Map<String, Object> out = new LinkedHashMap<>(Math.max(4, entries.size() * 2));
    for (Entry e : entries) {
      out.put(e.key(), e.value().toPlain());
    }
    return out;
  }

  @Override
  public String toString() {
    return location + " mapping" + keys();
  }
}
