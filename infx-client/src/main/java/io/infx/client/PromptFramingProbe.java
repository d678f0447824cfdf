package io.infx.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.infx.core.io.BoundedHttp;
import io.infx.core.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a server counts on top of a prompt's own tokens, asked once at start-up through its
 * tokenizer endpoints, so input lengths can be built and judged as the server counts them.
 *
 * <ul>
 *   <li>Completions: the special tokens the server adds to a prompt (a BOS on LLaMA-style
 *       models) — {@code POST /tokenize} of {@code "a"} with and without special tokens. One body
 *       serves llama.cpp ({@code content}, {@code add_special}) and vLLM / the infx simulator
 *       ({@code prompt}, {@code add_special_tokens}); each ignores the other's fields.
 *   <li>Chat: the tokens the server's chat template adds around a one-message conversation — on
 *       llama.cpp {@code POST /apply-template} then {@code /tokenize} of the rendered prompt with
 *       special tokens (what its chat endpoint counts); elsewhere vLLM's {@code POST /tokenize}
 *       with {@code messages} and {@code add_generation_prompt}; minus the server's count of
 *       {@code "a"} alone.
 * </ul>
 *
 * A server without these endpoints (or any error) leaves the value empty; nothing is guessed.
 * Each call has 5 s and 1 MiB for its whole answer (an endless body is cut off, not buffered); the
 * whole probe is a handful of tiny requests.
 */
public final class PromptFramingProbe {

  /**
   * The probe's findings.
   *
   * @param specialTokens tokens the server adds to a Completions prompt, if measured
   * @param chatTokens tokens the server's chat template adds to a message, if measured
   * @param source how they were measured (for the console and the result)
   */
  public record Framing(OptionalInt specialTokens, OptionalInt chatTokens, String source) {
    /** Nothing measured. */
    public static Framing unknown() {
      return new Framing(OptionalInt.empty(), OptionalInt.empty(), "not measured");
    }
  }

  private static final String PROBE_TEXT = "a";
  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final int MAX_BODY = 1 << 20;
  private final URI base;
  private final Optional<String> apiKey;
  private final String model;
  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(5)).build();

  private PromptFramingProbe(URI base, Optional<String> apiKey, String model) {
    this.base = base;
    this.apiKey = apiKey;
    this.model = model;
  }

  /**
   * Probes {@code base}.
   *
   * @param base the server's base URI
   * @param apiKey sent as {@code Authorization: Bearer} when present
   * @param model the model name sent with the requests (vLLM wants one)
   * @return the framing; empty values where the server could not tell
   */
  public static Framing probe(URI base, Optional<String> apiKey, String model) {
    PromptFramingProbe p = new PromptFramingProbe(base, apiKey, model);
    OptionalInt plain = p.tokenize(PROBE_TEXT, false);
    if (plain.isEmpty()) {
      return Framing.unknown();
    }
    OptionalInt withSpecial = p.tokenize(PROBE_TEXT, true);
    OptionalInt special = withSpecial.isPresent()
        ? OptionalInt.of(Math.max(0, withSpecial.getAsInt() - plain.getAsInt()))
        : OptionalInt.empty();
    String source = "/tokenize";
    OptionalInt chat = OptionalInt.empty();
    Optional<String> rendered = p.applyTemplate();
    if (rendered.isPresent()) {
      OptionalInt n = p.tokenize(rendered.get(), true);
      if (n.isPresent()) {
        chat = OptionalInt.of(n.getAsInt() - plain.getAsInt());
        source = "/tokenize and /apply-template";
      }
    } else {
      OptionalInt n = p.tokenizeChat();
      if (n.isPresent()) {
        chat = OptionalInt.of(n.getAsInt() - plain.getAsInt());
        source = "/tokenize (with messages)";
      }
    }
    return new Framing(special, chat, source);
  }

  private OptionalInt tokenize(String text, boolean special) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", model);
    body.put("content", text);
    body.put("prompt", text);
    body.put("add_special", special);
    body.put("add_special_tokens", special);
    return post("/tokenize", body).map(PromptFramingProbe::tokenCount).orElse(OptionalInt.empty());
  }

  private OptionalInt tokenizeChat() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("model", model);
    body.put("messages", List.of(Map.of("role", "user", "content", PROBE_TEXT)));
    body.put("add_generation_prompt", true);
    return post("/tokenize", body).map(PromptFramingProbe::tokenCount).orElse(OptionalInt.empty());
  }

  private Optional<String> applyTemplate() {
    Map<String, Object> body = Map.of("messages",
        List.of(Map.of("role", "user", "content", PROBE_TEXT)));
    return post("/apply-template", body).map(j -> j.path("prompt"))
        .filter(JsonNode::isTextual).map(JsonNode::asText);
  }

  /** {@code tokens} (llama.cpp, vLLM) or {@code count} (vLLM), else empty. */
  private static OptionalInt tokenCount(JsonNode j) {
    if (j.path("tokens").isArray()) {
      return OptionalInt.of(j.path("tokens").size());
    }
    if (j.path("count").isInt()) {
      return OptionalInt.of(j.path("count").asInt());
    }
    return OptionalInt.empty();
  }

  private Optional<JsonNode> post(String path, Object body) {
    try {
      HttpRequest.Builder r = HttpRequest.newBuilder(base.resolve(path))
          .timeout(TIMEOUT).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(Json.mapper().writeValueAsString(body)));
      apiKey.ifPresent(k -> r.header("Authorization", "Bearer " + k));
      HttpResponse<byte[]> resp = BoundedHttp.send(http, r.build(), MAX_BODY, TIMEOUT);
      if (resp.statusCode() != 200) {
        return Optional.empty();
      }
      return Optional.of(Json.mapper().readTree(resp.body()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }
}
