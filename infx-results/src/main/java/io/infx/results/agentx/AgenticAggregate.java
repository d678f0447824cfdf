package io.infx.results.agentx;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.InfxException;
import io.infx.core.io.AtomicFiles;
import io.infx.core.json.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One {@code bmk_agentic_*} aggregate: the run's identity, request accounting, request metrics
 * (seconds, tokens/s, tokens/s/GPU) and normalized server metrics, in the JSON shape InferenceX
 * and its app read. Immutable: {@link #toJson()} returns a copy.
 */
public final class AgenticAggregate {

  private final ObjectNode json;

  AgenticAggregate(ObjectNode json) {
    this.json = json;
  }

  /** A copy of the aggregate object, keys in the reference's emission order. */
  public ObjectNode toJson() {
    return json.deepCopy();
  }

  /** Records in the profile export (warmup and errors included). */
  public long numRequestsTotal() {
    return json.path("num_requests_total").asLong();
  }

  /** Profiling-phase records without error: the requests every metric is computed from. */
  public long numRequestsSuccessful() {
    return json.path("num_requests_successful").asLong();
  }

  /** Users (concurrent session trees) of the run. */
  public int conc() {
    return json.path("conc").asInt();
  }

  /**
   * The replay's validity stamp: empty when its export carried none (AIPerf without a scenario),
   * {@code false} for a run stamped invalid (short, {@code --unsafe-override}, cancelled, stalled,
   * too many context overflows; see {@link #submissionInvalidReasons()}).
   */
  public Optional<Boolean> submissionValid() {
    JsonNode v = json.get("submission_valid");
    return v != null && v.isBoolean() ? Optional.of(v.booleanValue()) : Optional.empty();
  }

  /** Why the run is not a valid submission (e.g. {@code unsafe_override}); empty when it is. */
  public java.util.List<String> submissionInvalidReasons() {
    java.util.List<String> out = new java.util.ArrayList<>();
    json.path("submission_invalid_reasons").forEach(n -> out.add(n.asText()));
    return java.util.List.copyOf(out);
  }

  /** Total (input + output) tokens/s per GPU, when the records carried timestamps and GPUs > 0. */
  public Optional<Double> totalTokensPerSecondPerGpu() {
    JsonNode v = json.path("request_metrics").path("throughput").path("per_gpu").path("total_tput_tps");
    return v.isNumber() ? Optional.of(v.doubleValue()) : Optional.empty();
  }

  /**
   * This aggregate with what answered appended after every reference key: {@code server_engine},
   * {@code server_version} and {@code simulated}, as fixed-sequence aggregate rows carry them (an
   * aggregate from AIPerf exports has no provenance; a replay on the embedded simulator must say so
   * wherever the row is read: summary table, HTML report, store).
   */
  public AgenticAggregate withServer(io.infx.core.provenance.ServerProvenance server) {
    java.util.Objects.requireNonNull(server, "server");
    ObjectNode copy = json.deepCopy();
    copy.remove(java.util.List.of("server_engine", "server_version", "simulated"));
    copy.put("server_engine", server.engine());
    copy.put("server_version", server.version());
    copy.put("simulated", server.simulated());
    return new AgenticAggregate(copy);
  }

  /** What answered, when {@link #withServer} recorded it. */
  public Optional<io.infx.core.provenance.ServerProvenance> server() {
    JsonNode e = json.get("server_engine");
    return e == null || !e.isTextual() ? Optional.empty()
        : Optional.of(io.infx.core.provenance.ServerProvenance.of(e.textValue(),
            json.path("server_version").asText(""), "agentic aggregate"));
  }

  /** Pretty JSON text (two-space indentation), as written to the aggregate file. */
  public String toPrettyString() {
    try {
      return Json.pretty().writeValueAsString(json) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("aggregate is always serializable", e);
    }
  }

  /**
   * Writes the aggregate atomically (temporary sibling renamed into place).
   *
   * @throws InfxException kind {@code file} when the file cannot be written
   */
  public void writeTo(Path file) {
    AtomicFiles.write(file, toPrettyString().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return json.toString();
  }
}
