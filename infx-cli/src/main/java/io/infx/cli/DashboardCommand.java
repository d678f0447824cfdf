package io.infx.cli;

import io.infx.core.UsageException;
import io.infx.dashboard.Dashboard;
import io.infx.store.ResultStore;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code infx dashboard}: serve the live dashboard over a results store until interrupted. */
@Command(
    name = "dashboard",
    mixinStandardHelpOptions = true,
    description = {
        "Serve a dashboard over a results store (infx db): throughput per GPU vs interactivity or "
            + "end-to-end latency per configuration with the Pareto frontier per hardware x framework, "
            + "for the latest snapshot or any earlier date; latency vs concurrency; a point's history "
            + "with confidence intervals and regressions flagged; SIMULATED points drawn apart.",
        "JSON: /api/v1/benchmarks?model=M[&date=YYYY-MM-DD], /api/v1/history, /api/v1/availability, "
            + "/api/v1/pareto, /api/v1/models. Charts (ECharts) are served from the jar: no network needed. "
            + "Prints the URL on stdout."
    })
public final class DashboardCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DbLocationOption store;

  @Option(names = "--port", paramLabel = "P", defaultValue = "8080",
      description = "Port (0 picks a free one; default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--for", paramLabel = "DURATION", description = "Stop after this long (e.g. 30s); default: until interrupted.")
  String runFor;

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new UsageException("--port must be 0..65535, got " + port);
    }
    Duration limit = runFor == null ? null : BenchServeCommand.duration("--for", runFor);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch stop = new CountDownLatch(1);
    try (ResultStore s = ResultStore.open(store.location()); Dashboard d = Dashboard.start(s, host, port)) {
      Thread hook = new Thread(stop::countDown, "infx-dashboard-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      out.println(d.url());
      out.flush();
      err.println("infx dashboard: serving " + s.location() + " on " + d.url()
          + (limit == null ? " (Ctrl-C to stop)" : " for " + limit));
      err.flush();
      if (limit == null) {
        stop.await();
      } else {
        stop.await(limit.toMillis(), TimeUnit.MILLISECONDS);
        Runtime.getRuntime().removeShutdownHook(hook);
      }
    }
    return 0;
  }
}
