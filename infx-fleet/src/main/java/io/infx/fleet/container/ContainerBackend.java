package io.infx.fleet.container;

import io.infx.fleet.internal.Cli;
import io.infx.fleet.local.LocalProcessBackend;
import io.infx.fleet.spi.SchedulerBackend;
import io.infx.fleet.spi.BackendException;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.LogSink;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs a job in a container on this machine: the engine's foreground command (see
 * {@link ContainerEngine}) runs as a local child process whose exit is the container's; cancelling
 * removes the container by name, then ends the engine process.
 */
public final class ContainerBackend implements SchedulerBackend {

  private final ContainerEngine engine;
  private final ContainerEngine.Gpu gpu;
  private final Path squashDir;
  private final Optional<Path> binDir;
  private final LocalProcessBackend local = new LocalProcessBackend();
  private final Map<String, JobSpec> specs = new ConcurrentHashMap<>();

  public ContainerBackend(ContainerEngine engine, ContainerEngine.Gpu gpu, Path squashDir, Optional<Path> binDir) {
    this.engine = engine;
    this.gpu = gpu;
    this.squashDir = squashDir;
    this.binDir = binDir;
  }

  @Override
  public String scheduler() {
    return engine.binary();
  }

  /** True when the engine's executable is on PATH (or in the configured bin dir). */
  public boolean available() {
    return locate().isPresent();
  }

  private Optional<Path> locate() {
    if (binDir.isPresent()) {
      Path p = binDir.get().resolve(engine.binary());
      return p.toFile().canExecute() ? Optional.of(p) : Optional.empty();
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Path.of(dir, engine.binary());
      if (p.toFile().canExecute()) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private List<String> resolved(List<String> argv) {
    var copy = new java.util.ArrayList<>(argv);
    copy.set(0, locate().map(Path::toString).orElse(argv.get(0)));
    return copy;
  }

  @Override
  public JobHandle start(JobSpec spec) {
    if (!available()) {
      throw new BackendException(engine.binary() + " not found on PATH: the container adapter needs a container "
          + "engine (docker, podman or enroot; choose with container.engine=…)", false);
    }
    for (List<String> prep : engine.prepareCommands(spec, squashDir)) {
      Cli.Result r = Cli.run(resolved(prep), spec.env(), Duration.ofHours(1));
      if (!r.ok()) {
        throw new BackendException(String.join(" ", prep.subList(0, 2)) + " failed (exit " + r.exitCode() + "): "
            + r.output(), true);
      }
    }
    JobSpec engineJob = JobSpec.builder().from(spec).command(resolved(engine.runCommand(spec, gpu))).build();
    JobHandle h = local.start(engineJob);
    specs.put(h.id(), spec);
    return new JobHandle(scheduler(), h.id(), spec.name());
  }

  private JobHandle localHandle(JobHandle job) {
    return new JobHandle("local", job.id(), job.name());
  }

  @Override
  public JobStatus status(JobHandle job) {
    return local.status(localHandle(job));
  }

  @Override
  public JobStatus await(JobHandle job, Duration timeout, LogSink sink) {
    return local.await(localHandle(job), timeout, sink);
  }

  @Override
  public void fetchOutputs(JobHandle job, Path dest) {
    local.fetchOutputs(localHandle(job), dest); // the workspace is bind-mounted
  }

  @Override
  public void cancel(JobHandle job, Duration wait) {
    JobSpec spec = specs.get(job.id());
    if (spec != null) {
      Cli.run(resolved(engine.removeCommand(spec)), Map.of(), Duration.ofMinutes(2));
    }
    local.cancel(localHandle(job), wait);
  }
}
