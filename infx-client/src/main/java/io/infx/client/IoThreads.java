package io.infx.client;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * How many I/O reactor threads a {@link StreamingClient} runs, and why.
 *
 * <p>The rule ({@link #choose}): a count given by the user ({@code --io-threads}) is used as it
 * is; else a server on the loopback interface gets <b>one</b> thread, any other server one per
 * available processor. Why: a server on loopback runs on this machine's cores, so every cycle
 * the client spends is one the server does not get — and the client then measures a server it
 * slowed down itself. Measured on the 2-core machine against llama.cpp's {@code llama-server}
 * at c=16 (docs/performance.md): with two reactor threads the server's own prompt time rose by
 * ~60 % while infx was the client and infx's median TTFT was 1.39× the Python client's (which
 * runs one asyncio loop); with one, the server's prompt times matched and the ratio was 1.06.
 * A remote server (a GPU host) does not share the client's cores, so there the client keeps one
 * thread per core for throughput.
 *
 * <p>Loopback is decided from the URI's host without any name lookup: {@code localhost} (and
 * {@code *.localhost}, RFC 6761), and IP literals in 127.0.0.0/8, {@code ::1} or the wildcard
 * address ({@code 0.0.0.0}, {@code ::}, which connect to this machine). Any other host name
 * counts as remote even if it happens to resolve to this machine.
 *
 * @param count reactor threads (≥ 1)
 * @param reason why this count
 */
public record IoThreads(int count, Reason reason) {

  /** Why a client runs {@link #count()} reactor threads. */
  public enum Reason {
    /** Given explicitly ({@code --io-threads}, {@link ClientOptions#ioThreads()}). */
    GIVEN("given (--io-threads)"),
    /** The server is on loopback and shares this machine's cores: one thread. */
    LOOPBACK_SERVER("server on loopback shares this machine's cores: one I/O thread leaves the"
        + " rest to the server (--io-threads N overrides)"),
    /** A remote server: one thread per available processor. */
    REMOTE_SERVER("server not on loopback: one I/O thread per available processor");

    private final String text;

    Reason(String text) {
      this.text = text;
    }

    /** One line for the run's output and its raw result ({@code infx.client.io_threads_reason}). */
    public String text() {
      return text;
    }
  }

  public IoThreads {
    if (count < 1) {
      throw new IllegalArgumentException("I/O threads must be ≥ 1, got " + count);
    }
  }

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  /**
   * The reactor thread count for a client of {@code server}.
   *
   * @param given the user's count, if any (wins; must be ≥ 1)
   * @param server the server's base URI
   * @param cores available processors of this machine
   * @throws IllegalArgumentException if the given count is below 1
   */
  public static IoThreads choose(OptionalInt given, URI server, int cores) {
    if (given.isPresent()) {
      return new IoThreads(given.getAsInt(), Reason.GIVEN);
    }
    return isLoopback(server.getHost())
        ? new IoThreads(1, Reason.LOOPBACK_SERVER)
        : new IoThreads(Math.max(1, cores), Reason.REMOTE_SERVER);
  }

  /** Whether {@code host} (a URI host, IPv6 literals in brackets or not) is this machine's. */
  static boolean isLoopback(String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    // only literals are parsed: getByName on a literal never consults DNS
    if (!IPV4.matcher(h).matches() && !h.contains(":")) {
      return false;
    }
    try {
      InetAddress a = InetAddress.getByName(h);
      return a.isLoopbackAddress() || a.isAnyLocalAddress();
    } catch (UnknownHostException | SecurityException e) {
      return false;
    }
  }
}
