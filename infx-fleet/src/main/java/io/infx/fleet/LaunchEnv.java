package io.infx.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The environment a launch hands to its workload: ordered {@code NAME → value} (values are strings,
 * empty means "unset" to the reference's bench scripts), plus which names are secrets and which
 * names the point's {@code additional-settings} set.
 *
 * <p>Iteration order is projection order (see {@link EnvProjector}). Instances are immutable.
 */
public final class LaunchEnv {

  /** Printed instead of a secret's value. */
  public static final String REDACTED = "***";

  private final Map<String, String> values;
  private final Set<String> secretNames;
  private final Set<String> pointSettings;

  /**
   * @param values ordered values; names must be valid environment names
   * @param secretNames names whose values must never be printed
   * @param pointSettings names set by the point's {@code additional-settings} (they win over
   *     cluster and driver layers, see {@link #withOverlay})
   */
  public LaunchEnv(Map<String, String> values, Set<String> secretNames, Set<String> pointSettings) {
    var copy = new LinkedHashMap<String, String>();
    values.forEach((k, v) -> {
      requireName(k);
      copy.put(k, Objects.requireNonNull(v, () -> "value of " + k));
    });
    this.values = Collections.unmodifiableMap(copy);
    this.secretNames = Collections.unmodifiableSet(new LinkedHashSet<>(secretNames));
    this.pointSettings = Collections.unmodifiableSet(new LinkedHashSet<>(pointSettings));
  }

  /** All values in projection order (unmodifiable). */
  public Map<String, String> values() {
    return values;
  }

  /** The value of {@code name}, if projected. */
  public Optional<String> get(String name) {
    return Optional.ofNullable(values.get(name));
  }

  /** The value of {@code name}, or {@code ""} when not projected. */
  public String getOrEmpty(String name) {
    return values.getOrDefault(name, "");
  }

  /** Names that hold secrets. */
  public Set<String> secretNames() {
    return secretNames;
  }

  /** Names set by the point's {@code additional-settings}. */
  public Set<String> pointSettings() {
    return pointSettings;
  }

  /** {@code RESULT_FILENAME}; every projection sets it. */
  public String resultFilename() {
    return getOrEmpty(io.infx.core.launch.LaunchVariable.RESULT_FILENAME.name());
  }

  /**
   * This environment with {@code layer} applied on top: a layer value replaces an existing one
   * (new names are appended in the layer's order) — except names the point's
   * {@code additional-settings} set, which a layer never overrides. This is the newer reference's
   * precedence rule (fleet spec §3.2): cluster-record {@code env} and driver settings override host
   * values, never the point's own settings.
   */
  public LaunchEnv withOverlay(Map<String, String> layer) {
    var merged = new LinkedHashMap<>(values);
    layer.forEach((k, v) -> {
      if (!pointSettings.contains(k)) {
        merged.put(k, v);
      }
    });
    return new LaunchEnv(merged, secretNames, pointSettings);
  }

  /** Values with secrets replaced by {@link #REDACTED}. */
  public Map<String, String> redacted() {
    var out = new LinkedHashMap<String, String>();
    values.forEach((k, v) -> out.put(k, secretNames.contains(k) ? REDACTED : v));
    return Collections.unmodifiableMap(out);
  }

  /** {@code NAME=value} lines in projection order, secrets redacted. */
  public List<String> toLines() {
    var lines = new ArrayList<String>(values.size());
    redacted().forEach((k, v) -> lines.add(k + "=" + v));
    return lines;
  }

  static void requireName(String name) {
    if (name == null || name.isEmpty() || !(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_')) {
      throw new IllegalArgumentException("not an environment variable name: '" + name + "'");
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c == '_' || (c < 0x80 && Character.isLetterOrDigit(c)))) {
        throw new IllegalArgumentException("not an environment variable name: '" + name + "'");
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LaunchEnv e && values.equals(e.values)
        && List.copyOf(values.keySet()).equals(List.copyOf(e.values.keySet()))
        && secretNames.equals(e.secretNames) && pointSettings.equals(e.pointSettings);
  }

  @Override
  public int hashCode() {
    return Objects.hash(values, secretNames, pointSettings);
  }

  @Override
  public String toString() {
    return String.join("\n", toLines());
  }
}
