package io.infx.fleet.container;

import static io.infx.core.Wording.setting;

import io.infx.core.UsageException;
import io.infx.core.Wording;
import io.infx.fleet.bench.BenchDriver;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.spi.AdapterOptions;
import io.infx.fleet.spi.BackendException;
import io.infx.fleet.spi.FailureKind;
import io.infx.fleet.spi.FleetAdapter;
import io.infx.fleet.spi.JobState;
import io.infx.fleet.spi.JobStatus;
import io.infx.fleet.spi.PointLaunch;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * Runs the point's server in a container of the row's {@code IMAGE} on this machine (host
 * networking, workspace bind-mounted at {@code /workspace}), the client in-process — the
 * reference's docker launchers' shape. Needs {@code --server-cmd} (the command run inside the
 * image) and a container engine.
 *
 * <p>Options: {@code container.engine} ({@code docker} default, {@code podman}, {@code enroot}),
 * {@code container.gpu} ({@code nvidia} default, {@code amd}), {@code container.squash-dir}
 * (enroot, default the workspace), {@code container.bin-dir}.
 */
public final class ContainerAdapter implements FleetAdapter {

  static final Set<String> KEYS = Set.of("container.engine", "container.gpu", "container.squash-dir",
      "container.bin-dir");

  @Override
  public String id() {
    return "container";
  }

  @Override
  public String description() {
    return "server in a docker/podman/enroot container of the row's image, client in-process";
  }

  /** The backend the options describe. */
  public static ContainerBackend backend(AdapterOptions o, Path workspace) {
    o.requireKnown("container.", KEYS);
    ContainerEngine engine = ContainerEngine.parse(o.get("container.engine").orElse("docker"));
    ContainerEngine.Gpu gpu = switch (o.get("container.gpu").orElse("nvidia")) {
      case "nvidia" -> ContainerEngine.Gpu.NVIDIA;
      case "amd" -> ContainerEngine.Gpu.AMD;
      default -> throw new UsageException("container.gpu must be nvidia or amd");
    };
    return new ContainerBackend(engine, gpu, o.get("container.squash-dir").map(Path::of).orElse(workspace),
        o.get("container.bin-dir").map(Path::of));
  }

  @Override
  public JobStatus launch(PointLaunch launch) {
    if (launch.server() instanceof ServerSpec.Held) {
      // the server was started in its container once (HeldServer); this point only runs the client
      return BenchDriver.run(new BenchDriver.Plan(launch.env().values(), launch.workspace(), launch.server(),
          launch.client(), launch.readinessTimeout()), backend(launch.options(), launch.workspace()),
          launch.lifecycle(), launch.log());
    }
    if (!(launch.server() instanceof ServerSpec.Command)) {
      throw new UsageException(Wording.of("the container adapter runs a server command inside the row's"
          + " image; pass ", setting("serverCommand"), " (e.g. 'vllm serve $MODEL --port $PORT -tp $TP')"));
    }
    ContainerBackend backend = backend(launch.options(), launch.workspace());
    if (!backend.available()) {
      String msg = backend.scheduler() + " not found on PATH: the container adapter needs a container engine "
          + "(docker, podman or enroot; choose with --option container.engine=…)";
      launch.events().fail("image", FailureKind.IMAGE, msg, 1, false, "");
      return new JobStatus(JobState.FAILED, msg, java.util.OptionalInt.of(1), Optional.empty(), false);
    }
    try {
      return BenchDriver.run(new BenchDriver.Plan(launch.env().values(), launch.workspace(), launch.server(),
          launch.client(), launch.readinessTimeout()), backend, launch.lifecycle(), launch.log());
    } catch (BackendException e) {
      launch.events().fail("image", FailureKind.IMAGE, e.getMessage(), 1, e.retriable(), "");
      throw e;
    }
  }
}
