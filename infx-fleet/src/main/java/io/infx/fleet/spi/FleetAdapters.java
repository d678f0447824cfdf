package io.infx.fleet.spi;

import io.infx.core.UsageException;
import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The adapters registered through {@link ServiceLoader}, by id. */
public final class FleetAdapters {

  private final Map<String, FleetAdapter> byId;

  private FleetAdapters(Map<String, FleetAdapter> byId) {
    this.byId = Collections.unmodifiableMap(byId);
  }

  /**
   * Loads every {@link FleetAdapter} visible to this class's class loader.
   *
   * @throws IllegalStateException when two adapters claim the same id
   */
  public static FleetAdapters load() {
    Map<String, FleetAdapter> m = new TreeMap<>();
    for (FleetAdapter a : ServiceLoader.load(FleetAdapter.class, FleetAdapters.class.getClassLoader())) {
      FleetAdapter prev = m.putIfAbsent(a.id(), a);
      if (prev != null) {
        throw new IllegalStateException("two fleet adapters claim id '" + a.id() + "': "
            + prev.getClass().getName() + " and " + a.getClass().getName());
      }
    }
    return new FleetAdapters(m);
  }

  /** Registered adapters by id (sorted). */
  public Map<String, FleetAdapter> all() {
    return byId;
  }

  /**
   * @throws UsageException naming the registered ids when {@code id} is unknown
   */
  public FleetAdapter get(String id) {
    FleetAdapter a = byId.get(id);
    if (a == null) {
      throw new UsageException("no fleet adapter '" + id + "' (registered: " + String.join(", ", byId.keySet()) + ")");
    }
    return a;
  }
}
