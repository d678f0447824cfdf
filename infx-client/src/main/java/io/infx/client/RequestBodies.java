package io.infx.client;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.infx.core.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Builds request bodies exactly as the reference client does (key order included; client spec
 * §3.2 and §3.3), plus the opt-in {@code continuous_usage_stats}.
 */
public final class RequestBodies {

  private static final JsonFactory FACTORY = Json.mapper().getFactory();

  private RequestBodies() {}

  /**
   * A Completions body: {@code model, prompt, temperature, best_of, max_tokens, logprobs, stream,
   * stream_options, [ignore_eos], extras...}.
   */
  public static byte[] completions(String model, String prompt, int maxTokens, BodyOptions o) {
    return write(g -> {
      g.writeStringField("model", model);
      g.writeStringField("prompt", prompt);
      g.writeNumberField("temperature", o.temperature());
      g.writeNumberField("best_of", o.bestOf());
      g.writeNumberField("max_tokens", maxTokens);
      if (o.logprobs().isPresent()) {
        g.writeNumberField("logprobs", o.logprobs().getAsInt());
      } else {
        g.writeNullField("logprobs");
      }
      tail(g, o);
    });
  }

  /**
   * A Chat Completions body: {@code model, messages, temperature, max_completion_tokens, stream,
   * stream_options, [ignore_eos], extras...}.
   */
  public static byte[] chat(String model, List<ChatMessage> messages, int maxTokens, BodyOptions o) {
    return write(g -> {
      g.writeStringField("model", model);
      g.writeArrayFieldStart("messages");
      for (ChatMessage m : messages) {
        g.writeStartObject();
        g.writeStringField("role", m.role());
        g.writeStringField("content", m.content());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeNumberField("temperature", o.temperature());
      g.writeNumberField("max_completion_tokens", maxTokens);
      tail(g, o);
    });
  }

  /** A body for {@code api}: a single user message for chat, a prompt for completions. */
  public static byte[] forApi(ServingBackend.Api api, String model, String prompt, int maxTokens,
      BodyOptions o) {
    return api == ServingBackend.Api.CHAT
        ? chat(model, List.of(ChatMessage.user(prompt)), maxTokens, o)
        : completions(model, prompt, maxTokens, o);
  }

  private static void tail(JsonGenerator g, BodyOptions o) throws IOException {
    g.writeBooleanField("stream", true);
    g.writeObjectFieldStart("stream_options");
    g.writeBooleanField("include_usage", true);
    if (o.continuousUsageStats()) {
      g.writeBooleanField("continuous_usage_stats", true);
    }
    g.writeEndObject();
    if (o.ignoreEos()) {
      g.writeBooleanField("ignore_eos", true);
    }
    for (Map.Entry<String, Object> e : o.extraBody().entrySet()) {
      g.writeFieldName(e.getKey());
      Json.mapper().writeValue(g, e.getValue());
    }
  }

  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private static byte[] write(Body body) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      body.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
