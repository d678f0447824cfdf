package io.infx.fleet.spi;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.io.BoundedHttp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Waits until a server answers its health endpoint, while the server process is still alive
 * (reference {@code wait_for_server_ready}, fleet spec §7): polls {@code GET <health>} until the
 * status is below 400; fails at once when the liveness check says the process died; gives up
 * after the timeout ({@link Duration#ZERO} waits forever — the job's own limit bounds it).
 * Shared by every adapter so local, Slurm and container launches behave identically.
 */
public final class ReadinessProbe {

  /** The server will not become ready. */
  public static final class NotReadyException extends InfxException {
    private static final long serialVersionUID = 1L;

    NotReadyException(String message) {
      super(ErrorKind.SERVER, message);
    }
  }

  /** Liveness: empty while alive, the exit code once dead. */
  @FunctionalInterface
  public interface Liveness {
    OptionalInt exitCode();
  }

  private final URI health;
  private final Duration poll;
  private final Duration timeout;

  private ReadinessProbe(URI health, Duration poll, Duration timeout) {
    this.health = health;
    this.poll = poll;
    this.timeout = timeout;
  }

  /** Probes {@code health} every second for up to 10 minutes. */
  public static ReadinessProbe http(URI health) {
    return new ReadinessProbe(health, Duration.ofSeconds(1), Duration.ofMinutes(10));
  }

  /** Poll interval (reference: 5 s; default here 1 s). */
  public ReadinessProbe pollEvery(Duration interval) {
    return new ReadinessProbe(health, interval, timeout);
  }

  /** Gives up after {@code limit}; {@link Duration#ZERO} waits forever. */
  public ReadinessProbe timeout(Duration limit) {
    return new ReadinessProbe(health, poll, limit);
  }

  /**
   * Blocks until ready.
   *
   * @param alive liveness of the server process
   * @param progress called before each poll with the elapsed time (e.g. to log "waiting…"); may be null
   * @return how long it took
   * @throws NotReadyException when the process died first or the timeout passed
   */
  public Duration awaitReady(Liveness alive, Supplier<String> progress) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long t0 = System.nanoTime();
    HttpRequest req = HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(5)).GET().build();
    while (true) {
      OptionalInt dead = alive.exitCode();
      if (dead.isPresent()) {
        throw new NotReadyException("server process exited with code " + dead.getAsInt()
            + " before " + health + " became ready");
      }
      try {
        // the status within 5 s; the body is never read, so an endless one cannot hold the wait
        if (BoundedHttp.status(http, req, Duration.ofSeconds(5)) < 400) {
          return Duration.ofNanos(System.nanoTime() - t0);
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NotReadyException("interrupted while waiting for " + health);
      }
      Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
      if (!timeout.isZero() && elapsed.compareTo(timeout) >= 0) {
        throw new NotReadyException("server at " + health + " not ready after " + timeout.toSeconds() + " s");
      }
      if (progress != null) {
        progress.get();
      }
      try {
        Thread.sleep(poll.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NotReadyException("interrupted while waiting for " + health);
      }
    }
  }
}
