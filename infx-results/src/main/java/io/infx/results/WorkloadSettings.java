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
 * may be ranked against each other: the backend (top-level {@code backend}, present in every raw
 * file) and the settings the infx load generator records in the raw file's {@code infx} extension
 * ({@code io.infx.client.RawResult}, schema {@code infx.serve.raw/1}: {@code infx.workload},
 * {@code infx.load}, {@code infx.tokens}).
 *
 * @param source the raw file read
 * @param settings setting name → value (JSON), in {@link #BLOCKING} then {@link #INFORMATIONAL}
 *     order; settings the file does not record are omitted
 * @param hasExtension whether the raw file carries the {@code infx} extension (raw files of the
 *     reference client do not, so only their backend can be checked)
 */
public record WorkloadSettings(Path source, Map<String, JsonNode> settings, boolean hasExtension) {

  /** A setting: its name in messages and its JSON pointer inside the {@code infx} object. */
  public record Setting(String name, String pointer) {}

  /** Settings that must agree before two results are ranked. */
  public static final List<Setting> BLOCKING = List.of(
      new Setting("backend", "/workload/backend"),
      new Setting("api", "/workload/api"),
      new Setting("endpoint", "/workload/endpoint"),
      new Setting("ignore_eos", "/workload/ignore_eos"),
      new Setting("temperature", "/workload/temperature"),
      new Setting("continuous_usage_stats", "/workload/continuous_usage_stats"),
      new Setting("num_warmups", "/workload/num_warmups"),
      new Setting("dataset", "/workload/dataset"),
      new Setting("random_input_len", "/workload/random_input_len"),
      new Setting("random_output_len", "/workload/random_output_len"),
      new Setting("random_range_ratio", "/workload/random_range_ratio"),
      new Setting("random_prefix_len", "/workload/random_prefix_len"),
      new Setting("tokenizer", "/workload/tokenizer"),
      new Setting("load_model", "/load/model"),
      new Setting("request_rate", "/load/rate"),
      new Setting("arrivals", "/load/arrivals"),
      new Setting("burstiness", "/load/burstiness"),
      new Setting("output_token_source", "/tokens/output_source"),
      new Setting("input_token_source", "/tokens/input_source"));

  /**
   * Settings reported when they differ but not blocking: another seed draws another sample of the
   * same prompt distribution.
   */
  public static final List<Setting> INFORMATIONAL = List.of(
      new Setting("seed", "/workload/seed"),
      new Setting("workload_fingerprint", "/workload/fingerprint"),
      new Setting("dataset_path", "/workload/dataset_path"));

  /** Reads the settings of a raw result; never fails (missing pieces are simply absent). */
  public static WorkloadSettings of(Path source, JsonNode raw) {
    Map<String, JsonNode> s = new LinkedHashMap<>();
    JsonNode ext = raw == null ? null : raw.get("infx");
    boolean hasExtension = ext != null && ext.isObject();
    if (hasExtension) {
      for (Setting setting : BLOCKING) {
        put(s, setting.name(), ext.at(setting.pointer()));
      }
      for (Setting setting : INFORMATIONAL) {
        put(s, setting.name(), ext.at(setting.pointer()));
      }
    }
    if (!s.containsKey("backend") && raw != null && raw.has("backend")) {
      s.put("backend", raw.get("backend"));
    }
    return new WorkloadSettings(source, s, hasExtension);
  }

  private static void put(Map<String, JsonNode> s, String name, JsonNode value) {
    if (value != null && !value.isMissingNode()) {
      s.put(name, value);
    }
  }

  /** Reads the settings of the raw file at {@code path}; empty when it cannot be read. */
  public static Optional<WorkloadSettings> read(Path path) {
    try {
      return Optional.of(of(path, ResultProcessor.readRaw(path)));
    } catch (ResultsException e) {
      return Optional.empty();
    }
  }

  /** Blocking settings whose values differ between this and {@code other}, as {@code name: a vs b}. */
  public List<String> differences(WorkloadSettings other) {
    return diff(other, BLOCKING);
  }

  /** Informational settings whose values differ (see {@link #INFORMATIONAL}). */
  public List<String> notes(WorkloadSettings other) {
    return diff(other, INFORMATIONAL);
  }

  private List<String> diff(WorkloadSettings other, List<Setting> which) {
    List<String> out = new ArrayList<>();
    for (Setting setting : which) {
      String k = setting.name();
      JsonNode a = settings.get(k);
      JsonNode b = other.settings.get(k);
      if (a == null && b == null) {
        continue;
      }
      if (a == null || b == null) {
        // Recorded on one side only: a difference when both files carry the extension.
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
