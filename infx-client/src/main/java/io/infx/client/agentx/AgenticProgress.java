package io.infx.client.agentx;

import io.infx.client.ProgressBar;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A snapshot of a running AgentX replay, reported about once a second (see
 * {@link AgenticOptions#progress()}) from the replay's own thread: keep the listener short.
 *
 * @param phase what runs now
 * @param finished requests that ended, any outcome: warmup requests during warmup; profiling
 *     requests during profiling and the drain (the drain's count includes the window's)
 * @param failed of those, the failed ones (errors and, in the drain, cancellations are not counted
 *     here: the drain's cancellations happen at its end)
 * @param inFlight requests on the wire now (fan-out can make this exceed the users)
 * @param elapsed time since the phase started
 * @param left time until the phase ends by the clock: the profiling window's end, or the drain's
 *     grace; for warmup, which ends when its quota is sent and drained, the warmup grace once it
 *     runs, else empty; zero in the snapshot after the run
 * @param target warmup: the warmup quota (a primer per lane + lanes × requests per lane); 0 otherwise
 */
public record AgenticProgress(Phase phase, long finished, long failed, int inFlight,
    Duration elapsed, Optional<Duration> left, long target) {

  /** The replay's phases as the progress line names them. */
  public enum Phase {
    /** Primers and one-token warmup requests, excluded from every metric. */
    WARMUP("warm-up"),
    /** The measured window ({@link AgenticOptions#duration()}). */
    PROFILING("profiling"),
    /** After the window: in-flight requests finish within the grace, nothing new is sent. */
    DRAIN("drain");

    private final String label;

    Phase(String label) {
      this.label = label;
    }

    /** The word on the progress line. */
    public String label() {
      return label;
    }
  }

  /** Receives the snapshots. */
  @FunctionalInterface
  public interface Listener {
    void onProgress(AgenticProgress p);
  }

  /**
   * How far the phase is: requests of the warmup quota, or time of the profiling window / grace
   * (0 while no clock bounds the phase).
   *
   * @return a fraction in [0, 1]
   */
  public double fraction() {
    if (phase == Phase.WARMUP) {
      return target <= 0 ? 0 : Math.min(1, (double) finished / target);
    }
    if (left.isEmpty()) {
      return 0;
    }
    double total = elapsed.toNanos() + left.get().toNanos();
    return total <= 0 ? 1 : elapsed.toNanos() / total;
  }

  /**
   * The counters of the line, e.g. {@code 1234 done [312s, 3.9 req/s, 17 in flight, 2 errors,
   * 48:08 left]} (no rate in the drain) ({@code 40/330 done} during warmup, no time left until its grace runs).
   */
  public String detail() {
    double secs = elapsed.toNanos() / 1e9;
    String done = phase == Phase.WARMUP && target > 0 ? finished + "/" + target : Long.toString(finished);
    // the drain's count includes the window's requests: a rate over the drain's seconds would lie
    String rate = phase == Phase.DRAIN ? ""
        : String.format(Locale.ROOT, ", %.1f req/s", secs > 0 ? finished / secs : 0);
    return String.format(Locale.ROOT, "%s done [%.0fs%s, %d in flight, %d error%s%s]",
        done, secs, rate, inFlight, failed, failed == 1 ? "" : "s",
        left.map(l -> ", " + clock(l) + " left").orElse(""));
  }

  /** A listener drawing the line on {@code bar}, the same bar {@code infx bench serve} draws. */
  public static Listener onto(ProgressBar bar) {
    return p -> bar.show(p.phase().label(), p.fraction(), p.detail());
  }

  /** {@code m:ss}, or {@code h:mm:ss} from an hour. */
  static String clock(Duration d) {
    long s = Math.max(0, (d.toNanos() + 999_999_999L) / 1_000_000_000L);
    return s >= 3600
        ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
  }
}
