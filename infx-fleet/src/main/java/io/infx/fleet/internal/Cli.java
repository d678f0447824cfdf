package io.infx.fleet.internal;

import io.infx.fleet.spi.BackendException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a command-line tool to completion and captures its output (bounded in time). */
public final class Cli {

  /** Exit status and output of one command. */
  public record Result(List<String> argv, int exitCode, String stdout, String stderr) {
    public boolean ok() {
      return exitCode == 0;
    }

    /** stdout and stderr together, for messages. */
    public String output() {
      return (stdout + (stdout.isEmpty() || stderr.isEmpty() ? "" : "\n") + stderr).strip();
    }
  }

  private Cli() {}

  /**
   * Runs {@code argv} with this JVM's environment plus {@code env}.
   *
   * @throws BackendException (retriable) when the tool cannot be started or exceeds {@code timeout}
   */
  public static Result run(List<String> argv, Map<String, String> env, Duration timeout) {
    ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    pb.environment().putAll(env);
    pb.environment().put("LC_ALL", "C");
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new BackendException("cannot run " + argv.get(0) + ": " + e.getMessage(), true, e);
    }
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> slurp(p.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> slurp(p.getErrorStream()));
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        p.waitFor(5, TimeUnit.SECONDS);
        throw new BackendException(String.join(" ", argv) + " did not finish within " + timeout.toSeconds() + " s", true);
      }
      return new Result(List.copyOf(argv), p.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new BackendException("interrupted while running " + argv.get(0), true, e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new BackendException("cannot read the output of " + argv.get(0) + ": " + e.getMessage(), true, e);
    }
  }

  private static String slurp(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** POSIX shell quoting of one word. */
  public static String shellQuote(String s) {
    if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_./=:,@%+".indexOf(c) >= 0)) {
      return s;
    }
    return "'" + s.replace("'", "'\"'\"'") + "'";
  }

  /** A command line as one shell-quoted string. */
  public static String shellJoin(List<String> argv) {
    StringBuilder sb = new StringBuilder();
    for (String a : argv) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append(shellQuote(a));
    }
    return sb.toString();
  }
}
