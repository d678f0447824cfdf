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
    return of(m.values().toArray(FleetAdapter[]::new));
  }

  /**
   * A registry of exactly {@code adapters} (tests, embedding without {@link ServiceLoader}).
   *
   * @throws IllegalStateException when two adapters claim the same id or runner-name prefix
   */
  public static FleetAdapters of(FleetAdapter... adapters) {
    Map<String, FleetAdapter> m = new TreeMap<>();
    Map<String, String> prefixes = new TreeMap<>();
    for (FleetAdapter a : adapters) {
      FleetAdapter prev = m.putIfAbsent(a.id(), a);
      if (prev != null) {
        throw new IllegalStateException("two fleet adapters claim id '" + a.id() + "': "
            + prev.getClass().getName() + " and " + a.getClass().getName());
      }
      for (String p : a.runnerPrefixes()) {
        String other = prefixes.putIfAbsent(p, a.id());
        if (other != null) {
          throw new IllegalStateException("fleet adapters '" + other + "' and '" + a.id()
              + "' both claim runner-name prefix '" + p + "'");
        }
      }
    }
    return new FleetAdapters(m);
  }

  /** Ids of the registered adapters, sorted, for messages such as {@code (registered: …)}. */
  public java.util.Set<String> ids() {
    return byId.keySet();
  }

  /** Routes a runner to the adapter claiming its fleet prefix ({@link FleetAdapter#runnerPrefixes()}). */
  public io.infx.fleet.routing.PrefixRouter prefixRouter() {
    Map<String, String> t = new TreeMap<>();
    for (FleetAdapter a : byId.values()) {
      for (String p : a.runnerPrefixes()) {
        t.put(p, a.id());
      }
    }
    return io.infx.fleet.routing.PrefixRouter.of(t);
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
