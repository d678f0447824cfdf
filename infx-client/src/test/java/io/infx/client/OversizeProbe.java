package io.infx.client;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM with a small heap by {@link OversizeTest}: one never-ending {@code data:}
 * line next to two normal streams at the default SSE limit, then one more normal request on the
 * same client; prints one {@code label tokens} line per request.
 */
public final class OversizeProbe {

  public static void main(String[] args) throws Exception {
    try (HostileServer server = new HostileServer();
        StreamingClient c = StreamingClient.create(ClientOptions.builder().baseUri(server.uri())
            .maxConnections(4).deadlines(Deadlines.all(Duration.ofSeconds(60))).build())) {
      List<CompletableFuture<RequestRecord>> fs = new ArrayList<>();
      for (String prompt : List.of("endless", "normal 1", "normal 2")) {
        fs.add(c.send(request(prompt)));
      }
      for (CompletableFuture<RequestRecord> f : fs) {
        print(f.get(60, TimeUnit.SECONDS));
      }
      print(c.send(request("after")).get(60, TimeUnit.SECONDS));
      System.out.println("endless bytes sent " + server.endlessBytes.get());
    }
  }

  static InferenceRequest request(String prompt) {
    byte[] body = RequestBodies.completions("m", prompt, 3, BodyOptions.builder().build());
    return new InferenceRequest(ServingBackend.Api.COMPLETIONS, "/v1/completions", body, 2);
  }

  private static void print(RequestRecord r) {
    System.out.println((r.success() ? "ok" : r.failure().get().kind().label()) + " "
        + r.outputTokens());
  }
}
