package io.infx.benchmarks.client;

import io.infx.client.sse.SseEvent;
import io.infx.client.sse.SseParser;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * SSE framing throughput on a vLLM-shaped chat stream (128 one-token chunks, ~20 KB), fed in
 * reads of {@code readSize} bytes. Run with {@code -prof gc} for allocation per operation.
 * {@code java -jar benchmarks/target/benchmarks.jar SseParseBenchmark -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SseParseBenchmark {

  @Param({"512", "8192"})
  int readSize;

  byte[] stream;
  SseParser parser;
  Blackhole bh;

  @Setup
  public void setup(Blackhole bh) {
    this.bh = bh;
    StringBuilder sb = new StringBuilder();
    String base = "{\"id\":\"chatcmpl-fast\",\"object\":\"chat.completion.chunk\",\"created\":1,"
        + "\"model\":\"tiny\",\"choices\":[{\"index\":0,\"delta\":";
    sb.append("data: ").append(base).append("{\"role\":\"assistant\",\"content\":\"\"},"
        + "\"finish_reason\":null}]}\n\n");
    for (int i = 0; i < 128; i++) {
      sb.append("data: ").append(base).append("{\"content\":\" tok").append(i % 97)
          .append("\"},\"finish_reason\":null}]}\n\n");
    }
    sb.append("data: [DONE]\n\n");
    stream = sb.toString().getBytes(StandardCharsets.UTF_8);
    parser = new SseParser(this::onEvent);
  }

  private void onEvent(SseEvent e) {
    bh.consume(e.dataLength());
  }

  /** One whole stream per operation; divide bytes/op by time/op for MB/s. */
  @Benchmark
  public long parseStream() {
    for (int off = 0; off < stream.length; off += readSize) {
      parser.feed(stream, off, Math.min(readSize, stream.length - off), off);
    }
    return parser.bytesFed();
  }
}
