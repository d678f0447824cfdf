package io.infx.client.agentx.internal;

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
 * Writes the streaming Chat Completions body of one replayed turn: the transcript's messages as
 * synthesized text, the play's cache-bust marker first in the first user message, exactly
 * {@code in} content tokens, {@code max_tokens} = the recorded output (1 for warmup) and
 * {@code ignore_eos} so the full length is generated.
 */
public final class PromptWriter {

  private static final JsonFactory FACTORY = Json.mapper().getFactory();

  private final BlockText blocks;
  private final int blockSize;
  private final String model;
  private final Map<String, Object> extraBody;

  public PromptWriter(BlockText blocks, int blockSize, String model, Map<String, Object> extraBody) {
    this.blocks = blocks;
    this.blockSize = blockSize;
    this.model = model;
    this.extraBody = Map.copyOf(extraBody);
  }

  /** What was written: the body and its content tokens. */
  record Body(byte[] bytes, int contentTokens) {}

  /**
   * @param namespace hash-id namespace (the trace's, or 0 for corpus-global ids)
   * @param messages the transcript of the turn
   * @param inputTokens the recorded {@code in}: content tokens to write
   * @param marker the play's cache-bust marker ({@code [rid:…]} and a blank line) or empty
   * @param fillerKey seed of the unhashed tail, unique per request
   * @param maxTokens {@code max_tokens}
   */
  Body write(long namespace, List<Transcript.Message> messages, int inputTokens, String marker,
      long fillerKey, int maxTokens) {
    int totalBlocks = 0;
    for (Transcript.Message m : messages) {
      totalBlocks += m.blocks().length;
    }
    // the last block is cut short, or an unhashed tail added, so content == inputTokens
    long full = (long) totalBlocks * blockSize;
    int lastBlockTokens = blockSize;
    int filler = 0;
    if (totalBlocks > 0 && inputTokens <= full && inputTokens > full - blockSize) {
      lastBlockTokens = (int) (inputTokens - (full - blockSize));
    } else if (inputTokens > full) {
      filler = (int) (inputTokens - full);
    }
    int written = 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, inputTokens * 6));
    boolean markerDone = marker.isEmpty();
    int seenBlocks = 0;
    try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
      g.writeStartObject();
      g.writeStringField("model", model);
      g.writeArrayFieldStart("messages");
      StringBuilder sb = new StringBuilder();
      for (int mi = 0; mi < messages.size(); mi++) {
        Transcript.Message m = messages.get(mi);
        sb.setLength(0);
        if (!markerDone && m.role().equals(Transcript.USER)) {
          sb.append(marker);
          markerDone = true;
        }
        for (int id : m.blocks()) {
          seenBlocks++;
          int tokens = seenBlocks == totalBlocks ? lastBlockTokens : blockSize;
          blocks.append(sb, blocks.key(namespace, id), tokens, blockSize);
          written += tokens;
        }
        if (mi == messages.size() - 1 && filler > 0) {
          blocks.append(sb, fillerKey, filler, filler);
          written += filler;
        }
        g.writeStartObject();
        g.writeStringField("role", m.role());
        g.writeStringField("content", sb.toString());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeNumberField("max_tokens", maxTokens);
      g.writeBooleanField("stream", true);
      g.writeObjectFieldStart("stream_options");
      g.writeBooleanField("include_usage", true);
      g.writeEndObject();
      g.writeBooleanField("ignore_eos", true);
      for (Map.Entry<String, Object> e : extraBody.entrySet()) {
        g.writeFieldName(e.getKey());
        Json.mapper().writeValue(g, e.getValue());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new Body(out.toByteArray(), written);
  }
}
