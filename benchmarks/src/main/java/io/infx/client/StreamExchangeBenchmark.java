package io.infx.client;

import com.fasterxml.jackson.core.JsonFactory;
import io.infx.client.tokenizer.Tokenizer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.entity.BasicAsyncEntityProducer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The client's per-stream hot path without sockets: one {@link StreamExchange} per operation gets
 * its response head, the stream's body as HttpCore hands it over (already de-chunked) and the
 * stream's end, and builds its {@link RequestRecord} — exactly what the I/O thread runs per
 * request, minus HttpCore's own work (see {@code io.infx.benchmarks.client.LoopbackClientBenchmark}
 * for that).
 *
 * <p>Allocation per SSE event is load-independent: run with {@code -prof gc} and compare
 * {@code gc.alloc.rate.norm} (bytes per operation) between {@code events=1} and {@code events=128}:
 * (B(128) − B(1)) / 127 is what each further event costs. The target (issue 27) is 0 for the
 * shapes real engines send.
 *
 * <ul>
 *   <li>{@code shape}: {@code vllm} (vLLM's chat chunks; usage in its own final chunk),
 *       {@code llama} (llama.cpp's chat chunks: fields after {@code choices}, finish and usage
 *       with {@code timings} together), {@code llamatext} (llama.cpp's {@code /v1/completions}).
 *   <li>{@code delivery}: {@code event} (one {@code consume} per SSE event, as a decoding server
 *       flushes them), {@code buffer} (8 KiB reads, as from nginx's canned stream).
 * </ul>
 *
 * {@code java -jar benchmarks/target/benchmarks.jar StreamExchangeBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx512m"})
public class StreamExchangeBenchmark {

  @Param({"1", "128"})
  int events;

  @Param({"vllm", "llama", "llamatext"})
  String shape;

  @Param({"event", "buffer"})
  String delivery;

  /** Whether the run keeps texts ({@code --save-detailed}); bench serve's default is false. */
  @Param({"false"})
  boolean retainText;

  private final JsonFactory json = new JsonFactory();
  private InferenceRequest request;
  private ByteBuffer[] reads;
  private BasicHttpResponse head;
  private org.apache.hc.core5.http.EntityDetails entity;
  private final Tokenizer tokenizer = new CountingTokenizer();

  @Setup
  public void setup() {
    boolean chat = !shape.equals("llamatext");
    request = new InferenceRequest(chat ? ServingBackend.Api.CHAT : ServingBackend.Api.COMPLETIONS,
        chat ? "/v1/chat/completions" : "/v1/completions", new byte[] {'{', '}'}, 256);
    List<byte[]> ev = SseStreams.events(shape, events);
    if (delivery.equals("event")) {
      reads = new ByteBuffer[ev.size()];
      for (int i = 0; i < ev.size(); i++) {
        reads[i] = ByteBuffer.wrap(ev.get(i));
      }
    } else {
      int total = ev.stream().mapToInt(b -> b.length).sum();
      ByteBuffer all = ByteBuffer.allocate(total);
      ev.forEach(all::put);
      byte[] whole = all.array();
      List<ByteBuffer> r = new ArrayList<>();
      for (int off = 0; off < whole.length; off += 8192) {
        r.add(ByteBuffer.wrap(whole, off, Math.min(8192, whole.length - off)).slice());
      }
      reads = r.toArray(ByteBuffer[]::new);
    }
    head = new BasicHttpResponse(200, "OK");
    entity = new BasicAsyncEntityProducer(new byte[0], ContentType.create("text/event-stream"));
  }

  /** One whole stream: head, body, end, record. */
  @Benchmark
  public RequestRecord stream() throws Exception {
    StreamExchange x = new StreamExchange(json, request, 0, RequestRecord.Phase.MEASURED, 0L,
        retainText, tokenizer);
    x.consumeResponse(head, entity, null, null);
    for (ByteBuffer b : reads) {
      b.rewind();
      x.consume(b);
    }
    x.streamEnd(null);
    return x.result.getNow(null);
  }

  /** Counts one token per whitespace-separated word; never called on the hot path. */
  private static final class CountingTokenizer implements Tokenizer {
    @Override
    public String id() {
      return "words";
    }

    @Override
    public int vocabSize() {
      return 1 << 16;
    }

    @Override
    public int[] encode(String text) {
      return new int[text.isBlank() ? 0 : text.strip().split("\\s+").length];
    }

    @Override
    public String decode(int[] ids) {
      return "";
    }
  }

  /** The SSE events of one stream, each with its terminating blank line, as real engines send. */
  static final class SseStreams {
    private SseStreams() {}

    static List<byte[]> events(String shape, int tokens) {
      List<String> out = new ArrayList<>();
      String[] words = {" the", " caf\\u00e9", " \u0441\u043b\u043e\u0432\u0430", "\\n",
          " \\\"quoted\\\"", " \u65e5\u672c", " ok", " tok"};
      switch (shape) {
        case "vllm" -> {
          String base = "{\"id\":\"chatcmpl-8e3c1f2a9b7d4e6f\",\"object\":\"chat.completion.chunk\","
              + "\"created\":1796146269,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":"
              + "[{\"index\":0,\"delta\":";
          out.add("data: " + base + "{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
              + "\"finish_reason\":null}]}\n\n");
          for (int i = 0; i < tokens; i++) {
            out.add("data: " + base + "{\"content\":\"" + words[i % words.length]
                + "\"},\"logprobs\":null,\"finish_reason\":" + (i == tokens - 1 ? "\"length\"" : "null")
                + "}]}\n\n");
          }
          out.add("data: {\"id\":\"chatcmpl-8e3c1f2a9b7d4e6f\",\"object\":\"chat.completion.chunk\","
              + "\"created\":1796146269,\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"choices\":[],"
              + "\"usage\":{\"prompt_tokens\":256,\"total_tokens\":" + (256 + tokens)
              + ",\"completion_tokens\":" + tokens + "}}\n\n");
        }
        case "llama", "llamatext" -> {
          boolean chat = shape.equals("llama");
          String meta = "\"created\":1796146269,\"id\":\"chatcmpl-0zsPJXW0XUqHmAznpHm8t8p0xho5m0kA\","
              + "\"model\":\"tiny\",\"system_fingerprint\":\"b1-de3ff81\",\"object\":\""
              + (chat ? "chat.completion.chunk" : "text_completion") + "\"";
          for (int i = 0; i < tokens; i++) {
            String w = words[i % words.length];
            String role = chat && i == 0
                ? "data: {\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"role\":"
                    + "\"assistant\",\"content\":null}}]," + meta + "}\n\n" : "";
            out.add(role + (chat
                ? "data: {\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":\""
                    + w + "\"}}]," + meta + "}\n\n"
                : "data: {\"choices\":[{\"text\":\"" + w + "\",\"index\":0,\"logprobs\":null,"
                    + "\"finish_reason\":null}]," + meta + "}\n\n"));
          }
          String usage = "\"usage\":{\"completion_tokens\":" + tokens + ",\"prompt_tokens\":256,"
              + "\"total_tokens\":" + (256 + tokens) + ",\"prompt_tokens_details\":{\"cached_tokens\":"
              + "0}},\"timings\":{\"cache_n\":0,\"prompt_n\":256,\"prompt_ms\":9.651,"
              + "\"prompt_per_token_ms\":0.037699999999999997,\"prompt_per_second\":"
              + "26525.749663247332,\"predicted_n\":" + tokens + ",\"predicted_ms\":47.666,"
              + "\"predicted_per_token_ms\":0.7360833333333333,\"predicted_per_second\":"
              + "1358.5418318804483}}\n\n";
          out.add(chat
              ? "data: {\"choices\":[{\"finish_reason\":\"length\",\"index\":0,\"delta\":{}}],"
                  + meta + "}\n\ndata: {\"choices\":[]," + meta + "," + usage
              : "data: {\"choices\":[{\"text\":\"\",\"index\":0,\"logprobs\":null,"
                  + "\"finish_reason\":\"length\"}]," + meta + "," + usage);
        }
        default -> throw new IllegalArgumentException("shape: vllm | llama | llamatext");
      }
      out.add("data: [DONE]\n\n");
      List<byte[]> b = new ArrayList<>(out.size());
      for (String s : out) {
        b.add(s.getBytes(StandardCharsets.UTF_8));
      }
      return b;
    }
  }
}
