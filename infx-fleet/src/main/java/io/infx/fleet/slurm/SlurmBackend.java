package io.infx.fleet.slurm;

import io.infx.core.io.AtomicFiles;
import io.infx.fleet.internal.Cli;
import io.infx.fleet.internal.LogTail;
import io.infx.fleet.internal.Outputs;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a job on Slurm through its command-line tools (no REST dependency): {@code sbatch}, or
 * {@code salloc --no-shell} + {@code srun --jobid} (the reference's single-node pattern, see
 * {@link SlurmJobSettings.Mode}); state from {@code scontrol show job -o} (falling back to
 * {@code sacct -X} when the controller has forgotten the job), {@code scancel} to end it.
 *
 * <p>The job's environment is this JVM's plus {@link JobSpec#env()}, handed over with
 * {@code --export=ALL} through the submitting process's environment — so values may contain
 * commas (JSON such as {@code ROUTER_METADATA}), which {@code --export=NAME=value} cannot carry.
 * Batch jobs are submitted with {@code --no-requeue}: a node failure ends the job as a retriable
 * failure instead of silently running it again. The workspace must be on a filesystem the compute
 * node shares (the job writes its log and results there).
 */
public final class SlurmBackend implements SchedulerBackend {

  private static final Pattern GRANTED = Pattern.compile("Granted job allocation ([1-9][0-9]*)");
  private static final Pattern PARSABLE = Pattern.compile("^([1-9][0-9]*)(;.*)?$");
  private static final Duration CLI_TIMEOUT = Duration.ofSeconds(60);

  private final SlurmJobSettings settings;
  private final Map<String, Submitted> jobs = new ConcurrentHashMap<>();

  private record Submitted(JobSpec spec, Optional<Process> srun) { }

  public SlurmBackend(SlurmJobSettings settings) {
    this.settings = settings;
  }

  @Override
  public String scheduler() {
    return "slurm";
  }

  public SlurmJobSettings settings() {
    return settings;
  }

  /** {@code sbatch}/{@code salloc} resource flags for {@code spec} (public for tests and dry runs). */
  public List<String> resourceArgs(JobSpec spec) {
    List<String> a = new ArrayList<>();
    settings.partition().ifPresent(p -> a.add("--partition=" + p));
    settings.account().ifPresent(p -> a.add("--account=" + p));
    a.add("--nodes=1");
    a.add("--job-name=" + spec.name());
    a.add("--time=" + Math.max(1, (spec.timeLimit().toSeconds() + 59) / 60));
    if (spec.gpus() > 0) {
      a.add("--gres=" + settings.gresTemplate().replace("{gpus}", Integer.toString(spec.gpus())));
    }
    if (settings.exclusive()) {
      a.add("--exclusive");
    }
    if (!settings.exclude().isEmpty()) {
      a.add("--exclude=" + String.join(",", settings.exclude()));
    }
    if (settings.cpusPerTask() > 0) {
      a.add("--cpus-per-task=" + settings.cpusPerTask());
    }
    a.addAll(settings.extraArgs());
    return a;
  }

  /** Pyxis flags of one {@code srun} step, when the settings enable Pyxis and the job has an image. */
  public List<String> pyxisArgs(JobSpec spec) {
    if (!settings.pyxis() || spec.image().isEmpty()) {
      return List.of();
    }
    List<String> a = new ArrayList<>();
    a.add("--container-image=" + spec.image().get());
    Map<String, String> mounts = new LinkedHashMap<>(spec.mounts());
    mounts.putIfAbsent(spec.workspace().toString(), "/workspace");
    StringBuilder m = new StringBuilder();
    mounts.forEach((host, target) -> m.append(m.length() == 0 ? "" : ",").append(host).append(':').append(target));
    a.add("--container-mounts=" + m);
    a.add("--container-workdir=/workspace");
    a.add("--no-container-entrypoint");
    a.add("--container-remap-root");
    a.add("--no-container-mount-home");
    return a;
  }

  @Override
  public JobHandle start(JobSpec spec) {
    Map<String, String> env = new HashMap<>(spec.env());
    try {
      Files.createDirectories(spec.workspace());
    } catch (IOException e) {
      throw new BackendException("cannot create workspace " + spec.workspace() + ": " + e.getMessage(), true, e);
    }
    Path log = spec.workspace().resolve(spec.logFile()).toAbsolutePath();
    if (settings.mode() == SlurmJobSettings.Mode.BATCH) {
      Path script = spec.workspace().resolve(".infx-" + spec.name() + ".sbatch");
      List<String> step = new ArrayList<>();
      if (!pyxisArgs(spec).isEmpty()) {
        step.add("srun");
        step.addAll(pyxisArgs(spec));
      }
      step.addAll(spec.command());
      AtomicFiles.writeString(script, "#!/bin/bash\n# written by infx fleet\nexec " + Cli.shellJoin(step) + "\n");
      List<String> argv = new ArrayList<>(List.of(tool("sbatch"), "--parsable"));
      argv.addAll(resourceArgs(spec));
      argv.addAll(List.of("--no-requeue", "--export=ALL", "--output=" + log, "--chdir=" + spec.workspace().toAbsolutePath(),
          script.toAbsolutePath().toString()));
      Cli.Result r = Cli.run(argv, env, CLI_TIMEOUT);
      Matcher m = PARSABLE.matcher(r.stdout().strip());
      if (!r.ok() || !m.matches()) {
        throw new BackendException("sbatch refused the job (exit " + r.exitCode() + "): " + r.output(), true);
      }
      JobHandle h = new JobHandle(scheduler(), m.group(1), spec.name());
      jobs.put(h.id(), new Submitted(spec, Optional.empty()));
      return h;
    }
    // ALLOC: salloc --no-shell, then one srun step in the allocation.
    List<String> argv = new ArrayList<>(List.of(tool("salloc")));
    argv.addAll(resourceArgs(spec));
    argv.add("--no-shell");
    Cli.Result r = Cli.run(argv, env, CLI_TIMEOUT);
    Matcher m = GRANTED.matcher(r.output());
    if (!r.ok() || !m.find()) {
      throw new BackendException("salloc failed to allocate a job (exit " + r.exitCode() + "): " + r.output(), true);
    }
    String id = m.group(1);
    List<String> srun = new ArrayList<>(List.of(tool("srun"), "--jobid=" + id, "--job-name=" + spec.name(),
        "--export=ALL", "--chdir=" + spec.workspace().toAbsolutePath()));
    srun.addAll(pyxisArgs(spec));
    srun.addAll(spec.command());
    try {
      ProcessBuilder pb = new ProcessBuilder(srun).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      pb.environment().putAll(env);
      Process p = pb.start();
      JobHandle h = new JobHandle(scheduler(), id, spec.name());
      jobs.put(id, new Submitted(spec, Optional.of(p)));
      return h;
    } catch (IOException e) {
      Cli.run(List.of(tool("scancel"), id), Map.of(), CLI_TIMEOUT);
      throw new BackendException("cannot start srun in allocation " + id + ": " + e.getMessage(), true, e);
    }
  }

  @Override
  public JobStatus status(JobHandle job) {
    Submitted sub = jobs.get(job.id());
    JobStatus alloc = read(job.id());
    if (sub != null && sub.srun().isPresent()) {
      Process p = sub.srun().get();
      if (!p.isAlive() && alloc.state() == JobState.RUNNING) {
        // The step ended; the allocation lives until scancel. The step's exit decides.
        int code = p.exitValue();
        return code == 0 ? JobStatus.of(JobState.SUCCEEDED, "srun exit 0", 0)
            : JobStatus.of(JobState.FAILED, "srun exit " + code, code);
      }
    }
    return alloc;
  }

  /** The job's state as the controller (or accounting) reports it. */
  JobStatus read(String id) {
    Cli.Result r = Cli.run(List.of(tool("scontrol"), "show", "job", "-o", id), Map.of(), CLI_TIMEOUT);
    if (r.ok()) {
      Map<String, String> f = fields(r.stdout());
      if (id.equals(f.get("JobId"))) {
        return SlurmStates.map(f.getOrDefault("JobState", ""), f.getOrDefault("ExitCode", ""))
            .withNodes(f.get("NodeList"));
      }
    }
    // The controller forgot the job (MinJobAge passed): ask accounting, if there is any.
    Cli.Result acct = Cli.run(List.of(tool("sacct"), "-X", "-n", "-P", "-j", id, "--format=State,ExitCode"),
        Map.of(), CLI_TIMEOUT);
    if (acct.ok() && !acct.stdout().isBlank()) {
      String[] p = acct.stdout().strip().split("\n")[0].split("\\|", -1);
      return SlurmStates.map(p[0], p.length > 1 ? p[1] : "");
    }
    return JobStatus.of(JobState.UNKNOWN, "job " + id + " unknown to scontrol and sacct");
  }

  static Map<String, String> fields(String oneLine) {
    Map<String, String> f = new HashMap<>();
    for (String item : oneLine.strip().split("\\s+")) {
      int eq = item.indexOf('=');
      if (eq > 0) {
        f.putIfAbsent(item.substring(0, eq), item.substring(eq + 1));
      }
    }
    return f;
  }

  @Override
  public JobStatus await(JobHandle job, Duration timeout, LogSink sink) {
    Submitted sub = jobs.get(job.id());
    LogTail tail = sub == null ? null
        : new LogTail(sub.spec().workspace().resolve(sub.spec().logFile()), job.name() + "-" + job.id(), sink);
    long deadline = System.nanoTime() + timeout.toNanos();
    JobStatus s;
    while (true) {
      if (tail != null) {
        tail.poll();
      }
      s = status(job);
      if (s.state().isTerminal() || System.nanoTime() >= deadline) {
        break;
      }
      sleep(settings.pollInterval().toMillis());
    }
    if (tail != null) {
      sleep(200); // slurmd flushes the last output shortly after the state change
      tail.drain();
    }
    return s;
  }

  @Override
  public void fetchOutputs(JobHandle job, Path dest) {
    Submitted sub = jobs.get(job.id());
    if (sub != null) {
      Outputs.copyTree(sub.spec().workspace(), dest);
    }
  }

  @Override
  public void cancel(JobHandle job, Duration wait) {
    Submitted sub = jobs.get(job.id());
    Cli.run(List.of(tool("scancel"), job.id()), Map.of(), CLI_TIMEOUT); // gone already: harmless
    long deadline = System.nanoTime() + wait.toNanos();
    while (true) {
      boolean stepAlive = sub != null && sub.srun().map(Process::isAlive).orElse(false);
      JobState st = read(job.id()).state();
      boolean active = st == JobState.PENDING || st == JobState.RUNNING;
      if (!active && !stepAlive) {
        return;
      }
      if (System.nanoTime() >= deadline) {
        sub.srun().ifPresent(Process::destroyForcibly);
        throw new BackendException("Slurm job " + job.id() + " still " + st + " " + wait.toSeconds()
            + " s after scancel", true);
      }
      sleep(200);
    }
  }

  /**
   * Cancels this user's jobs named {@code name} and waits until the queue no longer lists them —
   * the workflow's pre/post-job hygiene, scoped to one runner's name (never the whole queue).
   */
  public void cancelNamed(String name, Duration wait) {
    String user = System.getProperty("user.name");
    Cli.run(List.of(tool("scancel"), "--user=" + user, "--name=" + name), Map.of(), CLI_TIMEOUT);
    long deadline = System.nanoTime() + wait.toNanos();
    while (!queued(name, user).isEmpty()) {
      if (System.nanoTime() >= deadline) {
        throw new BackendException("jobs " + queued(name, user) + " named " + name + " still queued after "
            + wait.toSeconds() + " s", true);
      }
      sleep(500);
    }
  }

  /** Ids of this user's active jobs named {@code name}. */
  public List<String> queued(String name, String user) {
    Cli.Result r = Cli.run(List.of(tool("squeue"), "--user=" + user, "--name=" + name, "--noheader", "--format=%i"),
        Map.of(), CLI_TIMEOUT);
    return r.ok() ? r.stdout().lines().map(String::strip).filter(s -> !s.isEmpty()).toList() : List.of();
  }

  private String tool(String name) {
    return settings.binDir().map(d -> d.resolve(name).toString()).orElse(name);
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
