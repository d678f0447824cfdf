package io.infx.core.io;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Small HTTP calls whose answer must be small and quick (server probes, {@code /tokenize},
 * readiness and metrics scrapes, profiler triggers), bounded in bytes <em>and</em> in time.
 *
 * <p>Why: the JDK client's {@link HttpRequest.Builder#timeout request timeout} only covers the
 * wait for the response head, and {@code BodyHandlers.ofString()/ofByteArray()} buffer the whole
 * body. A server (or proxy) that answers a probe with a never-ending body therefore made the
 * caller buffer until {@link OutOfMemoryError} killed the JDK client's selector thread, after
 * which {@code send} waited forever (issue 29: {@code bench serve} hung on a server streaming one
 * endless SSE line, although the benchmark's own streams are capped). Here the body is refused
 * past {@code maxBytes} and the whole exchange — head and body — past {@code total}; both close
 * the connection.
 */
public final class BoundedHttp {

  private BoundedHttp() {}

  /** The answer's body was longer than the caller allowed; the connection was closed. */
  public static final class BodyTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    BodyTooLargeException(int maxBytes) {
      super("response body longer than " + maxBytes + " bytes");
    }
  }

  /**
   * Sends {@code request} and reads at most {@code maxBytes} of its body within {@code total}
   * (from this call to the body's end).
   *
   * @param maxBytes largest body accepted, in bytes (≥ 0)
   * @param total deadline of the whole exchange (positive)
   * @return the response with its whole body
   * @throws BodyTooLargeException when the body is longer than {@code maxBytes}
   * @throws HttpTimeoutException when head and body did not arrive within {@code total}
   * @throws IOException on any other transport failure
   * @throws InterruptedException when interrupted (the exchange is cancelled)
   */
  public static HttpResponse<byte[]> send(HttpClient http, HttpRequest request, int maxBytes,
      Duration total) throws IOException, InterruptedException {
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(request, "request");
    if (maxBytes < 0) {
      throw new IllegalArgumentException("maxBytes must be ≥ 0, got " + maxBytes);
    }
    long deadline = System.nanoTime() + positiveNanos(total);
    Capped[] body = new Capped[1];
    CompletableFuture<HttpResponse<byte[]>> f = http.sendAsync(request, info -> {
      Capped c = new Capped(maxBytes, deadline);
      body[0] = c;
      return c;
    });
    return await(f, request, total, () -> {
      if (body[0] != null) {
        body[0].cancel(new HttpTimeoutException("deadline passed"));
      }
    });
  }

  /**
   * Sends {@code request} and returns the status code as soon as the response head arrives,
   * within {@code total}; the body is never read (the connection is closed), so an endless or
   * stalled body cannot hold the caller. For readiness checks, where only the status counts.
   *
   * @param total deadline for the response head (positive)
   * @return the HTTP status code
   * @throws HttpTimeoutException when no head arrived within {@code total}
   * @throws IOException on any other transport failure
   * @throws InterruptedException when interrupted (the exchange is cancelled)
   */
  public static int status(HttpClient http, HttpRequest request, Duration total)
      throws IOException, InterruptedException {
    Objects.requireNonNull(http, "http");
    Objects.requireNonNull(request, "request");
    positiveNanos(total);
    return await(http.sendAsync(request, info -> new HeadOnly()), request, total, () -> {})
        .statusCode();
  }

  private static long positiveNanos(Duration total) {
    Objects.requireNonNull(total, "total");
    if (total.isNegative() || total.isZero()) {
      throw new IllegalArgumentException("total must be positive, got " + total);
    }
    return total.toNanos();
  }

  /** Waits for {@code f} until {@code total}; past it, or when interrupted, cancels the exchange. */
  private static <T> HttpResponse<T> await(CompletableFuture<HttpResponse<T>> f,
      HttpRequest request, Duration total, Runnable abortBody)
      throws IOException, InterruptedException {
    try {
      return f.get(total.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true); // cancels the exchange (JDK 16+)
      abortBody.run();
      throw new HttpTimeoutException("no complete answer from " + request.uri() + " within "
          + total.toMillis() + " ms");
    } catch (InterruptedException e) {
      f.cancel(true);
      abortBody.run();
      throw e;
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof IOException io) {
        throw io;
      }
      throw new IOException(c == null ? e.toString() : c.toString(), c);
    }
  }

  /** A body that is done before it starts: the subscription is cancelled at once. */
  private static final class HeadOnly implements HttpResponse.BodySubscriber<Void> {
    @Override
    public CompletionStage<Void> getBody() {
      return CompletableFuture.completedFuture(null);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      s.cancel();
    }

    @Override
    public void onNext(List<ByteBuffer> items) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onComplete() {}
  }

  /** Collects up to a limit, one buffer list at a time, and gives up past it or the deadline. */
  private static final class Capped implements HttpResponse.BodySubscriber<byte[]> {
    private final int maxBytes;
    private final long deadline;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private volatile Flow.Subscription subscription;
    private byte[] bytes = new byte[256];
    private int length;

    Capped(int maxBytes, long deadline) {
      this.maxBytes = maxBytes;
      this.deadline = deadline;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      if (result.isDone()) {
        s.cancel();
      } else {
        s.request(1);
      }
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      if (result.isDone()) {
        return;
      }
      for (ByteBuffer b : items) {
        int n = b.remaining();
        if ((long) length + n > maxBytes) {
          cancel(new BodyTooLargeException(maxBytes));
          return;
        }
        if (length + n > bytes.length) {
          bytes = Arrays.copyOf(bytes, Math.min(maxBytes, Math.max(bytes.length * 2, length + n)));
        }
        b.get(bytes, length, n);
        length += n;
      }
      // a body that keeps trickling in never lets the caller's wait time out on its own
      if (System.nanoTime() - deadline > 0) {
        cancel(new HttpTimeoutException("body still arriving at the deadline"));
        return;
      }
      subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
      result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      result.complete(Arrays.copyOf(bytes, length));
    }

    void cancel(IOException why) {
      if (result.completeExceptionally(why)) {
        Flow.Subscription s = subscription;
        if (s != null) {
          s.cancel(); // closes the connection: the rest is never read
        }
      }
    }
  }
}
