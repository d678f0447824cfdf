package io.infx.client;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * Which of HotSpot's JIT compilers may compile code in this JVM from the measured client's start
 * on, and why — the client's CPU when it shares its cores with the server.
 *
 * <p>The rule ({@link #choose}): a mode given by the user ({@code --client-jit}) is used as it
 * is; else a server on loopback ({@link IoThreads#isLoopback}) gets {@link Mode#TIERED_WARMUP},
 * any other server {@link Mode#TIERED} (the JVM's default). Why: the optimizing compiler (C2)
 * spends hundreds of milliseconds of CPU per large method, and in a run of a few hundred requests
 * much of that lands in the measured phase — warmed code is recompiled when real traffic takes
 * branches the warm-up did not, and per-request methods reach C2's thresholds only then.
 * Measured against llama.cpp's {@code llama-server} at c=16 on the 2-core machine (96 requests,
 * per-thread CPU from {@code /proc}, docs/performance.md): the C2 thread used 4–12 ms of CPU per
 * request during the measured phase against 3 ms for the client's I/O; on loopback that CPU is
 * the server's, so the client measures a server it slowed down. C1 alone removes it but leaves
 * the client's hot path in C1's code, which is 1.6–2× slower per SSE event than C2's
 * ({@code io.infx.client.HotPathCpu}: 0.7–1.2 µs against 1.4–1.7 µs per event) — the client's
 * capacity against a fast local server (issue 27). {@link Mode#TIERED_WARMUP} keeps both: C2
 * compiles while the client warms up against its own in-process server
 * ({@code ServeBenchmark.clientWarmup}, before any request reaches the benchmarked server), and
 * nothing after — measured against nginx's canned stream (20,000 requests, load average ≈ 20),
 * C2's CPU in the measured phase was 0.003 ms per request against 0.203 ms with
 * {@link Mode#TIERED} (0.001 with {@link Mode#C1}). A remote server does not share the client's
 * cores, so there {@link Mode#TIERED} stays the default.
 *
 * <p>{@link Mode#C1} and {@link Mode#TIERED_WARMUP} are applied with a HotSpot compiler directive
 * ({@code Compiler.directives_add} through the DiagnosticCommand MBean: C2 excluded for every
 * method): C1 after the prompts are built (the tokenizer keeps its C2 code) and before the
 * client's warm-up, tiered-warmup when the warm-up is over ({@link #warmupOver()}). Code C2
 * compiled before stays in use; a method deoptimized later is recompiled by C1. The directive
 * lasts for the rest of this JVM's life. On a JVM without the command the mode falls back to
 * {@link Mode#TIERED} and says so.
 */
public final class ClientJit {

  /** The compilers allowed to compile the client's code. */
  public enum Mode {
    /** The JVM's tiered compilation: C1, then C2 for hot code. */
    TIERED,
    /**
     * Tiered compilation until the client's own warm-up is over ({@link #warmupOver()}), then no
     * new C2 compilation: the hot path keeps the C2 code the warm-up earned, and the measured
     * phase has no optimizing compiler's CPU in it.
     */
    TIERED_WARMUP,
    /** C1 only: no C2 compilation from now on. */
    C1;

    /** The CLI spelling: {@code tiered}, {@code tiered-warmup}, {@code c1}. */
    public String cliName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * A mode and why.
   *
   * @param mode the compilers in use
   * @param reason one line for the run's output and raw result
   */
  public record Choice(Mode mode, String reason) {}

  private static volatile Choice applied;
  /** Whether the C2 exclusion directive is in this JVM. */
  private static boolean c2Excluded;

  private ClientJit() {}

  /**
   * The mode for a client of {@code server}.
   *
   * @param given the user's mode, if any (wins)
   * @param server the server's base URI
   */
  public static Choice choose(Optional<Mode> given, URI server) {
    if (given.isPresent()) {
      return new Choice(given.get(), "given (--client-jit)");
    }
    return IoThreads.isLoopback(server.getHost())
        ? new Choice(Mode.TIERED_WARMUP, "server on loopback shares this machine's cores: C2"
            + " compiles during the client's own warm-up only, none once requests reach the server"
            + " (--client-jit tiered|c1 overrides)")
        : new Choice(Mode.TIERED, "server not on loopback: the JVM's tiered compilation");
  }

  /**
   * Puts {@code choice} into effect in this JVM and returns what is in effect: {@link Mode#C1}
   * adds the directive now (once per JVM); {@link Mode#TIERED_WARMUP} adds it when
   * {@link #warmupOver()} is called; {@link Mode#TIERED} changes nothing (a JVM where C2 was
   * already excluded stays so, and the returned choice says it). Never throws.
   */
  public static synchronized Choice apply(Choice choice) {
    if (c2Excluded) {
      return applied;
    }
    applied = choice;
    if (choice.mode() == Mode.C1) {
      excludeC2(choice);
    }
    return applied;
  }

  /**
   * The client's warm-up is over and the first request to the benchmarked server is next: under
   * {@link Mode#TIERED_WARMUP} C2 compiles nothing more from here on (its code so far stays in
   * use). No-op in any other mode, or when {@link #apply} was never called (a library run).
   */
  static synchronized void warmupOver() {
    Choice a = applied;
    if (a != null && a.mode() == Mode.TIERED_WARMUP && !c2Excluded) {
      excludeC2(a);
    }
  }

  /** Adds the directive excluding C2 for every method; on failure falls back to tiered, saying so. */
  private static void excludeC2(Choice choice) {
    try {
      Path f = Files.createTempFile("infx-jit-", ".json");
      try {
        Files.writeString(f, "[{ match: \"*.*\", c2: { Exclude: true } }]");
        javax.management.MBeanServer mbs =
            java.lang.management.ManagementFactory.getPlatformMBeanServer();
        Object out = mbs.invoke(
            new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
            "compilerDirectivesAdd", new Object[] {new String[] {f.toString()}},
            new String[] {String[].class.getName()});
        if (out != null && !String.valueOf(out).isBlank()
            && !String.valueOf(out).contains("1 compiler directives added")) {
          throw new IllegalStateException(String.valueOf(out).strip());
        }
      } finally {
        Files.deleteIfExists(f);
      }
      c2Excluded = true;
      applied = choice;
    } catch (Exception | LinkageError e) {
      applied = new Choice(Mode.TIERED, choice.mode().cliName() + " was chosen (" + choice.reason()
          + ") but this JVM has no compiler directives: " + e.getClass().getSimpleName());
    }
  }

  /** What {@link #apply} put into effect in this JVM, if it was called. */
  public static Optional<Choice> applied() {
    return Optional.ofNullable(applied);
  }
}
