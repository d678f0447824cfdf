package io.infx.client.agentx.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.infx.core.json.Json;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Writes the streaming Chat Completions body of one replayed turn: the transcript's messages as
 * synthesized text, the play's cache-bust marker first in the first user message, exactly
 * {@code in} content tokens, {@code max_tokens} = the recorded output (1 for warmup) and
 * {@code ignore_eos} so the full length is generated.
 *
 * <p>The body is written as UTF-8 bytes straight from the synthesizer into a per-thread buffer
 * and copied out once, so a prompt of 100k tokens costs one allocation of its own size.
 */
public final class PromptWriter {

  private static final ThreadLocal<JsonBytes> BUFFER = ThreadLocal.withInitial(() -> new JsonBytes(1 << 16));
  private static final int KEEP_BUFFER_BYTES = 8 << 20;

  private final BlockText blocks;
  private final int blockSize;
  private final byte[] head;
  private final byte[] tail;

  public PromptWriter(BlockText blocks, int blockSize, String model, Map<String, Object> extraBody) {
    this.blocks = blocks;
    this.blockSize = blockSize;
    JsonBytes h = new JsonBytes(256);
    h.raw("{\"model\":").string(model).raw(",\"messages\":[");
    this.head = h.toByteArray();
    StringBuilder t = new StringBuilder(",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true");
    try {
      for (Map.Entry<String, Object> e : extraBody.entrySet()) {
        t.append(',').append(Json.mapper().writeValueAsString(e.getKey())).append(':')
            .append(Json.mapper().writeValueAsString(e.getValue()));
      }
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    t.append('}');
    this.tail = t.toString().getBytes(StandardCharsets.UTF_8);
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
    JsonBytes out = BUFFER.get();
    out.reset();
    BlockText.Sink sink = out::escaped;
    int written = 0;
    boolean markerDone = marker.isEmpty();
    int seenBlocks = 0;
    out.raw(head);
    for (int mi = 0; mi < messages.size(); mi++) {
      Transcript.Message m = messages.get(mi);
      out.raw(mi == 0 ? "{\"role\":" : ",{\"role\":").string(m.role()).raw(",\"content\":\"");
      if (!markerDone && m.role().equals(Transcript.USER)) {
        out.escaped(marker);
        markerDone = true;
      }
      for (int id : m.blocks()) {
        seenBlocks++;
        int tokens = seenBlocks == totalBlocks ? lastBlockTokens : blockSize;
        blocks.append(sink, blocks.key(namespace, id), tokens, blockSize);
        written += tokens;
      }
      if (mi == messages.size() - 1 && filler > 0) {
        blocks.append(sink, fillerKey, filler, filler);
        written += filler;
      }
      out.raw("\"}");
    }
    out.raw("],\"max_tokens\":").number(maxTokens).raw(tail);
    byte[] bytes = out.toByteArray();
    if (out.capacity() > KEEP_BUFFER_BYTES) {
      BUFFER.remove(); // do not keep a huge buffer after a huge prompt
    }
    return new Body(bytes, written);
  }
}
