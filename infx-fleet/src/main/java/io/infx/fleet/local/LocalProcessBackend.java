package io.infx.fleet.local;

import io.infx.core.secret.Redactor;
import io.infx.fleet.internal.LogTail;
import io.infx.fleet.spi.SchedulerBackend;
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
 * forks. Output goes to {@link JobSpec#logFile()} in the workspace, line by line through the
 * run's {@link Redactor} (secret env values such as {@code HF_TOKEN} and credential-shaped text
 * never reach the file); the time limit is enforced
 * (SIGTERM, then SIGKILL after a grace period) and reported as {@link JobState#TIMED_OUT}.
 *
 * <p>The environment is this JVM's plus {@link JobSpec#env()}.
 */
public final class LocalProcessBackend implements SchedulerBackend {

  /** How long a process gets between SIGTERM and SIGKILL. */
  public static final Duration GRACE = Duration.ofSeconds(10);

  private static final String SETSID = findSetsid();

  private final Map<String, Running> jobs = new ConcurrentHashMap<>();

  private static final class Running {
    final Process process;
    final JobSpec spec;
    final long startNanos = System.nanoTime();
    volatile JobState endedAs; // CANCELLED or TIMED_OUT when we ended it
    Thread pump;

    Running(Process process, JobSpec spec) {
      this.process = process;
      this.spec = spec;
    }

    /** Waits (bounded: a grandchild may hold the pipe open) until the log has every line. */
    void awaitLog() {
      Thread t = pump;
      if (t != null && t.isAlive()) {
        try {
          t.join(5_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
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
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.PIPE)
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      pb.environment().putAll(spec.env());
      Redactor redactor = redactorFor(spec);
      Process p = pb.start();
      Thread pump = new Thread(() -> pump(p, log, redactor), "infx-log-" + p.pid());
      pump.setDaemon(true);
      pump.start();
      JobHandle h = new JobHandle(scheduler(), Long.toString(p.pid()), spec.name());
      Running running = new Running(p, spec);
      running.pump = pump;
      jobs.put(h.id(), running);
      return h;
    } catch (IOException e) {
      throw new BackendException("cannot start " + spec.command().get(0) + ": " + e.getMessage(), false, e);
    }
  }

  /** The JVM's secret-looking variables, the job's, and the values of its declared secrets. */
  static Redactor redactorFor(JobSpec spec) {
    List<String> declared = new ArrayList<>();
    for (String name : spec.secretEnv()) {
      String v = spec.env().get(name);
      if (v != null) {
        declared.add(v);
      }
    }
    return Redactor.forProcess().with(Redactor.fromEnvironment(spec.env()))
        .with(declared.toArray(String[]::new));
  }

  /** Copies the process's output into the log file, one redacted line at a time. */
  private static void pump(Process p, Path log, Redactor redactor) {
    try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(
            p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
        java.io.Writer out = Files.newBufferedWriter(log, java.nio.charset.StandardCharsets.UTF_8,
            java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        out.write(redactor.redact(line));
        out.write('\n');
        out.flush(); // the log follower tails the file while the job runs
      }
    } catch (IOException e) {
      // the process ended or the workspace went away: nothing more to copy
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
    r.awaitLog();
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
