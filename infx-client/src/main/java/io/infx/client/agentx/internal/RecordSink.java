package io.infx.client.agentx.internal;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Streams records to {@code profile_export.jsonl} on its own thread (the scheduler never waits on
 * the disk) into a hidden temporary sibling that is renamed into place when the run ends, so a
 * crashed run never leaves a half-written export under the final name.
 */
final class RecordSink implements AutoCloseable {

  private static final ReplayRecord END = ReplayRecord.builder().sessionNum(0).requestId("")
      .correlationId("").rootCorrelationId("").conversationId("").turnIndex(0).warmup(false)
      .startNs(0).endNs(0).inputTokens(0).hitBlocks(0).totalBlocks(0).build();

  private final Path target;
  private final Path tmp;
  private final BlockingQueue<ReplayRecord> queue = new ArrayBlockingQueue<>(65_536);
  private final Thread writer;
  private volatile IOException failure;

  RecordSink(Path target) {
    this.target = target;
    try {
      Files.createDirectories(target.toAbsolutePath().getParent());
      this.tmp = Files.createTempFile(target.toAbsolutePath().getParent(), "." + target.getFileName() + ".", ".tmp");
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot create " + target + ": " + e.getMessage(), e);
    }
    this.writer = new Thread(this::drain, "infx-agentx-records");
    writer.setDaemon(true);
    writer.start();
  }

  void add(ReplayRecord r) {
    try {
      queue.put(r);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void drain() {
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16);
        JsonGenerator g = generator(out)) {
      while (true) {
        ReplayRecord r = queue.take();
        if (r == END) {
          break;
        }
        write(g, r);
      }
    } catch (IOException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Flushes and renames the export into place. */
  @Override
  public void close() {
    add(END);
    try {
      writer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (failure != null) {
        throw failure;
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new InfxException(ErrorKind.FILE, "cannot write " + target + ": " + e.getMessage(), e);
    }
  }

  /** One generator for the whole file: records are root values separated by newlines. */
  static JsonGenerator generator(OutputStream out) throws IOException {
    JsonGenerator g = Json.mapper().getFactory().createGenerator(out, JsonEncoding.UTF8);
    g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    g.setRootValueSeparator(null);
    return g;
  }

  static void write(JsonGenerator g, ReplayRecord r) throws IOException {
    g.writeStartObject();
    g.writeObjectFieldStart("metadata");
    g.writeNumberField("session_num", r.sessionNum());
    g.writeStringField("x_request_id", r.requestId());
    g.writeStringField("x_correlation_id", r.correlationId());
    g.writeStringField("conversation_id", r.conversationId());
    g.writeNumberField("turn_index", r.turnIndex());
    g.writeNumberField("request_start_ns", r.startNs());
    if (r.ackNs() > 0) {
      g.writeNumberField("request_ack_ns", r.ackNs());
    } else {
      g.writeNullField("request_ack_ns");
    }
    g.writeNumberField("request_end_ns", r.endNs());
    g.writeStringField("worker_id", "infx-agentx");
    g.writeStringField("record_processor_id", "infx-agentx");
    g.writeStringField("benchmark_phase", r.warmup() ? "warmup" : "profiling");
    g.writeBooleanField("was_cancelled", r.cancelled());
    if (r.cancelled()) {
      g.writeNumberField("cancellation_time_ns", r.cancellationNs());
    } else {
      g.writeNullField("cancellation_time_ns");
    }
    g.writeStringField("root_correlation_id", r.rootCorrelationId());
    if (!r.warmup()) {
      g.writeNumberField("schedule_lateness_ms", r.latenessMs()); // infx extension
    }
    g.writeEndObject();
    g.writeObjectFieldStart("metrics");
    if (r.error()) {
      metric(g, "error_isl", r.inputTokens(), "tokens");
    } else {
      metric(g, "input_sequence_length", r.inputTokens(), "tokens");
      metric(g, "output_sequence_length", r.outputTokens(), "tokens");
      metric(g, "time_to_first_token", r.ttftMs(), "ms");
      metric(g, "request_latency", r.latencyMs(), "ms");
      metric(g, "inter_token_latency", r.itlMs(), "ms");
      if (Double.isFinite(r.itlMs()) && r.itlMs() > 0) {
        metric(g, "output_token_throughput_per_user", 1000.0 / r.itlMs(), "tokens/sec/user");
      }
      metric(g, "full_response_inter_token_latency", r.fullResponseItlMs(), "ms");
    }
    g.writeEndObject();
    if (r.failure().isPresent()) {
      ReplayRecord.Failure f = r.failure().get();
      g.writeObjectFieldStart("error");
      g.writeNumberField("code", f.code());
      g.writeStringField("type", f.type());
      g.writeStringField("message", f.message());
      g.writeEndObject();
    } else {
      g.writeNullField("error");
    }
    g.writeEndObject();
    g.writeRaw('\n');
  }

  private static void metric(JsonGenerator g, String name, double value, String unit) throws IOException {
    if (!Double.isFinite(value)) {
      return;
    }
    g.writeObjectFieldStart(name);
    if (value == Math.rint(value) && Math.abs(value) < 1e15 && unit.equals("tokens")) {
      g.writeNumberField("value", (long) value);
    } else {
      g.writeNumberField("value", value);
    }
    g.writeStringField("unit", unit);
    g.writeEndObject();
  }
}
