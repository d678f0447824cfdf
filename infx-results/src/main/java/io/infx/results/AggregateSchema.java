package io.infx.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.Violation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The contract of an aggregate row, modelled on the newer upstream collector's row models
 * ({@code collect_results.py}): required identity keys with their JSON types, positive sequence
 * lengths and concurrency, {@code "true"}/{@code "false"} DP-attention strings, an empty or 64-hex
 * recipe fingerprint, positive topology sizes (decode TP/EP may be 0 without decode GPUs), finite
 * non-negative throughputs, and extra keys restricted to the latency / interactivity statistics
 * ({@code (mean|median|std|pN)_(ttft|tpot|itl|e2el|intvty)}) and the power fields.
 *
 * <p>Rows with {@code scenario_type} are AgentX rows; only their identity keys are checked here.
 * Unlike upstream, {@code result_schema_version} is not required: the reference normalizer does not
 * write it.
 */
public final class AggregateSchema {

  private static final Pattern METRIC =
      Pattern.compile("(mean|median|std|p\\d+(\\.\\d+)?)_(ttft|tpot|itl|e2el|intvty)");
  private static final Pattern FINGERPRINT = Pattern.compile("|[0-9a-f]{64}");

  private static final Set<String> IDENTITY_STRINGS = Set.of(
      "hw", "image", "model", "infmax_model_prefix", "framework", "precision", "spec_decoding");

  private AggregateSchema() {}

  /** Whether a row is an AgentX row ({@code scenario_type} present). */
  public static boolean isAgentic(JsonNode row) {
    return row != null && row.isObject() && row.has("scenario_type");
  }

