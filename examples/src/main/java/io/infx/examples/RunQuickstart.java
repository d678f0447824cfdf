package io.infx.examples;

import io.infx.run.BenchmarkRun;
import io.infx.run.PointOutcome;
import io.infx.run.RunListener;
import io.infx.run.RunOptions;
import io.infx.run.RunOutcome;
import io.infx.run.Selection;
import java.nio.file.Path;
import java.util.List;

/**
 * The whole pipeline as a library call — what {@code infx run} does: expand the quickstart config
 * (here bounded to concurrency ≤ 2), run every point on the embedded simulator, collect, report.
 *
 * <p>Run: {@code examples/run RunQuickstart [OUT_DIR] [CONFIG.yaml]}.
 */
public final class RunQuickstart {

  private RunQuickstart() {}

  public static void main(String[] args) {
    Path out = Path.of(args.length > 0 ? args[0] : "infx-out/example-run");
    RunOutcome outcome = BenchmarkRun.of(RunOptions.builder()
            .addConfigFiles(Path.of(args.length > 1 ? args[1] : "examples/configs/quickstart.yaml"))
            .selection(Selection.parse(List.of("--max-conc", "2")))
            .out(out)
            .build())
        .run(new RunListener() {
          @Override
          public void finished(PointOutcome o, int done, int total) {
            System.out.printf("[%d/%d] %s %s%n", done, total, o.status(), o.point().resultFilename());
          }
        });
    outcome.collected().points().forEach(p -> System.out.printf("%-24s conc %-3d %8.1f tok/s/GPU%n",
        p.config(), p.conc(), p.tputPerGpu()));
    System.out.println("report: " + outcome.report().orElseThrow().html());
    if (outcome.exitCode() != 0) {
      System.exit(outcome.exitCode());
    }
  }
}
