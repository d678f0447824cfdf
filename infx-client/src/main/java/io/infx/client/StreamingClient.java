package io.infx.client;

import com.fasterxml.jackson.core.JsonFactory;
import io.infx.client.internal.ReuseGuard;
import io.infx.core.UsageException;
import io.infx.core.secret.Redactor;
import java.net.URI;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.pool.PoolReusePolicy;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The async streaming request engine: sends OpenAI-compatible streaming requests over Apache
 * HttpClient 5 (one I/O reactor, HTTP/1.1 keep-alive pool or HTTP/2) and completes each with a
 * {@link RequestRecord} holding chunk arrival timestamps, token counts and a classified failure.
 *
 * <pre>{@code
 * try (StreamingClient client = StreamingClient.create(ClientOptions.builder()
 *     .baseUri(sim.baseUri()).maxConnections(64).build())) {
 *   byte[] body = RequestBodies.chat("m", List.of(ChatMessage.user("hi")), 16, BodyOptions.defaults());
 *   RequestRecord r = client.send(new InferenceRequest(ServingBackend.Api.CHAT, "/v1/chat/completions", body, 1))
 *       .get(30, TimeUnit.SECONDS);
 * }
 * }</pre>
 *
 * <p>Every request completes (success, failure or cancellation) within the {@link Deadlines};
 * {@link #close()} cancels what is still in flight. Futures complete on the I/O thread: keep
 * continuations short or use the {@code *Async} variants. Thread-safe.
 */
public final class StreamingClient implements AutoCloseable {

  private static final JsonFactory JSON = new JsonFactory();

  private final ClientOptions options;
  private final CloseableHttpAsyncClient http;
  private final HttpHost host;
  private final String basePath;
  private final Redactor redactor;
  private final Set<StreamExchange> inflight = ConcurrentHashMap.newKeySet();
  private final Thread watchdog;
  private final ReuseGuard reuseGuard;
  private volatile boolean closed;

  private StreamingClient(ClientOptions options) {
    this.options = options;
    this.redactor = Redactor.forProcess(options.apiKey().orElse(null));
    URI base = options.baseUri();
    if (base.getHost() == null || base.getScheme() == null) {
      throw new UsageException("base URL needs a scheme and a host: " + base);
    }
    this.host = HttpHost.create(base);
    String p = base.getRawPath() == null ? "" : base.getRawPath();
    this.basePath = p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    Deadlines d = options.deadlines();
    this.reuseGuard = new ReuseGuard(options.connectionReuse());
    PoolingAsyncClientConnectionManager cm = PoolingAsyncClientConnectionManagerBuilder.create()
        .setMaxConnTotal(options.maxConnections())
        .setMaxConnPerRoute(options.maxConnections())
        .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
        .setConnPoolPolicy(PoolReusePolicy.LIFO)
        .setDefaultConnectionConfig(ConnectionConfig.custom()
            .setConnectTimeout(Timeout.of(d.connect()))
            .setSocketTimeout(Timeout.of(d.total().plusSeconds(60)))
            .setValidateAfterInactivity(TimeValue.ofSeconds(2))
            .build())
        .build();
    this.http = HttpAsyncClients.custom()
        .setConnectionManager(cm)
        .setConnectionReuseStrategy(reuseGuard)
        .setIOSessionListener(reuseGuard)
        .setIOReactorConfig(IOReactorConfig.custom()
            .setIoThreadCount(options.ioThreadChoice().count())
            .setTcpNoDelay(true)
            .setSoKeepAlive(true)
            .build())
        .setHttp1Config(Http1Config.custom()
            .setBufferSize(options.bufferSize())
            .setChunkSizeHint(options.bufferSize())
            .build())
        .setH2Config(H2Config.custom().setMaxConcurrentStreams(Math.max(100, options.maxConnections()))
            .setPushEnabled(false).build())
        .setVersionPolicy(options.http2() ? HttpVersionPolicy.FORCE_HTTP_2 : HttpVersionPolicy.FORCE_HTTP_1)
        .setDefaultRequestConfig(RequestConfig.custom()
            .setConnectionRequestTimeout(Timeout.of(d.total()))
            .setResponseTimeout(Timeout.of(d.total().plusSeconds(60)))
            .setRedirectsEnabled(false)
            .build())
        .disableAutomaticRetries()
        .disableRedirectHandling()
        .disableCookieManagement()
        .disableAuthCaching()
        .disableConnectionState()
        .evictExpiredConnections()
        // An I/O reactor error is logged as one line, not a stack trace; after close() (e.g. a
        // warm-up abort cancelling what is in flight) the reactor's ClosedSelectorException and
        // the like are expected and dropped.
        .setIoReactorExceptionCallback(ex -> {
          if (!closed) {
            org.slf4j.LoggerFactory.getLogger(StreamingClient.class)
                .warn("HTTP client I/O error: {}", String.valueOf(ex));
          }
        })
        .build();
    http.start();
    long periodMillis = Math.max(1, options.deadlines().checkInterval().toMillis());
    this.watchdog = new Thread(() -> watch(periodMillis), "infx-client-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  /** Starts a client (its I/O reactor and watchdog); close it when done. */
  public static StreamingClient create(ClientOptions options) {
    return new StreamingClient(Objects.requireNonNull(options, "options"));
  }

  public ClientOptions options() {
    return options;
  }

  /** Requests currently in flight. */
  public int inFlight() {
    return inflight.size();
  }

  /** Sends {@code request} now, as a measured request with index 0. */
  public CompletableFuture<RequestRecord> send(InferenceRequest request) {
    return send(request, 0, RequestRecord.Phase.MEASURED, System.nanoTime());
  }

  /**
   * Sends {@code request} now.
   *
   * @param index the request's position (copied into the record)
   * @param phase warm-up or measured (copied into the record)
   * @param intendedNanos when the load model wanted it sent ({@link System#nanoTime()})
   * @return a future that always completes normally with the record (failures are in the record)
   */
  public CompletableFuture<RequestRecord> send(InferenceRequest request, int index,
      RequestRecord.Phase phase, long intendedNanos) {
    StreamExchange x = new StreamExchange(JSON, request, index, phase, intendedNanos,
        options.retainText(), options.fallbackTokenizer().orElse(null), options.maxSseEventBytes());
    x.onFinish(() -> inflight.remove(x));
    x.redactWith(redactor);
    x.reuseGuard = reuseGuard;
    x.resender = this::resend;
    long now = System.nanoTime();
    x.sendNanos = now; // before the watchdog can see it
    x.lastActivityNanos = now;
    inflight.add(x);
    if (closed) {
      x.cancel();
      return x.result;
    }
    execute(x);
    return x.result;
  }

  /** Sends the exchange's request (again); TTFT counts from this send. */
  private void execute(StreamExchange x) {
    AsyncRequestProducer producer = producer(x);
    StreamExchange.Attempt attempt = x.newAttempt();
    long now = System.nanoTime();
    x.sendNanos = now;
    x.lastActivityNanos = now;
    x.future = http.execute(producer, attempt, null, null, attempt);
  }

  /** A request that provably never left (see {@link StreamExchange#neverSent}) goes out again. */
  private void resend(StreamExchange x) {
    if (closed) {
      x.cancel();
      return;
    }
    execute(x);
  }

  /** True once the server was seen closing idle kept-alive connections (then none are kept). */
  public boolean serverClosesIdleConnections() {
    return reuseGuard.serverClosesIdle();
  }

  private AsyncRequestProducer producer(StreamExchange x) {
    InferenceRequest r = x.request();
    AsyncRequestBuilder b = AsyncRequestBuilder.post()
        .setHttpHost(host)
        .setPath(basePath + r.endpoint())
        .setEntity(x.watchBody(AsyncEntityProducers.create(r.body(), ContentType.APPLICATION_JSON)));
    options.apiKey().ifPresent(k -> b.addHeader("Authorization", "Bearer " + k));
    for (Map.Entry<String, String> h : r.headers()) {
      b.addHeader(h.getKey(), h.getValue());
    }
    return b.build();
  }

  private void watch(long periodMillis) {
    Deadlines d = options.deadlines();
    long firstByte = d.firstByte().toNanos();
    long idle = d.idle().toNanos();
    long total = d.total().toNanos();
    while (!closed) {
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
      long now = System.nanoTime();
      for (StreamExchange x : inflight) {
        long age = now - x.sendNanos;
        if (age > total) {
          x.timeout("total deadline of " + d.total() + " exceeded");
        } else if (!x.headersSeen && age > firstByte) {
          x.timeout("no response head within " + d.firstByte());
        } else if (x.headersSeen && now - x.lastActivityNanos > idle) {
          x.timeout(x.bodySeen()
              ? "no data for " + d.idle() + " (idle deadline, --timeout-idle)"
              : "the server sent the response head, then nothing for " + d.idle()
                  + " (idle deadline, --timeout-idle): a stalled engine or a proxy buffering the"
                  + " stream");
        }
      }
    }
  }

  /** Cancels every in-flight request (recorded as cancelled) and stops the I/O reactor. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    reuseGuard.shutdown();
    boolean busy = !inflight.isEmpty();
    for (StreamExchange x : inflight) {
      x.cancel();
    }
    watchdog.interrupt();
    // graceful when idle: an immediate close races the reactor's own shutdown and logs noise
    http.close(busy ? CloseMode.IMMEDIATE : CloseMode.GRACEFUL);
    try {
      http.awaitShutdown(TimeValue.of(5, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
