package io.infx.client;

import io.infx.core.io.BoundedHttp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** {@code POST /start_profile} and {@code /stop_profile}, as the reference client sends them. */
final class ProfilerCalls {

  private ProfilerCalls() {}

  /**
   * Calls {@code path} on the server of {@code options}; profilers take a while to start and to
   * write their traces, so the call may take up to 10 minutes (head and body; at most 1 MiB of
   * answer is read).
   *
   * @return why the call failed, or empty when the server answered 2xx
   */
  static Optional<String> call(ClientOptions options, String path) {
    URI base = options.baseUri();
    URI uri = base.resolve(base.getPath().endsWith("/") ? path.substring(1) : base.getPath() + path);
    HttpRequest.Builder req = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{}"));
    options.apiKey().ifPresent(k -> req.header("Authorization", "Bearer " + k));
    try {
      HttpResponse<byte[]> r = BoundedHttp.send(
          HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build(), req.build(),
          1 << 20, Duration.ofMinutes(10));
      return r.statusCode() / 100 == 2 ? Optional.empty()
          : Optional.of(path + " answered HTTP " + r.statusCode() + " (is the server's profiler enabled?)");
    } catch (java.io.IOException e) {
      return Optional.of(path + " failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of(path + " interrupted");
    }
  }
}
