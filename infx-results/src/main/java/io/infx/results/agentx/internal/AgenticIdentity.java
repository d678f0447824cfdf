package io.infx.results.agentx.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import static io.infx.core.launch.LaunchVariable.*;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.launch.LaunchVariable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run's identity and GPU shape as the aggregate records them (spec §4.2–§4.3), read from the
 * launcher's environment variables with the reference's defaults and validation messages.
 */
public final class AgenticIdentity {

  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final ErrorKind KIND = ErrorKind.AGENTIC_AGGREGATE;

  private final Map<String, String> env;

  public AgenticIdentity(Map<String, String> env) {
    this.env = env;
  }

  /** The top-level fields before the request accounting, in emission order. */
  public record Head(ObjectNode fields, ObjectNode shapeFields, int numGpus) {}

  /**
   * Validates the offload and shape variables and builds the identity fields.
   *
   * @throws InfxException kind {@code agentic-aggregate} with the reference's message
   */
  public Head head() {
    requirePresent();
    String kvOffloading = env.get(KV_OFFLOADING.name());
    String backend = env.getOrDefault(KV_OFFLOAD_BACKEND.name(), "");
    ObjectNode backendMetadata = componentMetadata(KV_OFFLOAD_BACKEND_METADATA.name(), true);
    if (kvOffloading.equals("none")) {
      if (!backend.isEmpty() || backendMetadata != null) {
        throw fail("KV_OFFLOAD_BACKEND must be empty when KV_OFFLOADING=none");
      }
    } else {
      if (backend.isEmpty() || backend.equals("none") || backendMetadata == null) {
        throw fail("KV_OFFLOAD_BACKEND is required when KV_OFFLOADING is enabled");
      }
      if (!backendMetadata.get("name").textValue().equals(backend)) {
        throw fail("KV_OFFLOAD_BACKEND must match KV_OFFLOAD_BACKEND_METADATA.name");
      }
    }

    ObjectNode shape = F.objectNode();
    boolean multinode = bool(IS_MULTINODE.name());
    int tp = integer(TP.name(), 1);
    int ep = integer(EP_SIZE.name(), 1);
    String dpAttention = env.getOrDefault(DP_ATTENTION.name(), "false");
    int numGpus;
    if (!multinode) {
      int pp = integer(PP_SIZE.name(), 1);
      int dcp = integer(DCP_SIZE.name(), 1);
      int pcp = integer(PCP_SIZE.name(), 1);
      if (pp <= 0 || dcp <= 0 || pcp <= 0) {
        throw fail("PP_SIZE, DCP_SIZE, and PCP_SIZE must be positive integers.");
      }
      shape.put("pp", pp);
      shape.put("dcp_size", dcp);
      shape.put("pcp_size", pcp);
      numGpus = tp * pp * pcp;
    } else {
      int pWorkers = integer(PREFILL_NUM_WORKERS.name(), 0);
      int pTp = integer(PREFILL_TP.name(), 0);
      int pPp = integer(PREFILL_PP_SIZE.name(), 1);
      int pDcp = integer(PREFILL_DCP_SIZE.name(), 1);
      int pPcp = integer(PREFILL_PCP_SIZE.name(), 1);
      int pEp = integer(PREFILL_EP.name(), 1);
      String pDpa = env.getOrDefault(PREFILL_DP_ATTN.name(), "false");
      int dWorkers = integer(DECODE_NUM_WORKERS.name(), 0);
      int dTp = integer(DECODE_TP.name(), 0);
      int dPp = integer(DECODE_PP_SIZE.name(), 1);
      int dDcp = integer(DECODE_DCP_SIZE.name(), 1);
      int dPcp = integer(DECODE_PCP_SIZE.name(), 1);
      int dEp = integer(DECODE_EP.name(), 1);
      String dDpa = env.getOrDefault(DECODE_DP_ATTN.name(), "false");
      if (pPp <= 0 || pDcp <= 0 || pPcp <= 0 || dPp <= 0 || dDcp <= 0 || dPcp <= 0) {
        throw fail("Multinode PP, DCP, and PCP sizes must be positive integers.");
      }
      String pHw = env.getOrDefault(PREFILL_HARDWARE.name(), "");
      String dHw = env.getOrDefault(DECODE_HARDWARE.name(), "");
      if (pHw.isEmpty() != dHw.isEmpty()) {
        throw fail("PREFILL_HARDWARE and DECODE_HARDWARE must be specified together.");
      }
      int prefillGpus = pWorkers * pTp * pPp * pPcp;
      int decodeGpus = dWorkers * dTp * dPp * dPcp;
      numGpus = prefillGpus + decodeGpus;
      if (decodeGpus <= 0) {
        // Aggregated deployment: no separate decode GPUs, so no decode-side parallelism.
        dTp = 0;
        dEp = 0;
        dPp = 1;
        dDcp = 1;
        dPcp = 1;
      }
      tp = pTp + dTp;
      ep = Math.max(pEp, dEp);
      dpAttention = bool(PREFILL_DP_ATTN.name()) || bool(DECODE_DP_ATTN.name()) ? "true" : "false";
      shape.put("prefill_num_workers", pWorkers);
      shape.put("prefill_tp", pTp);
      shape.put("prefill_pp", pPp);
      shape.put("prefill_dcp_size", pDcp);
      shape.put("prefill_pcp_size", pPcp);
      shape.put("prefill_ep", pEp);
      shape.put("prefill_dp_attention", pDpa);
      shape.put("num_prefill_gpu", prefillGpus);
      shape.put("decode_num_workers", dWorkers);
      shape.put("decode_tp", dTp);
      shape.put("decode_pp", dPp);
      shape.put("decode_dcp_size", dDcp);
      shape.put("decode_pcp_size", dPcp);
      shape.put("decode_ep", dEp);
      shape.put("decode_dp_attention", dDpa);
      shape.put("num_decode_gpu", decodeGpus);
      if (!pHw.isEmpty()) {
        shape.put("prefill_hw", pHw);
        shape.put("decode_hw", dHw);
      }
    }

    ObjectNode o = F.objectNode();
    o.put("hw", env.getOrDefault(RUNNER_TYPE.name(), ""));
    o.put("conc", strictInteger(CONC.name(), env.get(CONC.name())));
    o.put("image", env.getOrDefault(IMAGE.name(), ""));
    o.put("recipe_fingerprint", env.getOrDefault(RECIPE_FINGERPRINT.name(), ""));
    o.put("model", env.getOrDefault(MODEL.name(), ""));
    o.put("infmax_model_prefix", env.getOrDefault(MODEL_PREFIX.name(), ""));
    o.put("framework", framework());
    o.put("precision", env.getOrDefault(PRECISION.name(), ""));
    o.put("spec_decoding", env.getOrDefault(SPEC_DECODING.name(), "none"));
    o.put("disagg", bool(DISAGG.name()));
    o.put("scenario_type", "agentic-coding");
    o.put("is_multinode", multinode);
    o.put("tp", tp);
    o.put("ep", ep);
    o.put("dp_attention", dpAttention);
    o.put("kv_offloading", kvOffloading);
    o.set("kv_offload_backend", backendMetadata == null ? F.nullNode() : backendMetadata);
    o.put("allocated_cpu_dram_gb", integer(TOTAL_CPU_DRAM_GB.name(), 0));
    return new Head(o, shape, numGpus);
  }

