package io.infx.fleet.spi;

import io.infx.core.UsageException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Adapter-specific settings as {@code key=value} pairs (e.g. {@code slurm.partition=debug},
 * {@code slurm.mode=alloc}, {@code container.engine=podman}), from the command line
 * ({@code --option}) or a cluster record. Each adapter documents the keys it reads and rejects
 * unknown keys of its own prefix.
 */
public final class AdapterOptions {

  private final Map<String, String> values;

  private AdapterOptions(Map<String, String> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  public static AdapterOptions of(Map<String, String> values) {
    return new AdapterOptions(values);
  }

  public static AdapterOptions empty() {
    return new AdapterOptions(Map.of());
  }

  /** Parses {@code key=value} strings. */
  public static AdapterOptions parse(Iterable<String> pairs) {
    Map<String, String> m = new LinkedHashMap<>();
    for (String p : pairs) {
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("adapter option must look like key=value, got '" + p + "'");
      }
      m.put(p.substring(0, eq).strip(), p.substring(eq + 1));
    }
    return new AdapterOptions(m);
  }

  public Optional<String> get(String key) {
    return Optional.ofNullable(values.get(key));
  }

  public Map<String, String> values() {
    return values;
  }

  /** This plus {@code other}; {@code other} wins. */
  public AdapterOptions with(Map<String, String> other) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.putAll(other);
    return new AdapterOptions(m);
  }

  /**
   * @throws UsageException naming any key under {@code prefix} (e.g. {@code slurm.}) outside {@code known}
   */
  /**
   * Every option must belong to adapter {@code adapterId} (keys start with {@code <id>.}).
   *
   * @throws UsageException naming the first option of another adapter
   */
  public void requireFor(String adapterId) {
    String prefix = adapterId + ".";
    for (String key : values.keySet()) {
      if (!key.startsWith(prefix)) {
        throw new UsageException("adapter option '" + key + "' is not for adapter '" + adapterId
            + "' (its options start with '" + prefix + "')");
      }
    }
  }

  public void requireKnown(String prefix, java.util.Set<String> known) {
    for (String k : values.keySet()) {
      if (k.startsWith(prefix) && !known.contains(k)) {
        throw new UsageException("unknown adapter option '" + k + "' (known: " + new java.util.TreeSet<>(known) + ")");
      }
    }
  }
}
