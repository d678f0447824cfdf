package io.infx.client.sim;

import io.infx.core.UsageException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Simulator settings given as {@code key=value} text ({@code infx run --sim-option slowdown=1.25}):
 * the keys are {@code infx sim}'s flag names without the dashes. One home for the mapping from
 * text to {@link SimConfig}, so the embedded simulator of {@code infx run} takes the same knobs as
 * {@code infx sim}.
 *
 * <table>
 *   <caption>keys</caption>
 *   <tr><td>{@code slowdown}</td><td>{@link SimConfig#slowdown()}, a factor &gt; 0</td></tr>
 *   <tr><td>{@code max-num-seqs}</td><td>{@link SimConfig#maxNumSeqs()}</td></tr>
 *   <tr><td>{@code prefill-tokens-per-second}</td><td>{@link SimConfig#prefillTokensPerSecond()}, tok/s</td></tr>
 *   <tr><td>{@code decode-step-ms}</td><td>{@link SimConfig#decodeStepBase()}, ms</td></tr>
 *   <tr><td>{@code decode-step-per-seq-us}</td><td>{@link SimConfig#decodeStepPerSeq()}, µs</td></tr>
 *   <tr><td>{@code stream-interval}</td><td>{@link SimConfig#streamInterval()}, tokens</td></tr>
 *   <tr><td>{@code seed}</td><td>{@link SimConfig#seed()}</td></tr>
 * </table>
 */
public final class SimOptions {

  /** The keys {@link #apply} takes. */
  public static final Set<String> KEYS = Set.of("slowdown", "max-num-seqs", "prefill-tokens-per-second",
      "decode-step-ms", "decode-step-per-seq-us", "stream-interval", "seed");

  private SimOptions() {}

  /**
   * {@code base} with {@code options} applied.
   *
   * @throws UsageException naming the key for an unknown key, a value that is not a number, or a
   *     value out of {@link SimConfig}'s range
   */
  public static SimConfig apply(SimConfig base, Map<String, String> options) {
    ImmutableSimConfig.Builder b = SimConfig.builder().from(base);
    for (Map.Entry<String, String> e : options.entrySet()) {
      String key = e.getKey().strip().toLowerCase(Locale.ROOT);
      String v = e.getValue().strip();
      try {
        switch (key) {
          case "slowdown" -> b.slowdown(Double.parseDouble(v));
          case "max-num-seqs" -> b.maxNumSeqs(Integer.parseInt(v));
          case "prefill-tokens-per-second" -> b.prefillTokensPerSecond(Double.parseDouble(v));
          case "decode-step-ms" -> b.decodeStepBase(Duration.ofNanos((long) (Double.parseDouble(v) * 1e6)));
          case "decode-step-per-seq-us" -> b.decodeStepPerSeq(Duration.ofNanos((long) (Double.parseDouble(v) * 1e3)));
          case "stream-interval" -> b.streamInterval(Integer.parseInt(v));
          case "seed" -> b.seed(Long.parseLong(v));
          default -> throw new UsageException("unknown simulator option '" + e.getKey() + "' (known: "
              + new TreeSet<>(KEYS) + ")");
        }
      } catch (NumberFormatException ex) {
        throw new UsageException("simulator option " + key + ": '" + v + "' is not a number");
      }
    }
    try {
      return b.build();
    } catch (IllegalArgumentException ex) {
      throw new UsageException("simulator options " + options + " are out of range (slowdown and speeds "
          + "must be > 0, counts >= 1, durations >= 0)");
    }
  }

  /**
   * Parses {@code key=value} strings (as {@code --sim-option} gives them) onto {@code base}.
   *
   * @throws UsageException for a string without {@code =}, and as {@link #apply}
   */
  public static SimConfig parse(SimConfig base, Iterable<String> pairs) {
    Map<String, String> m = new java.util.LinkedHashMap<>();
    for (String p : pairs) {
      int eq = p.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("simulator option must look like key=value, got '" + p + "'");
      }
      m.put(p.substring(0, eq), p.substring(eq + 1));
    }
    return apply(base, m);
  }
}
