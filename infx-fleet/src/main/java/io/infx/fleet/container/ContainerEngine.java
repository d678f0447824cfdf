package io.infx.fleet.container;

import io.infx.core.UsageException;
import io.infx.fleet.internal.Cli;
import io.infx.fleet.spi.JobSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Command lines of the container engines the reference's docker-based launchers use (fleet spec
 * §6.1), generated from a {@link JobSpec}:
 * <ul>
 *   <li>{@code docker run --rm --init --network=host --name=<name> --ipc=host --shm-size=16g
 *       --ulimit memlock=-1 --ulimit stack=67108864} + GPUs + {@code -v <workspace>:/workspace -w
 *       /workspace} + mounts + one {@code -e NAME} per variable + {@code --entrypoint=/bin/bash IMAGE
 *       -c <command>};
 *   <li>{@code podman run} with the same flags, GPUs through CDI ({@code --device nvidia.com/gpu=all});
 *   <li>enroot: {@code enroot import -o <squash> docker://IMAGE} (image reference with {@code / : @ #}
 *       replaced by {@code _}, as the reference names squash files), {@code enroot create --name},
 *       {@code enroot start --rw --mount … --env NAME … <name> /bin/bash -c <command>},
 *       {@code enroot remove -f <name>}.
 * </ul>
 * Variables are passed by name ({@code -e NAME} / {@code --env NAME}) and take their values from
 * the engine process's environment: the <em>complete</em> map reaches the container (no
 * allow-list, unlike the reference's docker launchers, which drop e.g. {@code EP_SIZE} and
 * {@code DP_ATTENTION}), and no value — secrets included — appears in a process listing.
 */
public enum ContainerEngine {
  DOCKER,
  PODMAN,
  ENROOT;

  /** GPU vendor, for device flags. */
  public enum Gpu {
    NVIDIA,
    AMD
  }

  public static ContainerEngine parse(String name) {
    try {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new UsageException("container.engine must be docker, podman or enroot, got '" + name + "'");
    }
  }

  /** The executable's name. */
  public String binary() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Squash file name of an image, as the reference names them ({@code / : @ #} → {@code _}). */
  public static String squashName(String image) {
    return image.replaceAll("[/:@#]", "_") + ".sqsh";
  }

  /**
   * The commands that prepare the image before {@link #runCommand} (enroot only; empty for docker
   * and podman, which pull on run).
   */
  public List<List<String>> prepareCommands(JobSpec spec, Path squashDir) {
    if (this != ENROOT) {
      return List.of();
    }
    String image = image(spec);
    Path sqsh = squashDir.resolve(squashName(image));
    return List.of(
        List.of("enroot", "import", "-o", sqsh.toString(), "docker://" + image),
        List.of("enroot", "create", "--force", "--name", spec.name(), sqsh.toString()));
  }

  /** The foreground command that runs the job in a container. */
  public List<String> runCommand(JobSpec spec, Gpu gpu) {
    String image = image(spec);
    String script = Cli.shellJoin(spec.command());
    Map<String, String> mounts = new LinkedHashMap<>();
    mounts.put(spec.workspace().toAbsolutePath().toString(), "/workspace");
    mounts.putAll(spec.mounts());
    List<String> a = new ArrayList<>();
    if (this == ENROOT) {
      a.addAll(List.of("enroot", "start", "--rw"));
      mounts.forEach((h, c) -> a.addAll(List.of("--mount", h + ":" + c)));
      spec.env().keySet().forEach(n -> a.addAll(List.of("--env", n)));
      a.addAll(List.of(spec.name(), "/bin/bash", "-c", "cd /workspace && " + script));
      return a;
    }
    a.addAll(List.of(binary(), "run", "--rm", "--init", "--network=host", "--name=" + spec.name(), "--ipc=host",
        "--shm-size=16g", "--ulimit", "memlock=-1", "--ulimit", "stack=67108864"));
    if (spec.gpus() > 0) {
      if (gpu == Gpu.AMD) {
        a.addAll(List.of("--device=/dev/kfd", "--device=/dev/dri", "--group-add", "video",
            "--security-opt", "seccomp=unconfined"));
      } else if (this == DOCKER) {
        a.addAll(List.of("--gpus", "all"));
      } else {
        a.addAll(List.of("--device", "nvidia.com/gpu=all"));
      }
    }
    mounts.forEach((h, c) -> a.addAll(List.of("-v", h + ":" + c)));
    a.addAll(List.of("-w", "/workspace"));
    spec.env().keySet().forEach(n -> a.addAll(List.of("-e", n)));
    a.addAll(List.of("--entrypoint=/bin/bash", image, "-c", script));
    return a;
  }

  /** The command that removes the container (idempotent: a missing container is not an error to us). */
  public List<String> removeCommand(JobSpec spec) {
    return this == ENROOT ? List.of("enroot", "remove", "-f", spec.name())
        : List.of(binary(), "rm", "-f", spec.name());
  }

  private static String image(JobSpec spec) {
    return spec.image().orElseThrow(() -> new UsageException("a container job needs an image (the row's IMAGE)"));
  }
}