  /** Fields after the GPU shape: {@code router} and {@code kv_p2p_transfer} when set. */
  public ObjectNode tail() {
    ObjectNode o = F.objectNode();
    ObjectNode router = componentMetadata(ROUTER_METADATA.name(), false);
    if (router != null) {
      o.set("router", router);
    }
    String p2p = env.get(KV_P2P_TRANSFER.name());
    if (p2p != null && !p2p.isEmpty()) {
      o.put("kv_p2p_transfer", p2p);
    }
    return o;
  }

  public String framework() {
    return env.getOrDefault(FRAMEWORK.name(), "");
  }

  /**
   * The variables an aggregate cannot be keyed or divided without, in the order they are checked:
   * the model, engine and users ({@code CONC}) of the row, its KV offload tier (the reference's
   * only required variable), and what the GPU count is computed from ({@code TP} on one node; the
   * worker counts and TPs of both roles on several). The reference defaults the others to
   * {@code ""}/{@code 0}/{@code 1} and so publishes an empty model at conc 0 — or a per-GPU
   * throughput over 1 GPU for a TP8 run — without a word; infx refuses instead.
   */
  public List<String> requiredNames() {
    List<String> names = new ArrayList<>(LaunchVariable.names(MODEL, FRAMEWORK, CONC, KV_OFFLOADING));
    if (bool(IS_MULTINODE.name())) {
      names.addAll(LaunchVariable.names(PREFILL_NUM_WORKERS, PREFILL_TP, DECODE_NUM_WORKERS, DECODE_TP));
    } else {
      names.add(TP.name());
    }
    return names;
  }

