package io.infx.client.agentx.internal;

import io.infx.client.RequestRecord;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** Sends one replayed request; the future always completes normally with the record. */
public interface Transport extends AutoCloseable {

  CompletableFuture<RequestRecord> send(byte[] body, int promptTokens,
      List<Map.Entry<String, String>> headers, boolean warmup, long intendedNanos);

  /** Requests still in flight. */
  int inFlight();

  @Override
  void close();
}
