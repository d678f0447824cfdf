package io.infx.client.agentx.internal;

import io.infx.client.RequestRecord;
import io.infx.client.TokenSource;
import io.infx.client.load.VirtualTicker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server on a {@link VirtualTicker}: each request streams its {@code max_tokens} and ends after
 * a latency that is a function of that count, exactly; {@link #close()} cancels what is in flight
 * at the current virtual time, as the HTTP client does.
 */
final class VirtualTransport implements Transport {

  private static final Pattern MAX_TOKENS = Pattern.compile("\"max_tokens\":(\\d+)");

  /** One request as the server saw it. */
  record Sent(long sendNanos, int maxTokens, boolean warmup, List<Map.Entry<String, String>> headers) {}

  private final VirtualTicker ticker;
  private final IntToLongFunction latencyNanos;
  private final List<CompletableFuture<RequestRecord>> open = new ArrayList<>();
  private final List<Long> openSendNanos = new ArrayList<>();
  final List<Sent> sent = new ArrayList<>();
  boolean closed;

  /** @param latencyNanos the request's duration given its {@code max_tokens} */
  VirtualTransport(VirtualTicker ticker, IntToLongFunction latencyNanos) {
    this.ticker = ticker;
    this.latencyNanos = latencyNanos;
  }

  @Override
  public CompletableFuture<RequestRecord> send(byte[] body, int promptTokens,
      List<Map.Entry<String, String>> headers, boolean warmup, long intendedNanos) {
    long t = ticker.nanoTime();
    Matcher m = MAX_TOKENS.matcher(new String(body, StandardCharsets.UTF_8));
    if (!m.find()) {
      throw new AssertionError("no max_tokens in the body");
    }
    int tokens = Integer.parseInt(m.group(1));
    sent.add(new Sent(t, tokens, warmup, headers));
    CompletableFuture<RequestRecord> f = new CompletableFuture<>();
    if (closed) {
      f.complete(cancelled(t, t, intendedNanos));
      return f;
    }
    open.add(f);
    openSendNanos.add(t);
    long end = t + latencyNanos.applyAsLong(tokens);
    ticker.schedule(end, () -> {
      int i = open.indexOf(f);
      if (i < 0) {
        return; // cancelled by close()
      }
      open.remove(i);
      openSendNanos.remove(i);
      long firstToken = t + (end - t) / (tokens + 1);
      f.complete(RequestRecord.builder().intendedNanos(intendedNanos).sendNanos(t)
          .headersNanos(firstToken).firstContentNanos(firstToken).tokenChunkNanos(firstToken)
          .e2elEndNanos(end).endNanos(end).status(200).promptTokens(promptTokens)
          .usagePromptTokens(promptTokens).outputTokens(tokens, TokenSource.USAGE).doneSeen(true)
          .build());
    });
    return f;
  }

  private static RequestRecord cancelled(long send, long now, long intended) {
    return RequestRecord.builder().intendedNanos(intended).sendNanos(send).endNanos(now)
        .cancelled(true).build();
  }

  @Override
  public int inFlight() {
    return open.size();
  }

  @Override
  public void close() {
    closed = true;
    long now = ticker.nanoTime();
    List<CompletableFuture<RequestRecord>> fs = new ArrayList<>(open);
    List<Long> sends = new ArrayList<>(openSendNanos);
    open.clear();
    openSendNanos.clear();
    for (int i = 0; i < fs.size(); i++) {
      fs.get(i).complete(cancelled(sends.get(i), now, sends.get(i)));
    }
  }
}
