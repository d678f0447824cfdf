package io.infx.results;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.ErrorKind;
import io.infx.core.InfxStyle;
import io.infx.core.json.Json;
import io.infx.core.python.PythonJson;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import org.immutables.value.Value;

/**
 * One normalized fixed-sequence result: the run's {@link RunIdentity}, the measured concurrency
 * and model, per-GPU throughputs, the converted latency / interactivity metrics and the power
 * fields. {@link #toJson()} renders it with the reference's key order and JSON types.
 *
 * <p>Units: throughputs in tokens/s per GPU; {@code *_ttft}, {@code *_tpot}, {@code *_itl},
 * {@code *_e2el} in <b>seconds</b>; {@code *_intvty} in tokens/s per user ({@code 1000 / TPOT_ms}).
 * Note that {@code pX_intvty} is the interactivity <em>at</em> the X-th percentile TPOT (a slow-tail
 * value), not the X-th percentile of interactivity, and {@code std_intvty = 1000 / std_tpot} has no
 * statistical meaning; both are published because the dashboard reads them.
 */
@Value.Immutable
@InfxStyle
public abstract class AggregateRow {

  /** Keys the normalizer writes itself; a converted raw metric may not take one of these names. */
  public static final Set<String> RESERVED_KEYS = reservedKeys();

  /** The run's identity: hardware, framework, precision, ISL/OSL (tokens), topology. */
  public abstract RunIdentity identity();

  /** Measured concurrency ({@code max_concurrency} of the raw result). */
  public abstract int conc();

  /** Served model as the client named it ({@code model_id}), e.g. a Hugging Face id or a path. */
  public abstract String model();

  /** Newer upstream: the re-checked request-failure gate, published after {@code osl}. */
  public abstract Optional<BenchmarkOutcome> benchmarkOutcome();

  /** Total (input + output) token throughput per GPU, tokens/s/GPU. */
  public abstract double tputPerGpu();

  /** Output token throughput per GPU (per decode GPU for disaggregated results), tokens/s/GPU. */
  public abstract double outputTputPerGpu();

  /** Input token throughput per GPU (per prefill GPU for multi-node results), tokens/s/GPU. */
  public abstract double inputTputPerGpu();

  /**
   * Converted raw metrics in raw-file order (results spec §2.5): {@code *_ms} keys ÷ 1000, so
   * seconds; {@code *_intvty} = 1000 / TPOT ms, in tokens/s/user.
   */
  public abstract Map<String, Double> metrics();

  /** Power fields, absent when the power stage is off for this result. */
  public abstract Optional<PowerFields> power();

  /**
   * What answered ({@code infx.server} of the raw result): published as {@code server_engine},
   * {@code server_version} and {@code simulated} after every reference key. Absent for raw results
   * without it (the reference client's), whose aggregate is then byte for byte the reference's.
   */
  public abstract Optional<io.infx.core.provenance.ServerProvenance> server();

  /** True when the embedded simulator produced this row ({@link #server()} says so). */
  public boolean simulated() {
    return server().map(io.infx.core.provenance.ServerProvenance::simulated).orElse(false);
  }

  /**
   * A builder; {@code build()} throws {@link ResultsException} ({@code invalid_raw_value}) when a
   * metric name is one of {@link #RESERVED_KEYS}.
   */
  public static ImmutableAggregateRow.Builder builder() {
    return ImmutableAggregateRow.builder();
  }

  /**
   * The repetitions the row's numbers are the means of ({@code infx run --repeat N}); empty for a
   * single measurement (then the row has no {@code repeats} key, exactly as the reference writes it).
   */
  public abstract Optional<Repetitions> repetitions();

  /** A converted metric by its published name (e.g. {@code median_ttft}). */
  public OptionalDouble metric(String name) {
    Double v = metrics().get(name);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }

