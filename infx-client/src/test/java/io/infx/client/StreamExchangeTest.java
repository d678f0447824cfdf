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
}
