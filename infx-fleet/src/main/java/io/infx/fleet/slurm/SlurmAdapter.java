package io.infx.fleet.slurm;

import io.infx.core.UsageException;
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
import java.util.Arrays;
import java.util.List;
import java.util.Set;

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

  static final Set<String> KEYS = Set.of("slurm.mode", "slurm.partition", "slurm.account", "slurm.gres",
      "slurm.gpus", "slurm.exclusive", "slurm.exclude", "slurm.cpus-per-task", "slurm.java", "slurm.classpath",
      "slurm.bin-dir");

  @Override
  public String id() {
    return "slurm";
  }

  @Override
  public String description() {
    return "a Slurm job (sbatch, or salloc --no-shell + srun --jobid) running server + client on the node";
  }

  /** Backend settings from the options. */
  public static SlurmJobSettings settings(AdapterOptions o) {
    o.requireKnown("slurm.", KEYS);
    var b = SlurmJobSettings.builder();
    o.get("slurm.mode").ifPresent(m -> b.mode(switch (m) {
      case "batch" -> SlurmJobSettings.Mode.BATCH;
      case "alloc" -> SlurmJobSettings.Mode.ALLOC;
      default -> throw new UsageException("slurm.mode must be batch or alloc, got '" + m + "'");
    }));
    o.get("slurm.partition").ifPresent(b::partition);
    o.get("slurm.account").ifPresent(b::account);
    o.get("slurm.gres").ifPresent(b::gresTemplate);
    o.get("slurm.exclusive").ifPresent(v -> b.exclusive(Boolean.parseBoolean(v)));
    o.get("slurm.exclude").ifPresent(v -> b.addAllExclude(Arrays.stream(v.split(",")).map(String::strip)
        .filter(s -> !s.isEmpty()).toList()));
    o.get("slurm.cpus-per-task").ifPresent(v -> b.cpusPerTask(positive("slurm.cpus-per-task", v)));
    o.get("slurm.bin-dir").ifPresent(v -> b.binDir(Path.of(v)));
    return b.build();
  }

  /**
   * Adapter options from a {@code runners.yaml} cluster record's {@code slurm:} settings (partition
   * — the runner's {@code partition:<name>} label when the record lists {@code partitions} —
   * account, exclusive, exclude, gres, cpus-per-task). Explicit options override these.
   */
  public static java.util.Map<String, String> optionsFrom(io.infx.matrix.runners.RunnerInventory inventory,
      io.infx.matrix.runners.Cluster cluster, RunnerName runner) {
    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
    cluster.slurm().ifPresent(s -> {
      String partition = s.partition();
      if (!s.partitions().isEmpty()) {
        for (var e : inventory.labels().entrySet()) {
          if (e.getKey().startsWith("partition:") && e.getValue().contains(runner.name())) {
            partition = e.getKey().substring("partition:".length());
          }
        }
      }
      m.put("slurm.partition", partition);
      s.account().ifPresent(a -> m.put("slurm.account", a));
      m.put("slurm.exclusive", Boolean.toString(s.exclusive()));
      if (!s.exclude().isEmpty()) {
        m.put("slurm.exclude", String.join(",", s.exclude()));
      }
      s.gres().ifPresent(g -> m.put("slurm.gres", g));
      s.cpusPerTask().ifPresent(c -> m.put("slurm.cpus-per-task", Integer.toString(c)));
    });
    return m;
  }

  /** The job: {@code java -cp … BenchMain --workspace …} with the point's environment. */
  public static JobSpec jobSpec(PointLaunch launch) {
    AdapterOptions o = launch.options();
    String java = o.get("slurm.java").orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    String cp = o.get("slurm.classpath").orElse(System.getProperty("java.class.path"));
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
    int gpus = o.get("slurm.gpus").map(v -> nonNegative("slurm.gpus", v))
        .orElseGet(() -> Integer.parseInt(launch.env().get("GPU_COUNT").orElse("0")));
    return JobSpec.builder().name(launch.runner().name()).command(cmd).env(launch.env().values())
        .secretEnv(launch.env().secretNames()).workspace(launch.workspace()).gpus(gpus)
        .timeLimit(launch.timeLimit()).logFile("slurm_job.log").build();
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    SlurmBackend slurm = new SlurmBackend(settings(launch.options()));
    JobSpec spec = jobSpec(launch);
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
    new SlurmBackend(settings(options)).cancelNamed(runner.name(), Duration.ofMinutes(2));
  }

  private static int positive(String key, String v) {
    int n = nonNegative(key, v);
    if (n == 0) {
      throw new UsageException(key + " must be > 0, got " + v);
    }
    return n;
  }

  private static int nonNegative(String key, String v) {
    try {
      int n = Integer.parseInt(v.strip());
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException(key + " must be a non-negative integer, got '" + v + "'");
    }
  }
}
