package io.infx.client;

/**
 * Whether the HTTP/1.1 pool keeps connections alive between requests.
 *
 * <p>Some servers announce keep-alive and still close the connection right after each response
 * (llama.cpp's {@code llama-server} closes it about 0.1 ms after a stream despite
 * {@code Keep-Alive: timeout=5, max=100}). A request written to such a connection in that window
 * never reaches the server, and the client cannot prove it did not (its bytes were written), so it
 * must fail. {@link #AUTO} avoids the window: once the server is seen closing an idle kept-alive
 * connection, every later request gets a fresh connection — as the Python reference client does
 * (it opens one per request).
 */
public enum ConnectionReuse {
  /** Keep connections alive until the server is seen closing idle ones, then one per request. */
  AUTO,
  /** Always keep connections alive (unless the response says {@code Connection: close}). */
  ALWAYS,
  /** A fresh connection for every request (the Python reference client's behaviour). */
  NEVER
}
