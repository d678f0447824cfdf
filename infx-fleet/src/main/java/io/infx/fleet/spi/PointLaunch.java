package io.infx.fleet.spi;

import io.infx.fleet.LaunchEnv;
import io.infx.matrix.MatrixRow;
import io.infx.fleet.RunnerName;
import io.infx.fleet.bench.ClientSettings;
import io.infx.fleet.bench.ServerSpec;
import io.infx.fleet.routing.FleetBinding;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything an adapter needs to run one point.
 *
 * @param row the matrix row
 * @param runner the concrete runner
 * @param env the projected environment (complete; hand it to the workload unfiltered)
 * @param workspace where the raw result and side files must end up
 * @param server what serves the model
 * @param client how the load generator is driven
 * @param options adapter-specific settings
 * @param timeLimit wall-clock limit of the whole job
 * @param readinessTimeout how long the server may take to answer {@code /health}
 * @param lifecycle register cleanups here
 * @param log job and server output, line by line
 * @param binding how the runner was routed, with its typed {@code runners.yaml} cluster record when
 *     it belongs to one (adapters take their cluster settings from it)
 */
public record PointLaunch(MatrixRow row, RunnerName runner, LaunchEnv env, Path workspace, ServerSpec server,
    ClientSettings client, AdapterOptions options, Duration timeLimit, Duration readinessTimeout,
    Lifecycle lifecycle, LogSink log, Optional<FleetBinding> binding) {

  public PointLaunch {
    Objects.requireNonNull(row, "row");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(workspace, "workspace");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(timeLimit, "timeLimit");
    Objects.requireNonNull(readinessTimeout, "readinessTimeout");
    Objects.requireNonNull(lifecycle, "lifecycle");
    Objects.requireNonNull(log, "log");
    Objects.requireNonNull(binding, "binding");
  }

  /** The launch's event record. */
  public JobEvents events() {
    return lifecycle.events();
  }
}
