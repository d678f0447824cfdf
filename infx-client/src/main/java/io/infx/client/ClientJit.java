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
 * is; else a server on loopback ({@link IoThreads#isLoopback}) gets {@link Mode#C1}, any other
 * server {@link Mode#TIERED} (the JVM's default). Why: the optimizing compiler (C2) spends
 * hundreds of milliseconds of CPU per large method, and in a run of a few hundred requests much
 * of that lands in the measured phase — warmed code is recompiled when real traffic takes
 * branches the warm-up did not, and per-request methods reach C2's thresholds only then.
 * Measured against llama.cpp's {@code llama-server} at c=16 on the 2-core machine (96 requests,
 * per-thread CPU from {@code /proc}, docs/performance.md): the C2 thread used 4–12 ms of CPU per
 * request during the measured phase against 3 ms for the client's I/O; with C1 only, the whole
 * JVM used 3.3–3.5 ms per request. On loopback that CPU is the server's, so the client measures a
 * server it slowed down. C1's code is a little slower at steady state (0.32 against 0.29 ms of
 * CPU per request over 40,000 requests against nginx), which only matters when the client is the
 * bottleneck — a remote server, where {@link Mode#TIERED} stays the default.
 *
 * <p>{@link Mode#C1} is applied with a HotSpot compiler directive ({@code Compiler.directives_add}
 * through the DiagnosticCommand MBean: C2 excluded for every method), after the prompts are built
 * (the tokenizer keeps its C2 code) and before the client's warm-up. It lasts for the rest of this
 * JVM's life. On a JVM without the command the mode falls back to {@link Mode#TIERED} and says so.
 */
public final class ClientJit {

  /** The compilers allowed to compile the client's code. */
  public enum Mode {
    /** The JVM's tiered compilation: C1, then C2 for hot code. */
    TIERED,
    /** C1 only: no C2 compilation from now on. */
    C1;

    /** The CLI spelling: {@code tiered}, {@code c1}. */
    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
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
        ? new Choice(Mode.C1, "server on loopback shares this machine's cores: no C2 compilation"
            + " during the run (--client-jit tiered overrides)")
        : new Choice(Mode.TIERED, "server not on loopback: the JVM's tiered compilation");
  }

  /**
   * Puts {@code choice} into effect in this JVM and returns what is in effect: {@link Mode#C1}
   * adds the directive (once per JVM); {@link Mode#TIERED} changes nothing (a JVM where C1 was
   * already applied stays so, and the returned choice says it). Never throws.
   */
  public static synchronized Choice apply(Choice choice) {
    if (applied != null && applied.mode() == Mode.C1) {
      return applied;
    }
    if (choice.mode() == Mode.TIERED) {
      applied = choice;
      return choice;
    }
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
      applied = choice;
    } catch (Exception | LinkageError e) {
      applied = new Choice(Mode.TIERED, "C1 only was chosen (" + choice.reason() + ") but this JVM"
          + " has no compiler directives: " + e.getClass().getSimpleName());
    }
    return applied;
  }

  /** What {@link #apply} put into effect in this JVM, if it was called. */
  public static Optional<Choice> applied() {
    return Optional.ofNullable(applied);
  }
}
