package io.infx.fleet.slurm;

import io.infx.core.launch.LaunchVariable;
import io.infx.fleet.RunnerName;
import io.infx.fleet.bench.BenchMain;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.JobHandle;
import io.infx.fleet.spi.JobSpec;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a point as a Slurm job: the bench driver ({@link BenchMain}, server + client, on the
 * allocated node) is submitted with the projected environment; the job is named after the runner
 * (so leftovers can be cancelled by name), cancelled on every exit path, and its outputs fetched
 * before that (LIFO). The workspace must be on storage the node shares with this machine.
 *
 * <p>Options: {@code slurm.mode} ({@code batch} default, or {@code alloc} = salloc --no-shell +
 * srun --jobid), {@code slurm.partition}, {@code slurm.account}, {@code slurm.gres} (template with
 * {@code {gpus}}, default {@code gpu:{gpus}}), {@code slurm.gpus} (default {@code GPU_COUNT};
 * {@code 0} = no GRES), {@code slurm.exclusive} ({@code true|false}), {@code slurm.exclude}
 * (comma list), {@code slurm.cpus-per-task}, {@code slurm.java} (java binary on the nodes,
 * default this JVM's), {@code slurm.classpath} (default this JVM's), {@code slurm.bin-dir}.
 */
public final class SlurmAdapter implements FleetAdapter {

  @Override
  public String id() {
    return "slurm";
  }

  @Override
  public String description() {
    return "a Slurm job (sbatch, or salloc --no-shell + srun --jobid) running server + client on the node";
  }

  /**
   * The point's job settings: its cluster record's (when the runner belongs to a
   * {@code runners.yaml} cluster) with the {@code -o slurm.*} options over them.
   *
   * @throws io.infx.core.UsageException naming a bad or unknown option
   */
  public static SlurmJobSettings settings(PointLaunch launch) {
    SlurmJobSettings base = launch.binding()
        .flatMap(b -> b.cluster().map(c -> SlurmJobSettings.fromCluster(c, b.runnerLabels())))
        .orElseGet(SlurmJobSettings::defaults);
    return SlurmJobSettings.withOptions(base, launch.options());
  }

  /** The job: {@code java -cp … BenchMain --workspace …} with the point's environment. */
  public static JobSpec jobSpec(PointLaunch launch, SlurmJobSettings settings) {
    String java = settings.java().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String cp = settings.classpath().orElse(System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-cp", cp, BenchMain.class.getName(),
        "--workspace", launch.workspace().toAbsolutePath().toString(),
        "--readiness-timeout", Long.toString(launch.readinessTimeout().toSeconds()),
        "--backend", launch.client().backend()));
    if (launch.server() instanceof ServerSpec.Command c) {
      cmd.add("--server-cmd");
      cmd.add(c.shellCommand());
      c.env().forEach((k, v) -> {
        cmd.add("--server-env");
        cmd.add(k + "=" + v);
      });
      cmd.addAll(List.of("--health", c.healthPath(), "--stop-timeout", Long.toString(c.stopTimeout().toSeconds())));
    }
    launch.client().endpoint().ifPresent(e -> cmd.addAll(List.of("--endpoint", e)));
    if (!launch.client().extraBody().isEmpty()) {
      try {
        cmd.addAll(List.of("--extra-body", io.infx.core.json.Json.mapper().writeValueAsString(launch.client().extraBody())));
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
    if (launch.client().useChatTemplate()) {
      cmd.addAll(List.of("--use-chat-template", "true"));
    }
    launch.client().chatTemplate().ifPresent(t -> cmd.addAll(List.of("--chat-template",
        t.toAbsolutePath().toString())));
    launch.client().tokenizer().ifPresent(t -> {
      cmd.add("--tokenizer");
      cmd.add(t);
    });
    launch.client().numPrompts().ifPresent(n -> {
      cmd.add("--num-prompts");
      cmd.add(Integer.toString(n));
    });
    launch.client().numWarmups().ifPresent(n -> {
      cmd.add("--num-warmups");
      cmd.add(Integer.toString(n));
    });
    launch.client().eval().command().ifPresent(c -> {
      cmd.add("--eval-cmd");
      cmd.add(c);
    });
    cmd.add("--eval-tasks");
    cmd.add(launch.client().eval().tasks());
    launch.client().eval().limit().ifPresent(n -> {
      cmd.add("--eval-limit");
      cmd.add(Integer.toString(n));
    });
    int gpus = settings.gpus().orElseGet(() -> launch.env().get(LaunchVariable.GPU_COUNT.name())
        .map(v -> LaunchVariable.parseInt(v).value().orElseThrow(() -> new IllegalStateException(
            LaunchVariable.GPU_COUNT + " of the projection: " + LaunchVariable.parseInt(v).problem())))
        .orElse(0));
    return JobSpec.builder().name(launch.runner().name()).command(cmd).env(launch.env().values())
        .secretEnv(launch.env().secretNames()).workspace(launch.workspace()).gpus(gpus)
        .timeLimit(launch.timeLimit()).logFile("slurm_job.log").build();
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    if (launch.server() instanceof io.infx.fleet.bench.ServerSpec.Held) {
      throw new io.infx.core.UsageException("the slurm adapter starts each point's server in the point's job;"
          + " a server kept up across points (infx search) runs on the local or container adapter");
    }
    SlurmJobSettings settings = settings(launch);
    SlurmBackend slurm = new SlurmBackend(settings);
    JobSpec spec = jobSpec(launch, settings);
    JobHandle job;
    try {
      job = launch.events().timed("submit", () -> slurm.start(spec));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    launch.events().identity("slurm_job_id", job.id());
    launch.lifecycle().onClose("cancel Slurm job " + job.id(), () -> slurm.cancel(job, Duration.ofSeconds(60)));
    launch.lifecycle().onClose("fetch outputs", () -> slurm.fetchOutputs(job, launch.workspace()));
    // The job's own limit ends it; give the scheduler a little longer to say so.
    JobStatus s = slurm.await(job, launch.timeLimit().plusMinutes(5), launch.log());
    s.nodes().ifPresent(n -> launch.events().identity("nodes", n));
    return s;
  }

  @Override
  public void cleanupLeftovers(RunnerName runner, AdapterOptions options) {
    new SlurmBackend(SlurmJobSettings.fromOptions(options)).cancelNamed(runner.name(), Duration.ofMinutes(2));
  }
}
