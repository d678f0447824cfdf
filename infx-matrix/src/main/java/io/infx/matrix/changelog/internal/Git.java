package io.infx.matrix.changelog.internal;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The {@code git} command line, run in one repository with a bounded time per call. Output is
 * read as bytes; user configuration that would change it (pager, colour, external diff tools,
 * quoting) is switched off.
 */
public final class Git {

  /** Outcome of one call. */
  public record Result(int exitCode, byte[] stdout, String stderr) {
    public String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }
  }

  private final Path dir;
  private final Duration timeout;

  public Git(Path dir, Duration timeout) {
    this.dir = dir;
    this.timeout = timeout;
  }

  /** The working directory calls run in. */
  public Path dir() {
    return dir;
  }

  /** Runs {@code git args…}; never throws for a non-zero exit. */
  public Result call(String... args) {
    List<String> cmd = new ArrayList<>(List.of("git", "--no-pager", "-c", "core.quotepath=off",
        "-c", "color.ui=never"));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
    pb.environment().put("GIT_TERMINAL_PROMPT", "0");
    pb.environment().put("GIT_PAGER", "cat");
    pb.environment().put("LC_ALL", "C");
    pb.environment().remove("GIT_EXTERNAL_DIFF");
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new InfxException(ErrorKind.GIT, "cannot run git in " + dir + ": " + e.getMessage()
          + " (is git installed and on PATH?)", e);
    }
    CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> drain(p.getInputStream()));
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> drain(p.getErrorStream()));
    try {
      p.getOutputStream().close();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new InfxException(ErrorKind.GIT, "git " + String.join(" ", args) + " did not finish within "
            + timeout.toSeconds() + " s in " + dir);
      }
      return new Result(p.exitValue(), out.get(),
          new String(err.get(), StandardCharsets.UTF_8).strip());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new InfxException(ErrorKind.GIT, "interrupted while running git " + String.join(" ", args));
    } catch (IOException | ExecutionException e) {
      throw new InfxException(ErrorKind.GIT, "git " + String.join(" ", args) + " failed: " + e, e);
    }
  }

  /** Runs {@code git args…} and returns stdout; a non-zero exit is an error naming git's message. */
  public Result run(String... args) {
    Result r = call(args);
    if (r.exitCode() != 0) {
      throw new InfxException(ErrorKind.GIT, "git " + String.join(" ", args) + " failed (exit "
          + r.exitCode() + ")" + (r.stderr().isEmpty() ? "" : ": " + r.stderr()));
    }
    return r;
  }

  private static byte[] drain(InputStream in) {
    try (in) {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      in.transferTo(buf);
      return buf.toByteArray();
    } catch (IOException e) {
      return new byte[0];
    }
  }
}
