package io.infx.benchmarks.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of reading one typical ~190 B chat chunk with Jackson's streaming parser the way the
 * client does (parser per chunk, skip what is not needed, look at {@code choices[].delta}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChunkDecodeBenchmark {

  final JsonFactory json = new JsonFactory();
  final byte[] chunk = ("{\"id\":\"chatcmpl-fast\",\"object\":\"chat.completion.chunk\","
      + "\"created\":1,\"model\":\"tiny\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
      + "\" tok42\"},\"finish_reason\":null}]}").getBytes(StandardCharsets.UTF_8);

  JsonParser nb;

  /** The client's way: one non-blocking parser per stream, fed chunk by chunk. */
  @Benchmark
  public int decodeFed() throws IOException {
    if (nb == null) {
      nb = json.createNonBlockingByteArrayParser();
    }
    ((com.fasterxml.jackson.core.async.ByteArrayFeeder) nb.getNonBlockingInputFeeder())
        .feedInput(chunk, 0, chunk.length);
    int n = walk(nb);
    nb.nextToken(); // NOT_AVAILABLE: input consumed
    return n;
  }

  /** For comparison: a new parser per chunk (what the client did first). */
  @Benchmark
  public int decode() throws IOException {
    try (JsonParser p = json.createParser(chunk, 0, chunk.length)) {
      return walk(p);
    }
  }

  private static int walk(JsonParser p) throws IOException {
    int content = 0;
    {
      p.nextToken();
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        JsonToken v = p.nextToken();
        if (name.equals("choices") && v == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
              String f = p.currentName();
              JsonToken fv = p.nextToken();
              if (f.equals("delta") && fv == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                  p.nextToken();
                  content += p.getTextLength();
                }
              } else {
                p.skipChildren();
              }
            }
          }
        } else {
          p.skipChildren();
        }
      }
    }
    return content;
  }
}
