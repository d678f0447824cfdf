package io.infx.fleet.spi;

import java.util.Objects;

/**
 * A started job.
 *
 * @param backend the backend's scheduler id ({@code local}, {@code slurm}, {@code docker}, …)
 * @param id the backend's job id (a PID, a Slurm job id, a container name)
 * @param name the job name (the runner name, so leftovers can be found by name)
 */
public record JobHandle(String backend, String id, String name) {
  public JobHandle {
    Objects.requireNonNull(backend, "backend");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
  }
}
