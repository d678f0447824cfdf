package io.infx.client;

import com.fasterxml.jackson.core.JsonFactory;
import io.infx.client.internal.ChunkReader;
import io.infx.client.internal.ReuseGuard;
import io.infx.client.sse.SseEvent;
import io.infx.client.sse.SseParser;
import io.infx.client.tokenizer.Tokenizer;
import io.infx.core.secret.Redactor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.hc.client5.http.ConnectTimeoutException;
import org.apache.hc.client5.http.HttpHostConnectException;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EndpointDetails;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.RequestNotExecutedException;
import org.apache.hc.core5.http.impl.EnglishReasonPhraseCatalog;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;

/**
 * One request's life on the I/O thread: response head, SSE framing, chunk reading
 * ({@link ChunkReader}: the needed fields straight from the bytes), timestamps taken on arrival.
 * Completes its future exactly once — on stream end, failure, timeout or cancellation.
 */
final class StreamExchange implements AsyncResponseConsumer<RequestRecord>, SseParser.Listener,
    FutureCallback<RequestRecord> {

  private static final int MAX_BODY = 2048;
  /** Re-sends of one request that provably never left (a bound, so a broken pool cannot loop). */
  static final int MAX_RESENDS = 3;

  private final JsonFactory json; // unused since ChunkReader; kept for the constructors' callers
  private final InferenceRequest request;
  private final int index;
  private final RequestRecord.Phase phase;
  private final boolean retainText;
  private final Tokenizer tokenizer;
  final CompletableFuture<RequestRecord> result = new CompletableFuture<>();
  private final AtomicBoolean finished = new AtomicBoolean();
  private final SseParser sse;

  final long intendedNanos;
  volatile long sendNanos;
  volatile long lastActivityNanos;
  volatile boolean headersSeen;
  volatile Future<RequestRecord> future;
  private volatile String timeoutReason;
  private Runnable onFinish;
  private Redactor redactor = Redactor.shapesOnly();
  // re-sending: the current attempt (callbacks of earlier attempts are ignored) and the hook that
  // sends the request again; set by the client
  private volatile int attempt;
  private int resends;
  Consumer<StreamExchange> resender;
  ReuseGuard reuseGuard;
  private volatile SocketAddress localAddress;
  private boolean connectionReused;
  // wire timestamps of the current attempt (NONE until seen)
  private volatile long bodyStartNanos = RequestRecord.NONE;
  private volatile long requestWrittenNanos = RequestRecord.NONE;
  private long firstByteNanos = RequestRecord.NONE;

  private int status;
  private String reason = "";
  private String contentType; // of a 200 that is not an SSE stream, else null
  private volatile boolean bodySeen;
  private String requestId;
  private long headersNanos = RequestRecord.NONE;
  private long firstChoicesNanos = RequestRecord.NONE;
  private long lastChoicesNanos = RequestRecord.NONE;
  private long lastDataNanos = RequestRecord.NONE;
  private long firstContentNanos = RequestRecord.NONE;
  // Token-chunk arrival times, compact while in flight: the first as a long, then gaps in ns as
  // ints (a gap ≥ 2^31 ns is stored as -1 followed by its high and low halves).
  private long firstTokenTime;
  private long lastTokenTime;
  private int[] gaps;
  private int gapSlots;
  private int tokenCount;
  private int[] cumTokens;
  private boolean cumValid = true;
  private int usagePrompt = -1;
  private int usageCompletion = -1;
  private boolean doneSeen;
  private StringBuilder text;
  // with a tokenizer, for per-token ITL: reasoning text, and where each token chunk's content and
  // reasoning end in text/reasoning (two ints per token chunk)
  private StringBuilder reasoning;
  private int[] chunkTextEnds;
  /** The buffers above, lent by this I/O thread's pool at the first event (see {@link Scratch}). */
  private Scratch scratch;
  private boolean textsKept; // a pending per-token ITL view holds chunkTextEnds
  private String generatedText;
  private byte[] errorBody;
  private int errorBodyLen;
  private RequestFailure streamFailure;

  // per-chunk scratch
  private int chunkChoices;
  private boolean chunkToken;
  private boolean chunkContent;
  private int chunkCompletion;

  StreamExchange(JsonFactory json, InferenceRequest request, int index, RequestRecord.Phase phase,
      long intendedNanos, boolean retainText, Tokenizer tokenizer) {
    this(json, request, index, phase, intendedNanos, retainText, tokenizer,
        SseParser.DEFAULT_MAX_EVENT_BYTES);
  }

  StreamExchange(JsonFactory json, InferenceRequest request, int index, RequestRecord.Phase phase,
      long intendedNanos, boolean retainText, Tokenizer tokenizer, int maxSseEventBytes) {
    this.sse = new SseParser(this, maxSseEventBytes);
    this.json = json;
    this.request = request;
    this.index = index;
    this.phase = phase;
    this.intendedNanos = intendedNanos;
    this.retainText = retainText;
    this.tokenizer = tokenizer;
  }

  /** Whether any body byte arrived after the response head. */
  boolean bodySeen() {
    return bodySeen;
  }

  InferenceRequest request() {
    return request;
  }

  void onFinish(Runnable r) {
    this.onFinish = r;
  }

  /** Masks the run's secrets in every failure message and body this exchange records. */
  void redactWith(Redactor r) {
    this.redactor = r;
  }

  // ---- AsyncResponseConsumer ----

  @Override
  public void consumeResponse(HttpResponse response, EntityDetails entityDetails,
      HttpContext context, FutureCallback<RequestRecord> resultCallback) {
    long now = System.nanoTime();
    headersNanos = now;
    lastActivityNanos = now;
    headersSeen = true;
    status = response.getCode();
    String rp = response.getReasonPhrase();
    reason = rp == null || rp.isEmpty()
        ? String.valueOf(EnglishReasonPhraseCatalog.INSTANCE.getReason(status, Locale.ROOT)) : rp;
    String ct = entityDetails == null ? null : entityDetails.getContentType();
    if (status == 200 && ct != null && !ct.toLowerCase(Locale.ROOT).contains("event-stream")) {
      contentType = ct; // a JSON or HTML page, not a stream: kept like an error body
    }
    Header id = response.getFirstHeader("x-request-id");
    requestId = id == null ? null : id.getValue();
    EndpointDetails ep = context == null ? null : HttpCoreContext.cast(context).getEndpointDetails();
    if (ep != null) {
      localAddress = ep.getLocalAddress();
      connectionReused = ep.getResponseCount() > 0; // this response is not counted yet
      if (reuseGuard != null) {
        reuseGuard.busy(localAddress);
      }
    }
    if (entityDetails == null) {
      complete(now);
    }
  }

  @Override
  public void informationResponse(HttpResponse response, HttpContext context) {}

  @Override
  public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
    capacityChannel.update(Integer.MAX_VALUE);
  }

  @Override
  public void consume(ByteBuffer src) throws IOException {
    long now = System.nanoTime();
    lastActivityNanos = now;
    if (firstByteNanos == RequestRecord.NONE) {
      firstByteNanos = now;
    }
    if (finished.get()) {
      src.position(src.limit());
      return;
    }
    bodySeen = true;
    try {
      if (status == 200 && contentType == null) {
        sse.feed(src, now);
      } else {
        keepErrorBody(src);
      }
    } catch (RuntimeException | Error e) {
      // Never let a failure here kill the shared I/O dispatch thread: fail this request only
      // and let HttpCore close its connection. (An OutOfMemoryError is survivable here because
      // this request's buffers become garbage once it is finished.)
      streamFailure = new RequestFailure(FailureClass.CLIENT, "client error while reading the"
          + " response: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage())), status, "");
      finish(now, streamFailure, false);
      throw new IOException("request failed in the client: " + e.getClass().getSimpleName());
    }
    if (sse.oversize()) {
      finish(now, streamFailure, false);
      // closes the connection: the rest of a runaway stream is never read
      throw new IOException("SSE event longer than " + sse.maxEventBytes() + " bytes");
    }
  }

  @Override
  public void onOversize(int limitBytes) {
    streamFailure = new RequestFailure(FailureClass.OVERSIZE, "an SSE line or event exceeded "
        + limitBytes + " bytes (limit: ClientOptions.maxSseEventBytes, --max-sse-event-bytes)",
        status, "");
  }

  @Override
  public void streamEnd(List<? extends Header> trailers) {
    long now = System.nanoTime();
    sse.end();
    complete(now);
  }

  @Override
  public void failed(Exception cause) {
    fail(cause);
  }

  @Override
  public void releaseResources() {}

  // ---- FutureCallback of the client's execute() ----

  @Override
  public void completed(RequestRecord r) {
    // already completed through complete()
  }

  @Override
  public void cancelled() {
    long now = System.nanoTime();
    String t = timeoutReason;
    if (t != null) {
      finish(now, new RequestFailure(FailureClass.TIMEOUT, t, status, ""), false);
    } else {
      finish(now, null, true);
    }
  }

  // ---- SSE events ----

  @Override
  public void onEvent(SseEvent e) {
    if (streamFailure != null) {
      return;
    }
    if (e.isDone()) {
      doneSeen = true;
      return;
    }
    long t = e.arrivalNanos();
    String type = e.isMessage() ? null : e.type();
    if (type != null && !type.equals("error")) {
      return; // other named events are not part of the OpenAI stream
    }
    chunkChoices = 0;
    chunkToken = false;
    chunkContent = false;
    chunkCompletion = -1;
    try {
      // read straight from the event's bytes: nothing decoded that is not kept, no allocation
      if (scratch == null) {
        borrowScratch();
      }
      ChunkReader c = scratch.reader;
      c.read(e.dataBytes(), 0, e.dataLength(), text, tokenizer != null ? reasoning : null);
      if (c.error != null) {
        streamFailure = new RequestFailure(FailureClass.STREAM,
            "in-stream error: " + c.error, status, excerpt(e.dataBytes(), e.dataLength()));
        return;
      }
      chunkChoices = c.choices;
      chunkToken = c.token;
      chunkContent = c.content;
      if (c.completionTokens != -1) {
        chunkCompletion = c.completionTokens;
        usageCompletion = chunkCompletion;
      }
      if (c.promptTokens != -1) {
        usagePrompt = c.promptTokens;
      }
    } catch (IOException ex) {
      streamFailure = new RequestFailure(FailureClass.DECODE,
          "malformed chunk: " + firstLine(ex.getMessage()), status,
          excerpt(e.dataBytes(), e.dataLength()));
      return;
    }
    if (type != null) {
      streamFailure = new RequestFailure(FailureClass.STREAM, "in-stream error event", status,
          excerpt(e.dataBytes(), e.dataLength()));
      return;
    }
    lastDataNanos = t;
    if (chunkChoices > 0) {
      if (firstChoicesNanos == RequestRecord.NONE) {
        firstChoicesNanos = t;
      }
      lastChoicesNanos = t;
    }
    if (chunkContent && firstContentNanos == RequestRecord.NONE) {
      firstContentNanos = t;
    }
    if (chunkToken) {
      if (tokenCount == 0) {
        firstTokenTime = t;
      } else {
        long gap = t - lastTokenTime;
        if (gapSlots + 3 > gaps.length) {
          gaps = Arrays.copyOf(gaps, gaps.length * 2);
        }
        if (gap >= 0 && gap < Integer.MAX_VALUE) {
          gaps[gapSlots++] = (int) gap;
        } else {
          gaps[gapSlots++] = -1;
          gaps[gapSlots++] = (int) (gap >>> 32);
          gaps[gapSlots++] = (int) gap;
        }
      }
      lastTokenTime = t;
      if (tokenizer != null) {
        if (chunkTextEnds.length < 2 * tokenCount + 2) {
          chunkTextEnds = Arrays.copyOf(chunkTextEnds, chunkTextEnds.length * 2);
        }
        chunkTextEnds[2 * tokenCount] = text == null ? 0 : text.length();
        chunkTextEnds[2 * tokenCount + 1] = reasoning == null ? 0 : reasoning.length();
      }
      if (cumValid) {
        if (chunkCompletion >= 0) {
          if (cumTokens == null) {
            cumTokens = scratch.cum;
          }
          if (cumTokens.length <= tokenCount) {
            cumTokens = Arrays.copyOf(cumTokens, cumTokens.length * 2);
          }
          cumTokens[tokenCount] = chunkCompletion;
        } else {
          cumValid = false;
          cumTokens = null;
        }
      }
      tokenCount++;
    }
  }

  // ---- completion ----

  void timeout(String why) {
    if (finished.get()) {
      return;
    }
    timeoutReason = why;
    Future<RequestRecord> f = future;
    if (f != null) {
      f.cancel(true);
    }
    // the cancel alone may leave a stalled stream's connection leased (see ReuseGuard#abort)
    if (reuseGuard != null) {
      reuseGuard.abort(localAddress);
    }
    finish(System.nanoTime(), new RequestFailure(FailureClass.TIMEOUT, why, status, ""), false);
  }

  void cancel() {
    Future<RequestRecord> f = future;
    if (f != null) {
      f.cancel(true);
    }
    finish(System.nanoTime(), null, true);
  }

  private void complete(long now) {
    RequestFailure f;
    if (status != 200) {
      FailureClass k = status >= 500 ? FailureClass.HTTP_5XX
          : status >= 400 ? FailureClass.HTTP_4XX : FailureClass.HTTP_OTHER;
      String body = errorBody == null ? ""
          : new String(errorBody, 0, errorBodyLen, StandardCharsets.UTF_8);
      f = new RequestFailure(k, reason, status, body);
    } else if (streamFailure != null) {
      f = streamFailure;
    } else if (contentType != null) {
      String body = errorBody == null ? ""
          : new String(errorBody, 0, errorBodyLen, StandardCharsets.UTF_8);
      f = new RequestFailure(FailureClass.STREAM, "the server answered 200 with Content-Type "
          + contentType + ", not an SSE stream (text/event-stream): is streaming enabled on this"
          + " endpoint?", status, body);
    } else if (tokenCount == 0) {
      f = new RequestFailure(FailureClass.STREAM,
          "the stream ended without a token (no chunk to compute TTFT)", status, "");
    } else {
      f = null;
    }
    if (finish(now, f, false)) {
      returnScratch(); // on the I/O thread, which alone fed this exchange
    }
  }

  private void fail(Exception cause) {
    long now = System.nanoTime();
    String t = timeoutReason;
    if (t != null) {
      finish(now, new RequestFailure(FailureClass.TIMEOUT, t, status, ""), false);
      return;
    }
    if (neverSent(cause) && !headersSeen && resender != null && resends < MAX_RESENDS
        && !finished.get()) {
      resends++;
      attempt++;
      bodyStartNanos = RequestRecord.NONE;
      requestWrittenNanos = RequestRecord.NONE;
      resender.accept(this);
      return;
    }
    FailureClass k;
    if (outOfFileDescriptors(cause)) {
      finish(now, new RequestFailure(FailureClass.CLIENT, "the client ran out of file descriptors"
          + " (" + firstLine(cause.getMessage()) + "): raise the limit (ulimit -n) above the"
          + " concurrency", status, ""), false);
      return;
    }
    if (cause instanceof SocketTimeoutException) {
      k = FailureClass.TIMEOUT;
    } else if (!headersSeen && isConnectFailure(cause)) {
      k = FailureClass.CONNECT;
    } else {
      k = FailureClass.STREAM;
    }
    String msg = cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : ": " + firstLine(cause.getMessage()));
    finish(now, new RequestFailure(k, msg, status, ""), false);
  }

  static boolean outOfFileDescriptors(Throwable c) {
    for (Throwable t = c; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains("Too many open files")) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when the request provably never left: HttpCore's {@link RequestNotExecutedException}
   * ("the request has not been executed and can be safely retried": the connection was closed
   * before the request was handed to it). A request whose bytes were written is never re-sent —
   * a server may have started on it.
   */
  static boolean neverSent(Throwable c) {
    for (Throwable t = c; t != null; t = t.getCause()) {
      if (t instanceof RequestNotExecutedException) {
        return true;
      }
    }
    return false;
  }

  static boolean isConnectFailure(Throwable c) {
    for (Throwable t = c; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof HttpHostConnectException
          || t instanceof ConnectTimeoutException || t instanceof NoRouteToHostException
          || t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return true;
      }
      if (t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)) {
        return false;
      }
    }
    return false;
  }

  /** Builds and delivers the record; false when the exchange had already finished. */
  private boolean finish(long now, RequestFailure failure, boolean cancelled) {
    if (!finished.compareAndSet(false, true)) {
      return false;
    }
    if (failure != null) {
      // servers and gateways echo request headers (the API key) in error bodies
      failure = new RequestFailure(failure.kind(), redactor.redact(failure.message()),
          failure.status(), redactor.redact(failure.body()));
    }
    RequestRecord.Builder b = RequestRecord.builder()
        .index(index).phase(phase).api(request.api())
        .intendedNanos(intendedNanos).sendNanos(sendNanos).endNanos(now)
        .headersNanos(headersNanos).firstChoicesNanos(firstChoicesNanos)
        .firstContentNanos(firstContentNanos)
        .promptTokens(request.promptTokens()).status(status).doneSeen(doneSeen)
        .requestId(requestId).cancelled(cancelled).failure(failure)
        .resends(resends).connectionReused(connectionReused)
        .wire(bodyStartNanos, requestWrittenNanos, firstByteNanos);
    int n = tokenCount;
    List<String> texts = null;
    b.tokenChunkNanosNoCopy(decodeTimes(n));
    if (cumValid && cumTokens != null && n > 0) {
      b.tokenChunkCumTokens(Arrays.copyOf(cumTokens, n));
    }
    if (usagePrompt >= 0) {
      b.usagePromptTokens(usagePrompt);
    }
    if (retainText) {
      b.generatedText(generated());
    }
    if (reuseGuard != null) {
      if (failure == null && !cancelled) {
        reuseGuard.idle(localAddress, now);
      } else {
        reuseGuard.busy(localAddress); // a failed exchange's connection is closed by the client
      }
    }
    if (failure == null && !cancelled) {
      long end = request.api() == ServingBackend.Api.CHAT ? lastDataNanos : lastChoicesNanos;
      b.e2elEndNanos(end);
      if (usageCompletion >= 0) {
        b.outputTokens(usageCompletion, TokenSource.USAGE);
      } else if (tokenizer != null) {
        b.outputTokens(tokenizer.count(generated()), TokenSource.TOKENIZER);
      } else {
        b.outputTokens(n, TokenSource.CHUNKS);
      }
      // per-token ITL: usage settles the counts here; the tokenizer, when needed, runs after the
      // measured phase (it costs tens of µs per chunk, which the I/O thread must not spend)
      PerTokenItl.Attribution fromUsage = PerTokenItl.attribute(n,
          cumValid && cumTokens != null ? Arrays.copyOf(cumTokens, n) : null, usageCompletion,
          null, null);
      b.itlAttribution(fromUsage);
      texts = fromUsage.policy() == ItlPolicy.PER_CHUNK ? chunkTexts(n, generated()) : null;
      if (texts != null) {
        List<String> kept = texts;
        Tokenizer tok = tokenizer;
        int total = usageCompletion;
        b.pendingItlAttribution(() -> PerTokenItl.attribute(n, null, total, kept, tok));
      }
    }
    RequestRecord r = b.build();
    textsKept = texts != null;
    Runnable hook = onFinish;
    if (hook != null) {
      hook.run();
    }
    result.complete(r);
    return true;
  }

  /**
   * Takes this thread's spare buffers for the stream's arrival gaps, per-chunk text ends,
   * per-chunk usage counts and texts: after the first wave of requests an I/O thread's exchanges
   * reuse the buffers the earlier ones grew, so an SSE event allocates nothing.
   */
  private void borrowScratch() {
    Scratch sc = Scratch.borrow();
    scratch = sc;
    gaps = sc.gaps;
    chunkTextEnds = tokenizer != null ? sc.ends() : null;
    text = retainText || tokenizer != null ? sc.text : null;
    reasoning = tokenizer != null ? sc.reasoning : null;
  }

  /**
   * Gives the buffers back to this thread's pool, once the record holds copies of what it keeps;
   * only from the thread that fed the exchange and won its {@link #finish}, so nothing else can
   * still read them. Text ends captured by a pending per-token ITL view stay with it.
   */
  private void returnScratch() {
    Scratch sc = scratch;
    if (sc == null) {
      return;
    }
    scratch = null;
    sc.gaps = gaps;
    if (chunkTextEnds != null) {
      sc.endsOrNull = textsKept ? null : chunkTextEnds;
    }
    if (cumTokens != null) {
      sc.cum = cumTokens;
    }
    gaps = null;
    chunkTextEnds = null;
    cumTokens = null;
    text = null;
    reasoning = null;
    Scratch.giveBack(sc);
  }

  /** The content text as a string, made once and only when a record needs it. */
  private String generated() {
    if (generatedText == null) {
      generatedText = text == null ? "" : text.toString();
    }
    return generatedText;
  }

  /** A view of each token chunk's text (content then reasoning), built only when asked. */
  private List<String> chunkTexts(int n, String generated) {
    if (tokenizer == null || chunkTextEnds == null) {
      return null;
    }
    int[] ends = chunkTextEnds;
    String r = reasoning == null ? "" : reasoning.toString();
    return new java.util.AbstractList<>() {
      @Override
      public String get(int j) {
        int c0 = j == 0 ? 0 : ends[2 * j - 2];
        int r0 = j == 0 ? 0 : ends[2 * j - 1];
        return generated.substring(c0, ends[2 * j]) + r.substring(r0, ends[2 * j + 1]);
      }

      @Override
      public int size() {
        return n;
      }
    };
  }

  private long[] decodeTimes(int n) {
    long[] out = new long[n];
    if (n == 0) {
      return out;
    }
    out[0] = firstTokenTime;
    int k = 0;
    for (int i = 1; i < n && k < gapSlots; i++) {
      int g = gaps[k++];
      long gap = g >= 0 ? g : ((long) gaps[k++] << 32) | (gaps[k++] & 0xFFFFFFFFL);
      out[i] = out[i - 1] + gap;
    }
    return out;
  }

  private void keepErrorBody(ByteBuffer src) {
    if (errorBody == null) {
      errorBody = new byte[MAX_BODY];
    }
    int k = Math.min(src.remaining(), MAX_BODY - errorBodyLen);
    src.get(errorBody, errorBodyLen, k);
    errorBodyLen += k;
    src.position(src.limit());
  }

  private static String excerpt(byte[] b, int len) {
    return new String(b, 0, Math.min(len, MAX_BODY), StandardCharsets.UTF_8);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  // ---- attempts ----

  /** The consumer and callback of the next attempt; callbacks of superseded attempts are dropped. */
  Attempt newAttempt() {
    return new Attempt(attempt);
  }

  /** Wraps the request body so the exchange learns when the connection took it and when it was written. */
  AsyncEntityProducer watchBody(AsyncEntityProducer body) {
    return new WatchedBody(body, attempt);
  }

  /** A body channel that stamps {@code request_written} when the producer ends the stream. */
  private final class EndWatchingChannel implements DataStreamChannel {
    private final DataStreamChannel channel;
    private final int n;

    EndWatchingChannel(DataStreamChannel channel, int n) {
      this.channel = channel;
      this.n = n;
    }

    private void ended() {
      if (n == attempt && requestWrittenNanos == RequestRecord.NONE) {
        requestWrittenNanos = System.nanoTime();
      }
    }

    @Override
    public void requestOutput() {
      channel.requestOutput();
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      return channel.write(src);
    }

    @Override
    public void endStream() throws IOException {
      channel.endStream();
      ended();
    }

    @Override
    public void endStream(List<? extends Header> trailers) throws IOException {
      channel.endStream(trailers);
      ended();
    }
  }

  /** Routes one attempt's callbacks to the exchange while that attempt is current. */
  final class Attempt implements AsyncResponseConsumer<RequestRecord>, FutureCallback<RequestRecord> {
    private final int n;

    Attempt(int n) {
      this.n = n;
    }

    private boolean current() {
      return n == attempt;
    }

    @Override
    public void consumeResponse(HttpResponse response, EntityDetails entityDetails,
        HttpContext context, FutureCallback<RequestRecord> resultCallback)
        throws org.apache.hc.core5.http.HttpException, IOException {
      if (current()) {
        StreamExchange.this.consumeResponse(response, entityDetails, context, resultCallback);
      }
    }

    @Override
    public void informationResponse(HttpResponse response, HttpContext context) {}

    @Override
    public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
      capacityChannel.update(Integer.MAX_VALUE);
    }

    @Override
    public void consume(ByteBuffer src) throws IOException {
      if (current()) {
        StreamExchange.this.consume(src);
      } else {
        src.position(src.limit());
      }
    }

    @Override
    public void streamEnd(List<? extends Header> trailers) {
      if (current()) {
        StreamExchange.this.streamEnd(trailers);
      }
    }

    @Override
    public void failed(Exception cause) {
      if (current()) {
        StreamExchange.this.fail(cause);
      }
    }

    @Override
    public void releaseResources() {}

    @Override
    public void completed(RequestRecord r) {}

    @Override
    public void cancelled() {
      if (current()) {
        StreamExchange.this.cancelled();
      }
    }
  }

  /** The request body, noting when the connection asked for it and when it was all written. */
  private final class WatchedBody implements AsyncEntityProducer {
    private final AsyncEntityProducer body;
    private final int n;

    WatchedBody(AsyncEntityProducer body, int n) {
      this.body = body;
      this.n = n;
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
      if (n == attempt && bodyStartNanos == RequestRecord.NONE) {
        bodyStartNanos = System.nanoTime();
      }
      // The body's end is the producer's endStream() call (an in-memory body never reports
      // available() <= 0): the last body bytes are then in the connection's output, which the
      // I/O thread flushes to the socket in the same event.
      body.produce(new EndWatchingChannel(channel, n));
    }

    @Override
    public int available() {
      return body.available();
    }

    @Override
    public boolean isRepeatable() {
      return body.isRepeatable();
    }

    @Override
    public void failed(Exception cause) {
      body.failed(cause);
    }

    @Override
    public void releaseResources() {
      body.releaseResources();
    }

    @Override
    public long getContentLength() {
      return body.getContentLength();
    }

    @Override
    public String getContentType() {
      return body.getContentType();
    }

    @Override
    public String getContentEncoding() {
      return body.getContentEncoding();
    }

    @Override
    public boolean isChunked() {
      return body.isChunked();
    }

    @Override
    public Set<String> getTrailerNames() {
      return body.getTrailerNames();
    }
  }

  /**
   * One stream's chunk reader and growable buffers, pooled per I/O thread (each thread's exchanges borrow and
   * return them on that thread only). Buffers grown past {@link #KEEP_LIMIT} entries are dropped
   * instead of pooled, so a rare huge stream does not pin its memory.
   */
  static final class Scratch {
    static final int KEEP_LIMIT = 1 << 16;
    static final int POOL_LIMIT = 4096;
    private static final ThreadLocal<java.util.ArrayDeque<Scratch>> POOL =
        ThreadLocal.withInitial(java.util.ArrayDeque::new);

    final ChunkReader reader = new ChunkReader();
    int[] gaps = new int[64];
    int[] endsOrNull;
    int[] cum = new int[64];
    final StringBuilder text = new StringBuilder(256);
    final StringBuilder reasoning = new StringBuilder(64);

    int[] ends() {
      if (endsOrNull == null) {
        endsOrNull = new int[128];
      }
      return endsOrNull;
    }

    static Scratch borrow() {
      Scratch s = POOL.get().pollFirst();
      return s != null ? s : new Scratch();
    }

    static void giveBack(Scratch s) {
      if (s.gaps.length > KEEP_LIMIT || s.cum.length > KEEP_LIMIT
          || (s.endsOrNull != null && s.endsOrNull.length > 2 * KEEP_LIMIT)
          || s.text.capacity() > 4 * KEEP_LIMIT || s.reasoning.capacity() > 4 * KEEP_LIMIT) {
        return;
      }
      s.text.setLength(0);
      s.reasoning.setLength(0);
      java.util.ArrayDeque<Scratch> pool = POOL.get();
      if (pool.size() < POOL_LIMIT) {
        pool.addFirst(s);
      }
    }
  }
}
