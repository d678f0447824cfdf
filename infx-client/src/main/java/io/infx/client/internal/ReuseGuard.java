package io.infx.client.internal;

import io.infx.client.ConnectionReuse;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.hc.core5.http.ConnectionReuseStrategy;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.impl.DefaultConnectionReuseStrategy;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;

/**
 * Decides HTTP/1.1 connection reuse per {@link ConnectionReuse} and, for {@code AUTO}, learns
 * whether the server closes connections it announced as kept alive.
 *
 * <p>Two signals, either of which turns keep-alive off for the rest of the client's life:
 * <ul>
 *   <li>a response from a server known to close after every stream: llama.cpp's
 *       {@code llama-server} ({@code Server: llama.cpp}) closes the connection about 0.1 ms after
 *       each streamed response despite {@code Keep-Alive: timeout=5, max=100}; knowing it from the
 *       first response head means no request is ever written to such a connection;
 *   <li>any other server seen closing an idle connection within {@link #CLOSE_WINDOW_NANOS} of its
 *       last response while the client is open (the client itself closes idle connections only on
 *       eviction, after seconds, or at shutdown). Requests written to such a connection before the
 *       close was seen fail — their bytes left, so they are not re-sent.
 * </ul>
 * Connections are identified by their local socket address (unique while open). Thread-safe.
 */
public final class ReuseGuard implements ConnectionReuseStrategy, IOSessionListener {

  /** A disconnect this soon after a response counts as the server closing after responses. */
  static final long CLOSE_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

  private final ConnectionReuse policy;
  private final ConnectionReuseStrategy base = DefaultConnectionReuseStrategy.INSTANCE;
  private final ConcurrentHashMap<String, SocketAddress> sessions = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<SocketAddress, Long> idleSince = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<SocketAddress, IOSession> open = new ConcurrentHashMap<>();
  private volatile boolean serverClosesIdle;
  private volatile boolean shuttingDown;

  public ReuseGuard(ConnectionReuse policy) {
    this.policy = policy;
  }

  /** True once the server was seen (or is known) to close kept-alive connections (AUTO learning). */
  public boolean serverClosesIdle() {
    return serverClosesIdle;
  }

  /** Called before the client closes its own connections (they are not the server's doing). */
  public void shutdown() {
    shuttingDown = true;
  }

  /** A response head arrived on the connection with this local address. */
  public void busy(SocketAddress local) {
    if (local != null) {
      idleSince.remove(local);
    }
  }

  /** The response on this connection completed normally at {@code nanos}. */
  public void idle(SocketAddress local, long nanos) {
    if (local != null && policy == ConnectionReuse.AUTO && !serverClosesIdle) {
      idleSince.put(local, nanos);
    }
  }

  @Override
  public boolean keepAlive(HttpRequest request, HttpResponse response, HttpContext context) {
    return switch (policy) {
      case NEVER -> false;
      case ALWAYS -> base.keepAlive(request, response, context);
      case AUTO -> {
        if (closesAfterEveryStream(response)) {
          serverClosesIdle = true;
        }
        yield !serverClosesIdle && base.keepAlive(request, response, context);
      }
    };
  }

  /** Servers known to close the connection right after each streamed response. */
  static boolean closesAfterEveryStream(HttpResponse response) {
    Header server = response.getFirstHeader("Server");
    return server != null && server.getValue() != null
        && server.getValue().toLowerCase(Locale.ROOT).startsWith("llama.cpp");
  }

  @Override
  public void connected(IOSession session) {
    SocketAddress local = session.getLocalAddress();
    if (local != null) {
      sessions.put(session.getId(), local);
      open.put(local, session);
    }
  }

  /**
   * Closes the connection with this local address at once (the client gave up on its exchange,
   * e.g. an idle or total deadline). Cancelling the exchange's future alone does not always free
   * the connection: on a kept-alive connection whose server stalls mid-stream, HttpClient 5.6 kept
   * the pool slot leased until the server resumed and finished the response, so with a pool sized
   * to the concurrency every later request waited for a slot and timed out without being sent.
   * No-op for an unknown or already closed connection.
   */
  public void abort(SocketAddress local) {
    IOSession s = local == null ? null : open.get(local);
    if (s != null) {
      s.close(CloseMode.IMMEDIATE);
    }
  }

  @Override
  public void disconnected(IOSession session) {
    SocketAddress local = sessions.remove(session.getId()); // the socket's own address is gone by now
    if (local == null) {
      return;
    }
    open.remove(local, session);
    Long since = idleSince.remove(local);
    if (since != null && !shuttingDown && System.nanoTime() - since < CLOSE_WINDOW_NANOS) {
      serverClosesIdle = true;
      idleSince.clear();
    }
  }

  @Override
  public void startTls(IOSession session) {}

  @Override
  public void inputReady(IOSession session) {}

  @Override
  public void outputReady(IOSession session) {}

  @Override
  public void timeout(IOSession session) {}

  @Override
  public void exception(IOSession session, Exception ex) {}
}
