package io.infx.store.mapping;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One mapped benchmark point (InferenceX-app {@code BenchmarkParams}): what becomes a
 * {@code benchmark_results} row. Natural key: (run, config, benchmarkType, isl, osl, conc,
 * offloadMode, recipeFingerprint), nulls equal.
 *
 * @param config the configuration (17 dimensions)
 * @param benchmarkType {@code single_turn} or {@code agentic_traces}
 * @param isl input sequence length in tokens; null for agentic rows
 * @param osl output sequence length in tokens; null for agentic rows
 * @param conc concurrency (agentic: users)
 * @param offloadMode {@code on}/{@code off} KV offload (a raw string when the artifact gave one)
 * @param image container image, {@code #} restored to {@code /}; null when absent
 * @param recipeFingerprint trimmed producer recipe identity, null when absent
 * @param metrics flat metrics: numbers in the artifact's units (ms latencies for fixed-sequence
 *     rows, tok/s, tok/s/GPU …) plus a few string runtime fields
 * @param workers per-worker measured power, null when absent or withheld
 * @param powerInvalidReasons reason codes, null when none
 * @param powerAudit measurement-window audit, null when absent
 */
public record BenchmarkParams(
    ConfigParams config,
    String benchmarkType,
    Long isl,
    Long osl,
    long conc,
    String offloadMode,
    String image,
    String recipeFingerprint,
    ObjectNode metrics,
    ArrayNode workers,
    List<String> powerInvalidReasons,
    ObjectNode powerAudit) {

  public static final String SINGLE_TURN = "single_turn";
  public static final String AGENTIC_TRACES = "agentic_traces";

  public BenchmarkParams {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(benchmarkType, "benchmarkType");
    Objects.requireNonNull(offloadMode, "offloadMode");
    Objects.requireNonNull(metrics, "metrics");
    powerInvalidReasons = powerInvalidReasons == null ? null : List.copyOf(powerInvalidReasons);
  }

  /** A numeric metric, if present. */
  public Optional<Double> metric(String key) {
    var v = metrics.get(key);
    return v != null && v.isNumber() ? Optional.of(v.doubleValue()) : Optional.empty();
  }

  /** The reference's JSON shape; absent optional fields are left out. */
  public ObjectNode toJson() {
    ObjectNode o = Js.nodes().objectNode();
    o.set("config", config.toJson());
    o.put("benchmarkType", benchmarkType);
    if (isl == null) {
      o.putNull("isl");
    } else {
      o.put("isl", isl);
    }
    if (osl == null) {
      o.putNull("osl");
    } else {
      o.put("osl", osl);
    }
    o.put("conc", conc);
    o.put("offloadMode", offloadMode);
    o.put("image", image);
    o.put("recipeFingerprint", recipeFingerprint);
    o.set("metrics", metrics);
    if (workers != null) {
      o.set("workers", workers);
    }
    if (powerInvalidReasons != null) {
      ArrayNode a = o.putArray("powerInvalidReasons");
      powerInvalidReasons.forEach(a::add);
    }
    if (powerAudit != null) {
      o.set("powerAudit", powerAudit);
    }
    return o;
  }
}
