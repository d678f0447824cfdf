package io.infx.client;

import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.InfxStyle;
import java.net.URI;
import java.util.Optional;
import java.util.OptionalInt;
import org.immutables.value.Value;

/**
 * Settings of a {@link StreamingClient}. The connection pool is sized from
 * {@link #maxConnections()} — set it to the load model's concurrency; there is no other cap.
 */
@Value.Immutable
@InfxStyle
public abstract class ClientOptions {

  /** Scheme, host and port, e.g. {@code http://127.0.0.1:8000}; endpoints are appended. */
  public abstract URI baseUri();

  /** Pool size (total and per route). Default 256. */
  @Value.Default
  public int maxConnections() {
    return 256;
  }

  /**
   * I/O reactor threads when given; empty (the default) lets {@link #ioThreadChoice()} pick by
   * where the server runs: one for a server on loopback, else one per available processor.
   */
  public abstract OptionalInt ioThreads();

  /** The reactor thread count this client runs and why (see {@link IoThreads#choose}). */
  public IoThreads ioThreadChoice() {
    return IoThreads.choose(ioThreads(), baseUri(), Runtime.getRuntime().availableProcessors());
  }

  /** Use HTTP/2 (cleartext prior knowledge) instead of HTTP/1.1 keep-alive. */
  @Value.Default
  public boolean http2() {
    return false;
  }

  @Value.Default
  public Deadlines deadlines() {
    return Deadlines.defaults();
  }

  /** Sent as {@code Authorization: Bearer <key>}; never logged or saved. No header when absent. */
  public abstract Optional<String> apiKey();

  /** Keep each request's generated text (for detailed output and the tokenizer fallback). */
  @Value.Default
  public boolean retainText() {
    return true;
  }

  /** Counts output tokens from the text when a server reports no usage. */
  public abstract Optional<Tokenizer> fallbackTokenizer();

  /** Per-connection I/O buffer size in bytes (HttpCore's session buffer). Default 8192. */
  @Value.Default
  public int bufferSize() {
    return 8192;
  }

  /**
   * Longest SSE line or event (bytes) a stream may send; a longer one fails that request with
   * {@link FailureClass#OVERSIZE}. Default {@link io.infx.client.sse.SseParser#DEFAULT_MAX_EVENT_BYTES}
   * (8 MiB). Each in-flight stream buffers at most about twice this.
   */
  @Value.Default
  public int maxSseEventBytes() {
    return io.infx.client.sse.SseParser.DEFAULT_MAX_EVENT_BYTES;
  }

  /** HTTP/1.1 connection reuse; {@link ConnectionReuse#AUTO} by default. */
  @Value.Default
  public ConnectionReuse connectionReuse() {
    return ConnectionReuse.AUTO;
  }

  @Value.Check
  protected void check() {
    if (maxConnections() < 1 || ioThreads().orElse(1) < 1 || bufferSize() < 512) {
      throw new IllegalArgumentException("maxConnections and ioThreads must be ≥ 1, bufferSize ≥ 512");
    }
    if (maxSseEventBytes() < 64) {
      throw new IllegalArgumentException("maxSseEventBytes must be ≥ 64, got " + maxSseEventBytes());
    }
  }

  public static ImmutableClientOptions.Builder builder() {
    return ImmutableClientOptions.builder();
  }

  @Override
  public String toString() {
    // never print the API key
    return "ClientOptions{baseUri=" + baseUri() + ", maxConnections=" + maxConnections()
        + ", ioThreads=" + ioThreadChoice().count() + ", http2=" + http2() + ", connectionReuse=" + connectionReuse() + ", deadlines=" + deadlines()
        + ", apiKey=" + (apiKey().isPresent() ? "***" : "none") + "}";
  }
}
