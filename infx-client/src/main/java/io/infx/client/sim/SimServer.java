package io.infx.client.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.client.tokenizer.BuiltinTokenizer;
import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.json.Json;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.impl.bootstrap.HttpAsyncServer;
import org.apache.hc.core5.http.message.BasicHeader;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2ServerBootstrap;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.ListenerEndpoint;
import org.apache.hc.core5.util.TimeValue;

/**
 * An OpenAI-compatible simulated inference server (HttpCore 5 async server, HTTP/1.1, or h2c
 * with {@link SimConfig#http2()}),
 * in-process or standalone ({@code infx sim}). Endpoints: {@code POST /v1/completions},
 * {@code POST /v1/chat/completions} (streaming in vLLM's SSE shape: role chunk first for chat,
 * content chunks, a finish chunk, a separate usage chunk with {@code include_usage}, then
 * {@code [DONE]}; non-streaming JSON too), {@code GET /v1/models}, {@code GET /health},
 * {@code GET /metrics} (Prometheus text, vLLM metric names), {@code POST /tokenize} (the
 * {@link BuiltinTokenizer}), and {@code GET /infx/timeline/<x-request-id>} (the true per-request
 * timeline, also available in-process through {@link #timeline(String)}).
 *
 * <p>The performance model is described on {@link SimConfig}; faults on {@link Faults}. Output
 * text is seeded by the simulator seed and the prompt, so the same prompt gives the same text.
 *
 * <pre>{@code
 * try (SimServer sim = SimServer.start(SimConfig.defaults())) {
 *   URI base = sim.baseUri();   // http://127.0.0.1:<ephemeral port>
 * }
 * }</pre>
 */
public final class SimServer implements AutoCloseable {

  /** The simulator's version as {@code GET /version} reports it (the jar's, {@code dev} in a build tree). */
  public static final String VERSION = java.util.Optional.ofNullable(
      SimServer.class.getPackage().getImplementationVersion()).orElse("dev");


  private final SimConfig config;
  private final SimEngine engine;
  private final HttpAsyncServer server;
  private final ScheduledExecutorService timer;
  private final int port;
  private final AtomicLong arrivals = new AtomicLong();
  private final AtomicLong finishedCount = new AtomicLong();
  private final Map<Faults.Kind, AtomicLong> faultCounts = new EnumMap<>(Faults.Kind.class);
  private final Map<String, Timeline> timelines;
  private final long created = System.currentTimeMillis() / 1000;

