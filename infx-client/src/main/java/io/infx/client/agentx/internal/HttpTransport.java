package io.infx.client.agentx.internal;

import io.infx.client.ServingBackend;
import io.infx.client.ClientOptions;
import io.infx.client.Deadlines;
import io.infx.client.InferenceRequest;
import io.infx.client.RequestRecord;
import io.infx.client.StreamingClient;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** {@link Transport} over the client's streaming engine: {@code POST /v1/chat/completions}. */
public final class HttpTransport implements Transport {

  private final StreamingClient client;

  public HttpTransport(URI baseUri, int maxConnections, Deadlines deadlines) {
    this.client = StreamingClient.create(ClientOptions.builder()
        .baseUri(baseUri)
        .maxConnections(maxConnections)
        .ioThreads(Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors())))
        .deadlines(deadlines)
        .retainText(false)
        .build());
  }

  @Override
  public CompletableFuture<RequestRecord> send(byte[] body, int promptTokens,
      List<Map.Entry<String, String>> headers, boolean warmup, long intendedNanos) {
    InferenceRequest r = new InferenceRequest(ServingBackend.Api.CHAT, "/v1/chat/completions", body, promptTokens, headers);
    return client.send(r, 0, warmup ? RequestRecord.Phase.WARMUP : RequestRecord.Phase.MEASURED, intendedNanos);
  }

  @Override
  public int inFlight() {
    return client.inFlight();
  }

  @Override
  public void close() {
    client.close();
  }
}