  /** Every violation of the row contract, in key order; empty when the row is valid. */
  public static List<Violation> validate(JsonNode row) {
    List<Violation> v = new ArrayList<>();
    if (row == null || !row.isObject()) {
      v.add(Violation.builder().ruleId("aggregate.row.object")
          .message("a row must be a JSON object; a file holding a JSON array is collected as one "
              + "nested element, as the reference does")
          .actual(row == null ? "nothing" : row.getNodeType().toString().toLowerCase()).build());
      return v;
    }
    if (!row.has("hw") && !row.has("conc") && !row.has("tput_per_gpu") && !row.has("scenario_type")) {
      v.add(Violation.builder().ruleId("aggregate.not-a-row")
          .message("not an aggregate row (no hw, conc or tput_per_gpu key); raw results and power "
              + "sidecars do not belong in a collection").build());
      return v;
    }
    for (String key : IDENTITY_STRINGS) {
      string(row, key, v, key.equals("spec_decoding") || key.equals("image"));
    }
    positiveInt(row, "conc", v);
    boolean agentic = isAgentic(row);
    if (agentic) {
      if (!row.get("scenario_type").isTextual()) {
        v.add(typeViolation("scenario_type", "a string", row.get("scenario_type")));
      }
      return v;
    }
    bool(row, "disagg", v);
    JsonNode fp = row.get("recipe_fingerprint");
    if (fp != null && (!fp.isTextual() || !FINGERPRINT.matcher(fp.textValue()).matches())) {
      v.add(Violation.builder().ruleId("aggregate.recipe-fingerprint").pointer("/recipe_fingerprint")
          .message("must be empty or 64 lowercase hex characters").actual(fp.toString()).build());
    }
    positiveInt(row, "isl", v);
    positiveInt(row, "osl", v);
    bool(row, "is_multinode", v);
    Set<String> known = new java.util.HashSet<>(Set.of(
        "hw", "conc", "image", "model", "infmax_model_prefix", "framework", "precision",
        "spec_decoding", "disagg", "recipe_fingerprint", "isl", "osl", "is_multinode",
        "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu", "router", "kv_p2p_transfer",
        "benchmark_outcome", "num_aggregate_gpu", "power_metric_schema_version", "power_valid",
        "power_invalid_reasons", "power_audit", "server_engine", "server_version", "simulated", Repetitions.KEY));
    JsonNode repeats = row.get(Repetitions.KEY);
    if (repeats != null) {
      try {
        Repetitions.fromJson(repeats);
      } catch (IllegalArgumentException e) {
        v.add(Violation.builder().ruleId("aggregate.repeats").pointer("/" + Repetitions.KEY)
            .message(e.getMessage()).build());
      }
    }
    known.addAll(PowerFields.METRIC_KEYS);
    known.addAll(PowerFields.ROLE_METRIC_KEYS);
    JsonNode multi = row.get("is_multinode");
    if (multi != null && multi.isBoolean() && multi.booleanValue()) {
      for (String role : List.of("prefill_", "decode_")) {
        boolean decode = role.equals("decode_");
        for (String k : List.of("tp", "ep")) {
          if (decode) {
            nonNegativeInt(row, role + k, v);
          } else {
            positiveInt(row, role + k, v);
          }
          known.add(role + k);
        }
        for (String k : List.of("pp", "dcp_size", "pcp_size")) {
          positiveInt(row, role + k, v);
          known.add(role + k);
        }
        dpAttention(row, role + "dp_attention", v);
        nonNegativeInt(row, role + "num_workers", v);
        known.add(role + "dp_attention");
        known.add(role + "num_workers");
      }
      positiveInt(row, "num_prefill_gpu", v);
      nonNegativeInt(row, "num_decode_gpu", v);
      known.addAll(List.of("num_prefill_gpu", "num_decode_gpu", "prefill_hw", "decode_hw"));
      if (row.has("prefill_hw") != row.has("decode_hw")) {
        v.add(Violation.builder().ruleId("aggregate.role-hardware")
            .message("prefill_hw and decode_hw must be present together").build());
      }
    } else if (multi != null && multi.isBoolean()) {
      for (String k : List.of("tp", "pp", "dcp_size", "pcp_size", "ep")) {
        positiveInt(row, k, v);
        known.add(k);
      }
      dpAttention(row, "dp_attention", v);
      known.add("dp_attention");
    }
    for (String k : List.of("tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu")) {
      finiteNonNegative(row, k, v);
    }
    JsonNode router = row.get("router");
    if (router != null) {
      if (!router.isObject() || router.size() != 2 || !nonEmptyText(router.get("name"))
          || !nonEmptyText(router.get("version"))) {
        v.add(Violation.builder().ruleId("aggregate.router").pointer("/router")
            .message("must be an object of exactly non-empty \"name\" and \"version\"")
            .actual(router.toString()).build());
      }
    }
    JsonNode kv = row.get("kv_p2p_transfer");
    if (kv != null && !nonEmptyText(kv)) {
      v.add(typeViolation("kv_p2p_transfer", "a non-empty string", kv));
    }
    if (row.has("server_engine") || row.has("server_version") || row.has("simulated")) {
      if (!nonEmptyText(row.get("server_engine"))) {
        v.add(typeViolation("server_engine", "a non-empty string (with server_version and simulated)",
            row.path("server_engine")));
      }
      if (row.get("server_version") == null || !row.get("server_version").isTextual()) {
        v.add(typeViolation("server_version", "a string (with server_engine and simulated)", row.path("server_version")));
      }
      if (row.get("simulated") == null || !row.get("simulated").isBoolean()) {
        v.add(typeViolation("simulated", "a boolean (with server_engine and server_version)", row.path("simulated")));
      } else if (nonEmptyText(row.get("server_engine"))
          && row.get("simulated").booleanValue() != row.get("server_engine").textValue()
              .equals(io.infx.core.provenance.ServerProvenance.SIMULATOR)) {
        v.add(Violation.builder().ruleId("aggregate.simulated").pointer("/simulated")
            .message("simulated is true exactly when server_engine is "
                + io.infx.core.provenance.ServerProvenance.SIMULATOR)
            .actual(row.get("simulated").toString()).build());
      }
    }
    JsonNode pv = row.get("power_valid");
    if (pv != null && !(pv.isIntegralNumber() && (pv.intValue() == 0 || pv.intValue() == 1))) {
      v.add(typeViolation("power_valid", "0 or 1", pv));
    }
    JsonNode psv = row.get("power_metric_schema_version");
    if (psv != null && !psv.isIntegralNumber()) {
      v.add(typeViolation("power_metric_schema_version", "an integer", psv));
    }
    Iterator<Map.Entry<String, JsonNode>> it = row.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String key = e.getKey();
      if (known.contains(key)) {
        if ((PowerFields.METRIC_KEYS.contains(key) || PowerFields.ROLE_METRIC_KEYS.contains(key))) {
          finiteNonNegative(row, key, v);
        }
        continue;
      }
      if (METRIC.matcher(key).matches()) {
        JsonNode value = e.getValue();
        if (!value.isNumber() || !Double.isFinite(value.doubleValue())) {
          v.add(typeViolation(key, "a finite number", value));
        }
        continue;
      }
      v.add(Violation.builder().ruleId("aggregate.unknown-key").pointer("/" + escape(key))
          .message("unknown key; extra keys are limited to (mean|median|std|pN)_(ttft|tpot|itl|"
              + "e2el|intvty) and the power fields").build());
    }
    return v;
  }

  private static boolean nonEmptyText(JsonNode n) {
    return n != null && n.isTextual() && !n.textValue().isEmpty();
  }

  private static void string(JsonNode row, String key, List<Violation> v, boolean mayBeEmpty) {
    JsonNode n = row.get(key);
    if (n == null) {
      v.add(missing(key));
    } else if (!n.isTextual() || (!mayBeEmpty && n.textValue().isEmpty())) {
      v.add(typeViolation(key, mayBeEmpty ? "a string" : "a non-empty string", n));
    }
  }

  private static void bool(JsonNode row, String key, List<Violation> v) {
    JsonNode n = row.get(key);
    if (n == null) {
      v.add(missing(key));
    } else if (!n.isBoolean()) {
      v.add(typeViolation(key, "a boolean", n));
    }
  }

  private static void positiveInt(JsonNode row, String key, List<Violation> v) {
    intAtLeast(row, key, 1, v);
  }

  private static void nonNegativeInt(JsonNode row, String key, List<Violation> v) {
    intAtLeast(row, key, 0, v);
  }

  private static void intAtLeast(JsonNode row, String key, int min, List<Violation> v) {
    JsonNode n = row.get(key);
    if (n == null) {
      v.add(missing(key));
    } else if (!n.isIntegralNumber() || !n.canConvertToInt() || n.intValue() < min) {
      v.add(typeViolation(key, min > 0 ? "a positive integer" : "a non-negative integer", n));
    }
  }

  private static void dpAttention(JsonNode row, String key, List<Violation> v) {
    JsonNode n = row.get(key);
    if (n == null) {
      v.add(missing(key));
    } else if (!n.isTextual() || !(n.textValue().equals("true") || n.textValue().equals("false"))) {
      v.add(typeViolation(key, "the string \"true\" or \"false\"", n));
    }
  }

  private static void finiteNonNegative(JsonNode row, String key, List<Violation> v) {
    JsonNode n = row.get(key);
    if (n == null) {
      v.add(missing(key));
    } else if (!n.isNumber() || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0) {
      v.add(typeViolation(key, "a finite non-negative number", n));
    }
  }

  private static Violation missing(String key) {
    return Violation.builder().ruleId("aggregate.required").pointer("/" + escape(key))
        .message("required key is missing").build();
  }

  private static Violation typeViolation(String key, String expected, JsonNode actual) {
    return Violation.builder().ruleId("aggregate.value").pointer("/" + escape(key))
        .message("invalid value").expected(expected).actual(actual.toString()).build();
  }

  private static String escape(String key) {
    return key.replace("~", "~0").replace("/", "~1");
  }
}
