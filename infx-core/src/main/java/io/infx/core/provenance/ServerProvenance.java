package io.infx.core.provenance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.json.Json;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What answered a benchmark: the serving engine, its version where the server tells, and whether
 * it is the embedded simulator. The client records it in the raw result ({@code infx.server}); the
 * normalizer publishes it as the aggregate keys {@code server_engine}, {@code server_version} and
 * {@code simulated}. One home for the engine names and for the rule "simulated = the engine is
 * {@value #SIMULATOR}", so a simulated number can never pass for a hardware measurement.
 *
 * @param engine canonical engine name: {@code vllm}, {@code sglang}, {@code tensorrt-llm},
 *     {@code llama.cpp}, {@value #SIMULATOR}, another server's self-description, or
 *     {@value #UNKNOWN}
 * @param version the engine's version or build ({@code ""} when the server does not say)
 * @param simulated true for the embedded simulator (derived from the engine, never set separately)
 * @param source how the engine was identified, e.g. {@code GET /version}, {@code /v1/models owned_by}
 */
public record ServerProvenance(String engine, String version, boolean simulated, String source) {

  /** Engine name of the embedded simulator ({@code infx sim}). */
  public static final String SIMULATOR = "infx-sim";

  /** Engine name when the server did not identify itself. */
  public static final String UNKNOWN = "unknown";

  public ServerProvenance {
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(source, "source");
    if (engine.isBlank()) {
      throw new IllegalArgumentException("engine must not be blank");
    }
    if (simulated != engine.equals(SIMULATOR)) {
      throw new IllegalArgumentException("simulated must be true exactly for the engine " + SIMULATOR
          + ", got engine '" + engine + "' with simulated=" + simulated);
    }
  }

  /** A provenance for {@code engine} (canonicalized) with {@link #simulated()} derived from it. */
  public static ServerProvenance of(@Nullable String engine, @Nullable String version, @Nullable String source) {
    String e = canonicalEngine(engine);
    return new ServerProvenance(e, version == null ? "" : version.strip(), e.equals(SIMULATOR), source);
  }

  /** The embedded simulator at {@code version}. */
  public static ServerProvenance simulator(@Nullable String version) {
    return of(SIMULATOR, version, "simulator");
  }

  /**
   * The canonical name of an engine as servers spell it: {@code owned_by} of {@code /v1/models}
   * ({@code vllm}, {@code sglang}, {@code llamacpp}, {@code tensorrt_llm}, {@code trtllm}) or a
   * {@code Server} header ({@code llama.cpp}). Anything else is kept (lower case), blank is
   * {@value #UNKNOWN}.
   */
  public static String canonicalEngine(@Nullable String name) {
    if (name == null || name.isBlank()) {
      return UNKNOWN;
    }
    String n = name.strip().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "llamacpp", "llama.cpp", "llama-cpp", "llama_cpp", "llama-server" -> "llama.cpp";
      case "tensorrt_llm", "tensorrt-llm", "trtllm", "trt-llm", "trtllm-serve" -> "tensorrt-llm";
      case "sglang" -> "sglang";
      case "vllm" -> "vllm";
      default -> n;
    };
  }

  /** The raw-result form ({@code infx.server}): engine, version, simulated, source. */
  public ObjectNode toJson() {
    ObjectNode o = Json.mapper().createObjectNode();
    o.put("engine", engine);
    o.put("version", version);
    o.put("simulated", simulated);
    o.put("source", source);
    return o;
  }

  /**
   * Reads {@link #toJson()}'s form; empty when {@code node} is absent or not such an object (a raw
   * result of the reference client has none).
   */
  public static Optional<ServerProvenance> fromJson(@Nullable JsonNode node) {
    if (node == null || !node.isObject() || !node.path("engine").isTextual()) {
      return Optional.empty();
    }
    ServerProvenance p = of(node.get("engine").textValue(), node.path("version").asText(""),
        node.path("source").asText(""));
    JsonNode sim = node.get("simulated");
    if (sim != null && sim.isBoolean() && sim.booleanValue() != p.simulated()) {
      throw new IllegalArgumentException("infx.server says simulated=" + sim.booleanValue()
          + " for engine '" + p.engine() + "'");
    }
    return Optional.of(p);
  }

  /** {@code engine version} for tables, e.g. {@code llama.cpp b1-de3ff81}; simulated rows say so. */
  public String label() {
    String s = version.isEmpty() ? engine : engine + " " + version;
    return simulated ? s + " (SIMULATED)" : s;
  }
}