  private SimServer(SimConfig config) {
    this.config = config;
    for (Faults.Kind k : Faults.Kind.values()) {
      faultCounts.put(k, new AtomicLong());
    }
    int cap = config.timelineCapacity();
    this.timelines = new LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Timeline> eldest) {
        return size() > cap;
      }
    };
    this.engine = new SimEngine(config);
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "infx-sim-timer");
      t.setDaemon(true);
      return t;
    });
    this.server = H2ServerBootstrap.bootstrap()
        .setIOReactorConfig(IOReactorConfig.custom()
            .setIoThreadCount(config.ioThreads())
            .setTcpNoDelay(true)
            .setSoReuseAddress(true)
            .setBacklogSize(65535)
            .build())
        .setVersionPolicy(config.http2() ? HttpVersionPolicy.FORCE_HTTP_2 : HttpVersionPolicy.FORCE_HTTP_1)
        .setHttp1Config(Http1Config.custom().setBufferSize(8192).build())
        .setH2Config(H2Config.custom().setMaxConcurrentStreams(65535).setPushEnabled(false).build())
        // every authority (127.0.0.1, localhost, a host name) reaches the one simulated model
        .setRequestRouter((request, context) -> () -> new SimHandler(this))
        .create();
    try {
      engine.start();
      server.start();
      ListenerEndpoint ep = server.listen(new InetSocketAddress(config.host(), config.port()),
          URIScheme.HTTP).get(30, TimeUnit.SECONDS);
      this.port = ((InetSocketAddress) ep.getAddress()).getPort();
    } catch (Exception e) {
      close();
      throw new InfxException(ErrorKind.SIM, "cannot start the simulator on " + config.host() + ":"
          + config.port() + ": " + rootMessage(e), e);
    }
  }

  /**
   * Starts a simulator (engine thread and I/O reactor) and binds it.
   *
   * @throws InfxException kind {@code sim} when the address cannot be bound
   */
  public static SimServer start(SimConfig config) {
    return new SimServer(config);
  }

  public SimConfig config() {
    return config;
  }

  /** The bound port (the ephemeral one when the config asked for 0). */
  public int port() {
    return port;
  }

  /** {@code http://host:port} — the base URL for clients. */
  public URI baseUri() {
    return URI.create("http://" + config.host() + ":" + port);
  }

  /** The true timeline of a finished request, by its {@code x-request-id}. */
  public Optional<Timeline> timeline(String requestId) {
    synchronized (timelines) {
      return Optional.ofNullable(timelines.get(requestId));
    }
  }

  /** Current counters. */
  public SimStats stats() {
    Map<Faults.Kind, Long> f = new EnumMap<>(Faults.Kind.class);
    faultCounts.forEach((k, v) -> f.put(k, v.get()));
    return new SimStats(arrivals.get(), finishedCount.get(), engine.promptTokens.get(),
        engine.generationTokens.get(), engine.cacheQueries.get(), engine.cacheHits.get(),
        engine.runningCount, engine.waitingCount, Map.copyOf(f));
  }

  @Override
  public void close() {
    engine.stop();
    server.close(CloseMode.IMMEDIATE);
    try {
      server.awaitShutdown(TimeValue.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    timer.shutdownNow();
  }

  /** Blocks until the server is closed from another thread (for the standalone command). */
  public void awaitShutdown() throws InterruptedException {
    server.awaitShutdown(TimeValue.MAX_VALUE);
  }

  // ---- routing (I/O thread) ----

  private final java.util.List<String> profilerCalls = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * The profiler calls received, in order ({@code start_profile}, {@code stop_profile}): the
   * simulator answers them like a vLLM server with its profiler enabled and records nothing else.
   */
  public java.util.List<String> profilerCalls() {
    return java.util.List.copyOf(profilerCalls);
  }

  void route(SimHandler h) {
    String path = h.path();
    int q = path.indexOf('?');
    if (q >= 0) {
      path = path.substring(0, q);
    }
    String m = h.method();
    try {
      if (path.equals("/v1/completions") || path.equals("/v1/chat/completions")) {
        if (!m.equals("POST")) {
          h.respondJson(405, error("Method Not Allowed", "MethodNotAllowed", 405));
          return;
        }
        generate(h, path.endsWith("/chat/completions"));
      } else if (path.equals("/start_profile") || path.equals("/stop_profile")) {
        if (!m.equals("POST")) {
          h.respondJson(405, error("Method Not Allowed", "MethodNotAllowed", 405));
          return;
        }
        profilerCalls.add(path.substring(1));
        h.respond(200, "application/json", new byte[0]);
      } else if (path.equals("/health")) {
        h.respond(200, "application/json", new byte[0]);
      } else if (path.equals("/version")) {
        // vLLM's shape plus the engine name: the client records that a simulator answered
        h.respondJson(200, "{\"version\":" + jsonString(VERSION) + ",\"engine\":\""
            + io.infx.core.provenance.ServerProvenance.SIMULATOR + "\",\"simulated\":true}");
      } else if (path.equals("/v1/models")) {
        h.respondJson(200, "{\"object\":\"list\",\"data\":[{\"id\":" + jsonString(config.model())
            + ",\"object\":\"model\",\"created\":" + created + ",\"owned_by\":\"infx-sim\","
            + "\"root\":" + jsonString(config.model()) + ",\"max_model_len\":"
            + config.maxModelLen() + "}]}");
      } else if (path.equals("/metrics")) {
        h.respond(200, "text/plain; version=0.0.4; charset=utf-8",
            metricsText().getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } else if (path.equals("/tokenize")) {
        tokenize(h);
      } else if (path.startsWith("/infx/timeline/")) {
        Optional<Timeline> t = timeline(path.substring("/infx/timeline/".length()));
        if (t.isEmpty()) {
          h.respondJson(404, error("unknown request id", "NotFoundError", 404));
        } else {
          h.respondJson(200, Json.mapper().writeValueAsString(t.get()));
        }
      } else {
        h.respondJson(404, error("Not Found", "NotFoundError", 404));
      }
    } catch (BadRequest e) {
      h.respondJson(400, error(e.getMessage(), "BadRequestError", 400));
    } catch (Exception e) {
      h.respondJson(500, error("internal error: " + e, "InternalServerError", 500));
    }
  }

  private static final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;

    BadRequest(String m) {
      super(m);
    }
  }

  private JsonNode parse(SimHandler h) throws BadRequest {
    try {
      JsonNode n = Json.mapper().readTree(h.body());
      if (n == null || !n.isObject()) {
        throw new BadRequest("the request body must be a JSON object");
      }
      return n;
    } catch (java.io.IOException e) {
      throw new BadRequest("malformed JSON body: " + e.getMessage());
    }
  }

  /** The token ids the simulator sees for a request body (prompt or rendered chat messages). */
  static int[] promptIds(JsonNode body, boolean chat) throws BadRequest {
    BuiltinTokenizer tok = BuiltinTokenizer.instance();
    if (chat) {
      JsonNode msgs = body.get("messages");
      if (msgs == null || !msgs.isArray() || msgs.isEmpty()) {
        throw new BadRequest("'messages' must be a non-empty array");
      }
      return tok.encode(renderChat(msgs));
    }
    JsonNode p = body.get("prompt");
    if (p == null) {
      throw new BadRequest("'prompt' is required");
    }
    if (p.isTextual()) {
      return tok.encode(p.asText());
    }
    if (p.isArray() && (p.isEmpty() || p.get(0).isInt())) {
      int[] ids = new int[p.size()];
      for (int i = 0; i < ids.length; i++) {
        ids[i] = p.get(i).asInt();
      }
      return ids;
    }
    if (p.isArray() && p.size() == 1 && p.get(0).isTextual()) {
      return tok.encode(p.get(0).asText());
    }
    throw new BadRequest("'prompt' must be a string or a list of token ids");
  }

  /** Renders chat messages to the text the simulator tokenizes (a growing history is a prefix). */
  static String renderChat(JsonNode msgs) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode m : msgs) {
      sb.append(' ').append(m.path("role").asText("user")).append(":\n");
      JsonNode c = m.get("content");
      if (c != null && c.isTextual()) {
        sb.append(c.asText());
      } else if (c != null && c.isArray()) {
        for (JsonNode part : c) {
          sb.append(part.path("text").asText(""));
        }
      }
      sb.append('\n');
    }
    sb.append(" assistant:\n");
    return sb.toString();
  }

  private void generate(SimHandler h, boolean chat) throws BadRequest {
    long n = arrivals.incrementAndGet();
    Faults.Kind fault = drawFault(n);
    String id = (chat ? "chatcmpl-" : "cmpl-") + Long.toHexString(0x100000000L + n).substring(1);
    h.requestId = id;
    h.recordTimeline = config.timelineCapacity() > 0;
    BasicHeader idHeader = new BasicHeader("x-request-id", id);
    if (fault != null) {
      faultCounts.get(fault).incrementAndGet();
      h.fault = fault.name().toLowerCase(java.util.Locale.ROOT);
      if (fault == Faults.Kind.HTTP_400) {
        h.respondJson(400, error("simulated bad request", "BadRequestError", 400), idHeader);
        return;
      }
      if (fault == Faults.Kind.HTTP_500) {
        h.respondJson(500, error("simulated server error", "InternalServerError", 500), idHeader);
        return;
      }
    }
    JsonNode body = parse(h);
    int[] ids = promptIds(body, chat);
    JsonNode mt = chat && body.has("max_completion_tokens") ? body.get("max_completion_tokens")
        : body.get("max_tokens");
    int maxTokens = mt == null || mt.isNull() ? 16 : mt.asInt(-1);
    if (maxTokens < 1) {
      throw new BadRequest("max_tokens must be at least 1, got " + (mt == null ? "null" : mt));
    }
    if ((long) ids.length + maxTokens > config.maxModelLen()) {
      throw new BadRequest("This model's maximum context length is " + config.maxModelLen()
          + " tokens. However, you requested " + ((long) ids.length + maxTokens) + " tokens ("
          + ids.length + " in the messages, " + maxTokens + " in the completion). Please reduce"
          + " the length of the messages or completion.");
    }
    boolean stream = body.path("stream").asBoolean(false);
    if (!stream) {
      throw new BadRequest("the simulator serves streaming requests only (\"stream\": true)");
    }
    JsonNode so = body.path("stream_options");
    boolean includeUsage = so.path("include_usage").asBoolean(false);
    boolean continuous = includeUsage && so.path("continuous_usage_stats").asBoolean(false);
    String model = body.path("model").asText(config.model());
    long textSeed = config.seed() * 0x9E3779B97F4A7C15L ^ java.util.Arrays.hashCode(ids);
    h.promptTokens = ids.length;
    SimEngine.Seq seq = new SimEngine.Seq(h, chat, id, model, System.currentTimeMillis() / 1000,
        ids, maxTokens, includeUsage, continuous, fault, textSeed);
    BasicHeader[] headers = {idHeader, new BasicHeader("Cache-Control", "no-cache")};
    if (fault == Faults.Kind.DELAYED_HEADERS) {
      timer.schedule(() -> {
        h.startStream(headers);
        engine.submit(seq);
      }, config.faults().headerDelay().toNanos(), TimeUnit.NANOSECONDS);
      return;
    }
    h.startStream(headers);
    engine.submit(seq);
  }

  private Faults.Kind drawFault(long n) {
    Faults f = config.faults();
    if (f.rate() <= 0) {
      return null;
    }
    SplittableRandom r = new SplittableRandom(config.seed() * 1_000_003L + n);
    if (r.nextDouble() >= f.rate()) {
      return null;
    }
    double total = f.weights().values().stream().mapToDouble(Double::doubleValue).sum();
    double x = r.nextDouble() * total;
    Faults.Kind last = null;
    for (Map.Entry<Faults.Kind, Double> e : f.weights().entrySet()) {
      if (e.getValue() <= 0) {
        continue;
      }
      last = e.getKey();
      x -= e.getValue();
      if (x < 0) {
        return e.getKey();
      }
    }
    return last;
  }

  private void tokenize(SimHandler h) throws Exception {
    JsonNode body = parse(h);
    int[] ids = promptIds(body, body.has("messages"));
    ObjectNode out = Json.mapper().createObjectNode();
    out.put("count", ids.length);
    out.put("max_model_len", config.maxModelLen());
    ArrayNode arr = out.putArray("tokens");
    for (int id : ids) {
      arr.add(id);
    }
    h.respondJson(200, Json.mapper().writeValueAsString(out));
  }

  void finished(SimHandler h) {
    if (h.requestId == null) {
      return;
    }
    finishedCount.incrementAndGet();
    if (h.recordTimeline) {
      Timeline t = h.timeline();
      synchronized (timelines) {
        timelines.put(t.requestId(), t);
      }
    }
  }

  private String metricsText() {
    String label = "{model_name=" + jsonString(config.model()) + "}";
    StringBuilder sb = new StringBuilder(2048);
    metric(sb, "vllm:num_requests_running", "gauge",
        "Number of requests in model execution batches.", label, engine.runningCount);
    metric(sb, "vllm:num_requests_waiting", "gauge",
        "Number of requests waiting to be processed.", label, engine.waitingCount);
    metric(sb, "vllm:prompt_tokens_total", "counter",
        "Number of prefill tokens processed.", label, engine.promptTokens.get());
    metric(sb, "vllm:generation_tokens_total", "counter",
        "Number of generation tokens processed.", label, engine.generationTokens.get());
    metric(sb, "vllm:request_success_total", "counter",
        "Count of successfully processed requests.",
        "{finished_reason=\"length\",model_name=" + jsonString(config.model()) + "}",
        finishedCount.get());
    metric(sb, "vllm:prefix_cache_queries_total", "counter",
        "Prefix cache queries, in terms of number of queried tokens.", label,
        engine.cacheQueries.get());
    metric(sb, "vllm:prefix_cache_hits_total", "counter",
        "Prefix cache hits, in terms of number of cached tokens.", label, engine.cacheHits.get());
    metric(sb, "vllm:num_preemptions_total", "counter",
        "Cumulative number of preemption from the engine.", label, 0);
    return sb.toString();
  }

  private static void metric(StringBuilder sb, String name, String type, String help,
      String labels, double value) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(' ').append(type).append('\n')
        .append(name).append(labels).append(' ').append(value).append('\n');
  }

  private static String error(String message, String type, int code) {
    return "{\"object\":\"error\",\"message\":" + jsonString(message) + ",\"type\":"
        + jsonString(type) + ",\"param\":null,\"code\":" + code + "}";
  }

  private static String jsonString(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2);
    ChunkWriter.quote(sb, s);
    return sb.toString();
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.toString() : t.getMessage();
  }
}
