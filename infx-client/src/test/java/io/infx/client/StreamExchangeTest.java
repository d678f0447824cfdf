package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.junit.jupiter.api.Test;

/** Chunk semantics, fed straight into the response consumer (no network). */
class StreamExchangeTest {

  private static RequestRecord feed(ServingBackend.Api api, String... reads) throws Exception {
    InferenceRequest req = new InferenceRequest(api, "/x", new byte[0], 7);
    StreamExchange x = new StreamExchange(new JsonFactory(), req, 0, RequestRecord.Phase.MEASURED,
        0, true, null, io.infx.client.sse.SseParser.DEFAULT_MAX_EVENT_BYTES);
    x.consumeResponse(new BasicHttpResponse(200),
        new BasicEntityDetails(-1, ContentType.parse("text/event-stream")), null, null);
    for (String r : reads) {
      x.consume(ByteBuffer.wrap(r.getBytes(StandardCharsets.UTF_8)));
      Thread.sleep(2); // distinct arrival times
    }
    x.streamEnd(List.of());
    return x.result.get(1, TimeUnit.SECONDS);
  }

  private static String chat(String delta) {
    return "data: {\"choices\":[{\"index\":0,\"delta\":" + delta + "}]}\n\n";
  }

  @Test
  void rolePreludeAndEmptyContentNeverStartTtftButReasoningDoes() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.CHAT,
        ": keep-alive\n\n",
        chat("{\"role\":\"assistant\",\"content\":\"\"}"),
        chat("{\"content\":\"\"}"),
        chat("{\"reasoning_content\":\"think\"}"),
        chat("{\"content\":\"Hello\"}"),
        "data:{\"choices\":[],\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":2}}\n\n",
        "data: [DONE]\n\n");
    assertThat(r.success()).as(r.toString()).isTrue();
    assertThat(r.tokenChunks()).isEqualTo(2); // reasoning + content
    assertThat(r.firstChoicesNanos().getAsLong()).isLessThan(r.firstTokenNanos().getAsLong());
    assertThat(r.firstContentNanos().getAsLong()).isGreaterThan(r.firstTokenNanos().getAsLong());
    assertThat(r.generatedText()).isEqualTo("Hello");
    assertThat(r.outputTokens()).isEqualTo(2);
    assertThat(r.outputTokenSource()).isEqualTo(TokenSource.USAGE);
    assertThat(r.doneSeen()).isTrue();
    // chat E2EL ends at the last JSON chunk (the usage chunk), as the reference
    assertThat(r.e2elEndNanos().getAsLong()).isGreaterThan(r.tokenChunkNanos(1));
  }

  @Test
  void toolCallDeltasCountAsTokens() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.CHAT,
        chat("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"a\\\"\"}}]}"),
        chat("{\"tool_calls\":[]}"));
    assertThat(r.tokenChunks()).isEqualTo(1);
    assertThat(r.outputTokenSource()).isEqualTo(TokenSource.CHUNKS);
  }

  @Test
  void usageOnTheLastChunkWithChoicesIsReadLikeLlamaCpp() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.COMPLETIONS,
        "data: {\"choices\":[{\"text\":\"a\"}]}\n\n",
        "data: {\"choices\":[{\"text\":\"b\",\"finish_reason\":\"length\"}],"
            + "\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":2}}\n\n");
    assertThat(r.outputTokens()).isEqualTo(2);
    assertThat(r.outputTokenSource()).isEqualTo(TokenSource.USAGE);
    assertThat(r.e2elEndNanos().getAsLong()).isEqualTo(r.tokenChunkNanos(1));
  }

  @Test
  void chunksSplitAnywhereGiveTheSameRecordShape() throws Exception {
    String all = chat("{\"content\":\"é\"}") + chat("{\"content\":\"日本\"}");
    byte[] b = all.getBytes(StandardCharsets.UTF_8);
    String[] reads = new String[] {
        new String(b, 0, 17, StandardCharsets.UTF_8), new String(b, 17, b.length - 17,
            StandardCharsets.UTF_8)};
    // split at an ASCII boundary through Strings; byte-level splits are the SSE property test's job
    RequestRecord r = feed(ServingBackend.Api.CHAT, reads);
    assertThat(r.tokenChunks()).isEqualTo(2);
    assertThat(r.generatedText()).isEqualTo("é日本");
  }

  @Test
  void malformedTruncatedOrTrailingChunksAreDecodeFailures() throws Exception {
    for (String bad : new String[] {
        "data: {\"choices\": [{\"text\": \"x\"\n\n",
        "data: {\"choices\":[{\"text\":\"x\"}]} trailing\n\n",
        "data: [1,2]\n\n",
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"a\":\n\n"}) {
      RequestRecord r = feed(ServingBackend.Api.COMPLETIONS,
          "data: {\"choices\":[{\"text\":\"ok\"}]}\n\n", bad,
          "data: {\"choices\":[{\"text\":\"later\"}]}\n\n");
      assertThat(r.failure().orElseThrow().kind()).as(bad).isEqualTo(FailureClass.DECODE);
    }
  }

  @Test
  void inStreamErrorObjectFailsTheRequest() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.CHAT,
        "data: {\"error\":{\"message\":\"boom\",\"code\":500}}\n\n");
    assertThat(r.failure().orElseThrow().kind()).isEqualTo(FailureClass.STREAM);
    assertThat(r.failure().orElseThrow().message()).contains("boom");
  }

  @Test
  void okStreamWithoutTokensFails() throws Exception {
    RequestRecord r = feed(ServingBackend.Api.CHAT, chat("{\"role\":\"assistant\"}"), "data: [DONE]\n\n");
    assertThat(r.failure().orElseThrow().kind()).isEqualTo(FailureClass.STREAM);
  }

  /** Counts whitespace-separated words: a tokenizer whose counts the test can derive by eye. */
  private static final io.infx.client.tokenizer.Tokenizer WORDS = new io.infx.client.tokenizer.Tokenizer() {
    @Override
    public String id() {
      return "words";
    }

    @Override
    public int vocabSize() {
      return 1000;
    }

    @Override
    public int[] encode(String text) {
      return new int[text.isBlank() ? 0 : text.strip().split("\\s+").length];
    }

    @Override
    public String decode(int[] ids) {
      return "";
    }
  };

  /** Two exchanges in flight at once on this thread, fed alternately, with the word tokenizer. */
  private static RequestRecord[] interleaved(List<String> a, List<String> b) throws Exception {
    InferenceRequest req = new InferenceRequest(ServingBackend.Api.CHAT, "/x", new byte[0], 7);
    StreamExchange[] xs = new StreamExchange[2];
    for (int k = 0; k < 2; k++) {
      xs[k] = new StreamExchange(new JsonFactory(), req, k, RequestRecord.Phase.MEASURED, 0, false,
          WORDS, io.infx.client.sse.SseParser.DEFAULT_MAX_EVENT_BYTES);
      xs[k].consumeResponse(new BasicHttpResponse(200),
          new BasicEntityDetails(-1, ContentType.parse("text/event-stream")), null, null);
    }
    for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
      if (i < a.size()) {
        xs[0].consume(ByteBuffer.wrap(a.get(i).getBytes(StandardCharsets.UTF_8)));
      }
      if (i < b.size()) {
        xs[1].consume(ByteBuffer.wrap(b.get(i).getBytes(StandardCharsets.UTF_8)));
      }
    }
    xs[0].streamEnd(List.of());
    xs[1].streamEnd(List.of());
    return new RequestRecord[] {xs[0].result.get(1, TimeUnit.SECONDS), xs[1].result.get(1, TimeUnit.SECONDS)};
  }

  /** A stream of {@code chunks} content chunks of {@code words} words each, usage counting them all. */
  private static List<String> stream(int chunks, int words, String word) {
    List<String> out = new java.util.ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      out.add(chat("{\"content\":\"" + (" " + word + i).repeat(words) + "\"}"));
    }
    // usage without per-chunk counts: per-token ITL is attributed from the chunk texts later
    out.add("data: {\"choices\":[],\"usage\":{\"completion_tokens\":" + chunks * words + "}}\n\n");
    out.add("data: [DONE]\n\n");
    return out;
  }

  /**
   * The I/O thread's buffers are reused by later exchanges (no allocation per event once warm):
   * streams that run after, and beside, longer ones on the same thread get exactly the records a
   * fresh thread gives them — and a record whose per-token ITL is attributed later, from its
   * chunk texts, still has its own texts after its buffers went back to the pool.
   */
  @Test
  void buffersReusedAcrossStreamsOnOneThreadGiveTheSameRecords() throws Exception {
    List<String> longA = stream(300, 3, "alpha");
    List<String> longB = stream(200, 1, "beta");
    List<String> shortC = stream(5, 2, "gamma");
    List<String> shortD = stream(3, 4, "delta");
    RequestRecord[] fresh = new RequestRecord[2];
    Thread t = new Thread(() -> {
      try {
        RequestRecord[] r = interleaved(shortC, shortD);
        fresh[0] = r[0];
        fresh[1] = r[1];
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    t.start();
    t.join();
    RequestRecord[] warm = interleaved(longA, longB); // grows this thread's buffers
    RequestRecord[] reused = interleaved(shortC, shortD); // borrows them back
    for (int k = 0; k < 2; k++) {
      warm[k].resolveItl();
      reused[k].resolveItl();
      fresh[k].resolveItl();
      assertThat(reused[k].tokenChunks()).isEqualTo(fresh[k].tokenChunks());
      assertThat(reused[k].outputTokens()).isEqualTo(fresh[k].outputTokens());
      assertThat(reused[k].itlPolicy()).isEqualTo(fresh[k].itlPolicy());
      assertThat(reused[k].tokensPerChunk().orElseThrow()).containsExactly(fresh[k].tokensPerChunk().orElseThrow());
    }
    // derived by eye: every chunk of C has 2 words, of D 4, of A 3, of B 1
    assertThat(reused[0].tokensPerChunk().orElseThrow()).containsOnly(2).hasSize(5);
    assertThat(reused[1].tokensPerChunk().orElseThrow()).containsOnly(4).hasSize(3);
    assertThat(warm[0].tokensPerChunk().orElseThrow()).containsOnly(3).hasSize(300);
    assertThat(warm[1].tokensPerChunk().orElseThrow()).containsOnly(1).hasSize(200);
  }
}
