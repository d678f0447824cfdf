package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The workload settings a raw result was produced with, as far as they decide whether two results
 * may be ranked against each other: the backend (top-level {@code backend}) and the settings the
 * infx load generator records in the raw file's {@code infx} extension object.
 *
 * @param source the raw file read
 * @param settings setting name → value (JSON), in a fixed order; absent settings are omitted
 * @param hasExtension whether the raw file carries the {@code infx} extension (reference-client raw
 *     files do not, so most settings cannot be verified)
 */
public record WorkloadSettings(Path source, Map<String, JsonNode> settings, boolean hasExtension) {

  /** Settings read from the {@code infx} extension (when present), in comparison order. */
  public static final List<String> EXTENSION_SETTINGS = List.of(
      "backend", "endpoint", "ignore_eos", "random_range_ratio", "num_warmups",
      "token_count_source", "tokenizer", "seed", "num_prompts", "request_rate", "burstiness",
      "workload_fingerprint");

  /** Reads the settings of a raw result; never fails (missing pieces are simply absent). */
  public static WorkloadSettings of(Path source, JsonNode raw) {
    Map<String, JsonNode> s = new LinkedHashMap<>();
    JsonNode ext = raw == null ? null : raw.get("infx");
    boolean hasExtension = ext != null && ext.isObject();
    if (raw != null && raw.has("backend")) {
      s.put("backend", raw.get("backend"));
    }
    if (hasExtension) {
      for (String key : EXTENSION_SETTINGS) {
        JsonNode v = find(ext, key);
        if (v != null) {
          s.put(key, v);
        }
      }
    }
    return new WorkloadSettings(source, s, hasExtension);
  }

  /** Reads the settings of the raw file at {@code path}; empty when it cannot be read. */
  public static Optional<WorkloadSettings> read(Path path) {
    try {
      return Optional.of(of(path, ResultProcessor.readRaw(path)));
    } catch (ResultsException e) {
      return Optional.empty();
    }
  }

  // A setting may sit directly in the extension or one level down (e.g. infx.workload.seed).
  private static JsonNode find(JsonNode ext, String key) {
    if (ext.has(key)) {
      return ext.get(key);
    }
    for (JsonNode child : ext) {
      if (child.isObject() && child.has(key)) {
        return child.get(key);
      }
    }
    return null;
  }

  /** Settings whose values differ between this and {@code other}, as {@code name: a vs b}. */
  public List<String> differences(WorkloadSettings other) {
    List<String> out = new ArrayList<>();
    List<String> keys = new ArrayList<>(settings.keySet());
    other.settings.keySet().stream().filter(k -> !keys.contains(k)).forEach(keys::add);
    for (String k : keys) {
      JsonNode a = settings.get(k);
      JsonNode b = other.settings.get(k);
      if (a == null || b == null) {
        if (hasExtension && other.hasExtension) {
          out.add(k + ": " + render(a) + " vs " + render(b));
        }
        continue;
      }
      boolean equal = a.isNumber() && b.isNumber() ? a.doubleValue() == b.doubleValue() : a.equals(b);
      if (!equal) {
        out.add(k + ": " + render(a) + " vs " + render(b));
      }
    }
    return out;
  }

  private static String render(JsonNode n) {
    return n == null ? "(not recorded)" : n.isTextual() ? n.textValue() : n.toString();
  }
}
