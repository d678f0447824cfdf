package io.infx.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.io.BoundedHttp;
import io.infx.core.json.Json;
import io.infx.core.provenance.ServerProvenance;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Asks a server what it is, the way each engine tells: {@code GET /version} (vLLM, SGLang and the
 * infx simulator answer {@code {"version": …}}; the simulator adds {@code "engine": "infx-sim"}),
 * {@code GET /v1/models} ({@code owned_by}: {@code vllm}, {@code sglang}, {@code llamacpp},
 * {@code tensorrt_llm}, {@code infx-sim}), the {@code Server} response header ({@code llama.cpp})
 * and, for llama.cpp, {@code GET /props} ({@code build_info}). Each call has 3 s and 4 MiB for its
 * whole answer (a server streaming an endless body cannot stall or exhaust the client); a
 * server that answers none of them is {@link ServerProvenance#UNKNOWN} — never "real hardware" by
 * assumption, never simulated.
 */
public final class ServerProbe {

  private static final Duration TIMEOUT = Duration.ofSeconds(3);
  /** Largest answer read: a model list of a gateway serving thousands of models fits. */
  private static final int MAX_BODY = 4 << 20;

  private ServerProbe() {}

  /**
   * Identifies the server at {@code base}.
   *
   * @param apiKey sent as {@code Authorization: Bearer} when present (never logged)
   */
  public static ServerProvenance probe(URI base, Optional<String> apiKey) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    String engine = null;
    String version = "";
    String source = "";
    Optional<Reply> ver = get(http, base, "/version", apiKey);
    if (ver.isPresent() && ver.get().json().isPresent()) {
      JsonNode v = ver.get().json().get();
      if (v.path("version").isTextual()) {
        version = v.get("version").textValue();
      }
      if (v.path("engine").isTextual()) {
        engine = v.get("engine").textValue();
        source = "GET /version";
      }
    }
    Optional<Reply> models = get(http, base, "/v1/models", apiKey);
    if (engine == null && models.isPresent() && models.get().json().isPresent()) {
      JsonNode owner = models.get().json().get().path("data").path(0).path("owned_by");
      if (owner.isTextual() && !owner.textValue().isBlank() && !owner.textValue().equals("system")) {
        engine = owner.textValue();
        source = "/v1/models owned_by";
      }
    }
    if (engine == null) {
      for (Optional<Reply> r : java.util.List.of(models, ver)) {
        if (r.isPresent() && r.get().serverHeader().isPresent()) {
          engine = r.get().serverHeader().get().split("/")[0];
          source = "Server header";
          break;
        }
      }
    }
    String canonical = ServerProvenance.canonicalEngine(engine);
    if (canonical.equals("llama.cpp") && version.isEmpty()) {
      Optional<Reply> props = get(http, base, "/props", apiKey);
      if (props.isPresent() && props.get().json().isPresent()
          && props.get().json().get().path("build_info").isTextual()) {
        version = props.get().json().get().get("build_info").textValue();
      }
    }
    return ServerProvenance.of(canonical, version, source.isEmpty() ? "none" : source);
  }

  private record Reply(Optional<JsonNode> json, Optional<String> serverHeader) {}

  private static Optional<Reply> get(HttpClient http, URI base, String path, Optional<String> apiKey) {
    try {
      HttpRequest.Builder r = HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT).GET();
      apiKey.ifPresent(k -> r.header("Authorization", "Bearer " + k));
      HttpResponse<byte[]> resp = BoundedHttp.send(http, r.build(), MAX_BODY, TIMEOUT);
      Optional<String> server = resp.headers().firstValue("server").filter(s -> !s.isBlank());
      Optional<JsonNode> json = Optional.empty();
      if (resp.statusCode() == 200) {
        try {
          JsonNode n = Json.mapper().readTree(resp.body());
          json = n != null && n.isObject() ? Optional.of(n) : Optional.empty();
        } catch (IOException notJson) {
          json = Optional.empty();
        }
      }
      return Optional.of(new Reply(json, server));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