  /**
   * Fails naming every required variable that is unset or empty, e.g.
   * {@code Missing required environment variables: MODEL, CONC}; with only {@code KV_OFFLOADING}
   * missing the message is the reference's {@code Missing required environment variable:
   * KV_OFFLOADING}.
   */
  private void requirePresent() {
    List<String> missing = requiredNames().stream()
        .filter(name -> env.get(name) == null || env.get(name).isEmpty())
        .toList();
    if (missing.size() == 1) {
      throw fail("Missing required environment variable: " + missing.get(0));
    }
    if (!missing.isEmpty()) {
      throw fail("Missing required environment variables: " + String.join(", ", missing));
    }
    int conc = strictInteger(CONC.name(), env.get(CONC.name()));
    if (conc < 1) {
      throw fail("CONC must be a positive integer (the run's users), got '" + env.get(CONC.name()) + "'");
    }
  }

  private boolean bool(String name) {
    return LaunchVariable.isFlagOn(env.get(name));
  }

  private int integer(String name, int dflt) {
    String v = env.get(name);
    if (v == null || v.isEmpty()) {
      return dflt;
    }
    return strictInteger(name, v);
  }

  private static int strictInteger(String name, String v) {
    // Python int(): underscores only between digits (1_000 yes, 1__2 no)
    return LaunchVariable.parseInt(v).value()
        .orElseThrow(() -> fail(name + " must be an integer, got '" + v + "'"));
  }

  /**
   * {@code {"name", "version"}} metadata from JSON in an environment variable; {@code ""} and
   * {@code "null"} mean absent. With {@code versionOptional}, {@code version} may be left out.
   */
  private ObjectNode componentMetadata(String label, boolean versionOptional) {
    String raw = env.get(label);
    if (raw == null || raw.isEmpty() || raw.equals("null")) {
      return null;
    }
    JsonNode parsed;
    try {
      parsed = LENIENT.readTree(raw);
    } catch (Exception e) {
      throw fail(label + " must contain valid JSON");
    }
    Set<String> keys = new LinkedHashSet<>();
    if (parsed != null && parsed.isObject()) {
      parsed.fieldNames().forEachRemaining(keys::add);
    }
    Set<String> allowed = Set.of("name", "version");
    if (versionOptional) {
      if (parsed == null || !parsed.isObject() || !allowed.containsAll(keys)) {
        throw fail(label + " may contain only 'name' and 'version'");
      }
      if (!keys.equals(Set.of("name")) && !keys.equals(allowed)) {
        throw fail(label + " must contain 'name' and optional 'version'");
      }
    } else if (parsed == null || !parsed.isObject() || !keys.equals(allowed)) {
      throw fail(label + " must contain exactly 'name' and 'version'");
    }
    Iterator<JsonNode> values = parsed.elements();
    while (values.hasNext()) {
      JsonNode v = values.next();
      if (!v.isTextual() || v.textValue().isEmpty()) {
        throw fail(label + (versionOptional ? " values" : " name and version") + " must be non-empty strings");
      }
    }
    return (ObjectNode) parsed;
  }

  private static final ObjectMapper LENIENT = new ObjectMapper();

  private static InfxException fail(String message) {
    return new InfxException(KIND, message);
  }
}
