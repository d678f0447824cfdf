package io.infx.fleet.local;

import io.infx.fleet.internal.LogTail;
import io.infx.fleet.spi.Backend;
import io.infx.fleet.spi.BackendException;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.LogSink;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs a job as a child process of this JVM, in its own process group (via {@code setsid} when the
 * machine has it) so that cancelling ends the whole tree — also grandchildren a server script
 * forks. Output goes to {@link JobSpec#logFile()} in the workspace; the time limit is enforced
 * (SIGTERM, then SIGKILL after a grace period) and reported as {@link JobState#TIMED_OUT}.
 *
 * <p>The environment is this JVM's plus {@link JobSpec#env()}.
 */
public final class LocalProcessBackend implements Backend {

  /** How long a process gets between SIGTERM and SIGKILL. */
  public static final Duration GRACE = Duration.ofSeconds(10);

  private static final String SETSID = findSetsid();

  private final Map<String, Running> jobs = new ConcurrentHashMap<>();

  private static final class Running {
    final Process process;
    final JobSpec spec;
    final long startNanos = System.nanoTime();
    volatile JobState endedAs; // CANCELLED or TIMED_OUT when we ended it

    Running(Process process, JobSpec spec) {
      this.process = process;
      this.spec = spec;
    }
  }

  @Override
  public String scheduler() {
    return "local";
  }

  @Override
  public JobHandle start(JobSpec spec) {
    List<String> argv = new ArrayList<>();
    if (SETSID != null) {
      argv.add(SETSID);
    }
    argv.addAll(spec.command());
    Path log = spec.workspace().resolve(spec.logFile());
    try {
      Files.createDirectories(spec.workspace());
      Files.createDirectories(log.toAbsolutePath().getParent());
      ProcessBuilder pb = new ProcessBuilder(argv).directory(spec.workspace().toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      pb.environment().putAll(spec.env());
      Process p = pb.start();
      JobHandle h = new JobHandle(scheduler(), Long.toString(p.pid()), spec.name());
      jobs.put(h.id(), new Running(p, spec));
      return h;
    } catch (IOException e) {
      throw new BackendException("cannot start " + spec.command().get(0) + ": " + e.getMessage(), false, e);
    }
  }

  /** The process behind a handle (for liveness checks). */
  public Process process(JobHandle job) {
    return running(job).process;
  }

  @Override
  public JobStatus status(JobHandle job) {
    Running r = running(job);
    enforceLimit(r);
    if (r.process.isAlive()) {
      return JobStatus.of(JobState.RUNNING, "running pid " + r.process.pid());
    }
    int code = r.process.exitValue();
    if (r.endedAs != null) {
      return JobStatus.of(r.endedAs, r.endedAs.name().toLowerCase(java.util.Locale.ROOT) + " (exit " + code + ")", code);
    }
    if (code == 0) {
      return JobStatus.of(JobState.SUCCEEDED, "exit 0", 0);
    }
    // 128+N: killed by signal N from outside.
    return JobStatus.of(JobState.FAILED, "exit " + code + (code > 128 ? " (signal " + (code - 128) + ")" : ""), code);
  }

  @Override
  public JobStatus await(JobHandle job, Duration timeout, LogSink sink) {
    Running r = running(job);
    LogTail tail = new LogTail(r.spec.workspace().resolve(r.spec.logFile()), job.name(), sink);
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (true) {
        tail.poll();
        JobStatus s = status(job);
        if (s.state().isTerminal() || System.nanoTime() >= deadline) {
          tail.drain();
          return s;
        }
        r.process.waitFor(200, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      tail.drain();
      return status(job);
    }
  }

  @Override
  public void fetchOutputs(JobHandle job, Path dest) {
    // Outputs are written straight into the workspace; copy only when asked for another place.
    Path ws = running(job).spec.workspace();
    io.infx.fleet.internal.Outputs.copyTree(ws, dest);
  }

  @Override
  public void cancel(JobHandle job, Duration wait) {
    Running r = jobs.get(job.id());
    if (r == null) {
      return;
    }
    terminate(r, JobState.CANCELLED, wait);
  }

  private void enforceLimit(Running r) {
    if (r.process.isAlive() && r.endedAs == null
        && System.nanoTime() - r.startNanos > r.spec.timeLimit().toNanos()) {
      terminate(r, JobState.TIMED_OUT, GRACE);
    }
  }

  private static void terminate(Running r, JobState as, Duration wait) {
    Process p = r.process;
    if (!p.isAlive() && p.descendants().findAny().isEmpty()) {
      return;
    }
    if (r.endedAs == null && p.isAlive()) {
      r.endedAs = as;
    }
    List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
    signalGroup(p.pid(), "TERM");
    tree.forEach(ProcessHandle::destroy);
    p.destroy();
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline && (p.isAlive() || tree.stream().anyMatch(ProcessHandle::isAlive))) {
      sleep(50);
    }
    if (p.isAlive() || tree.stream().anyMatch(ProcessHandle::isAlive)) {
      signalGroup(p.pid(), "KILL");
      tree.forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      long hard = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (System.nanoTime() < hard && (p.isAlive() || tree.stream().anyMatch(ProcessHandle::isAlive))) {
        sleep(50);
      }
    }
    if (p.isAlive() || tree.stream().anyMatch(ProcessHandle::isAlive)) {
      throw new BackendException("process " + p.pid() + " still running after SIGKILL", false);
    }
  }

  /** Signals the process group led by {@code pid} (only when we started it under setsid). */
  private static void signalGroup(long pid, String signal) {
    if (SETSID == null) {
      return;
    }
    try {
      Process k = new ProcessBuilder("kill", "-" + signal, "--", "-" + pid)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      k.waitFor(5, TimeUnit.SECONDS);
    } catch (IOException e) {
      // fall back to per-process signals
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private Running running(JobHandle job) {
    Running r = jobs.get(job.id());
    if (r == null) {
      throw new BackendException("unknown local job " + job.id(), false);
    }
    return r;
  }

  private static String findSetsid() {
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      File f = new File(dir, "setsid");
      if (f.canExecute()) {
        return f.getAbsolutePath();
      }
    }
    return null;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