  /** The aggregate as a JSON object, keys in the reference's order. */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    RunIdentity id = identity();
    o.put("hw", id.hw());
    o.put("conc", conc());
    o.put("image", id.image());
    o.put("model", model());
    o.put("infmax_model_prefix", id.modelPrefix());
    o.put("framework", id.framework());
    o.put("precision", id.precision());
    o.put("spec_decoding", id.specDecoding());
    o.put("disagg", id.disagg());
    o.put("recipe_fingerprint", id.recipeFingerprint());
    o.put("isl", id.isl());
    o.put("osl", id.osl());
    benchmarkOutcome().ifPresent(b -> o.set("benchmark_outcome", b.toJson()));
    if (id.topology() instanceof MultiNodeTopology m && m.aggregateGpus() > 0) {
      o.put("num_aggregate_gpu", m.aggregateGpus());
    }
    id.router().ifPresent(r -> o.set("router", r.toJson()));
    id.kvP2pTransfer().ifPresent(kv -> o.put("kv_p2p_transfer", kv));
    o.put("is_multinode", id.topology().isMultinode());
    if (id.topology() instanceof SingleNodeTopology s) {
      Parallelism p = s.parallelism();
      o.put("tp", p.tp());
      o.put("pp", p.pp());
      o.put("dcp_size", p.dcpSize());
      o.put("pcp_size", p.pcpSize());
      o.put("ep", p.ep());
      o.put("dp_attention", s.dpAttention());
    } else if (id.topology() instanceof MultiNodeTopology m) {
      putRole(o, "prefill_", m.prefill());
      o.put("prefill_dp_attention", m.prefillDpAttention());
      o.put("prefill_num_workers", m.prefillNumWorkers());
      putRole(o, "decode_", m.publishedDecode());
      o.put("decode_dp_attention", m.decodeDpAttention());
      o.put("decode_num_workers", m.decodeNumWorkers());
      o.put("num_prefill_gpu", m.effectivePrefillGpus());
      o.put("num_decode_gpu", m.decodeGpus());
    }
    o.put("tput_per_gpu", tputPerGpu());
    o.put("output_tput_per_gpu", outputTputPerGpu());
    o.put("input_tput_per_gpu", inputTputPerGpu());
    if (id.topology() instanceof MultiNodeTopology m && m.prefillHardware().isPresent()) {
      o.put("prefill_hw", m.prefillHardware().get());
      o.put("decode_hw", m.decodeHardware().orElseThrow());
    }
    metrics().forEach(o::put);
    power().ifPresent(pw -> {
      o.put("power_metric_schema_version", pw.schemaVersion());
      o.put("power_valid", pw.valid() ? 1 : 0);
      pw.metrics().forEach(o::put);
    });
    server().ifPresent(p -> {
      o.put("server_engine", p.engine());
      o.put("server_version", p.version());
      o.put("simulated", p.simulated());
    });
    repetitions().ifPresent(r -> o.set(Repetitions.KEY, r.toJson()));
    return o;
  }

  /** The aggregate as the reference writes it: Python {@code json.dumps(row, indent=2)}. */
  public String toJsonText() {
    return PythonJson.dumps(toJson(), 2);
  }

  private static void putRole(ObjectNode o, String prefix, Parallelism p) {
    o.put(prefix + "tp", p.tp());
    o.put(prefix + "pp", p.pp());
    o.put(prefix + "dcp_size", p.dcpSize());
    o.put(prefix + "pcp_size", p.pcpSize());
    o.put(prefix + "ep", p.ep());
  }

  @Value.Check
  protected void check() {
    for (String key : metrics().keySet()) {
      if (RESERVED_KEYS.contains(key)) {
        throw new ResultsException(ErrorKind.INVALID_RAW_VALUE,
            "metric name '" + key + "' collides with a key the aggregate reserves");
      }
    }
  }

  private static Set<String> reservedKeys() {
    Set<String> keys = new HashSet<>(List.of(
        "hw", "conc", "image", "model", "infmax_model_prefix", "framework", "precision",
        "spec_decoding", "disagg", "recipe_fingerprint", "isl", "osl", "benchmark_outcome",
        "num_aggregate_gpu", "router", "kv_p2p_transfer", "is_multinode",
        "tp", "pp", "dcp_size", "pcp_size", "ep", "dp_attention",
        "prefill_dp_attention", "prefill_num_workers", "decode_dp_attention",
        "decode_num_workers", "num_prefill_gpu", "num_decode_gpu",
        "tput_per_gpu", "output_tput_per_gpu", "input_tput_per_gpu", "prefill_hw", "decode_hw",
        "power_metric_schema_version", "power_valid", "power_invalid_reasons", "power_audit",
        "scenario_type", "result_schema_version", "server_engine", "server_version", "simulated", Repetitions.KEY));
    for (String role : List.of("prefill_", "decode_")) {
      for (String k : List.of("tp", "pp", "dcp_size", "pcp_size", "ep")) {
        keys.add(role + k);
      }
    }
    keys.addAll(PowerFields.METRIC_KEYS);
    keys.addAll(PowerFields.ROLE_METRIC_KEYS);
    return Set.copyOf(keys);
  }
}
