package io.infx.run;

import io.infx.core.InfxStyle;
import io.infx.results.Slo;
import java.util.OptionalDouble;
import org.immutables.value.Value;

/**
 * What {@link SloSearch} searches and how: the run it is part of ({@link #run()}: configs, filters,
 * adapter, recipes or endpoint, run directory, {@code resume}, parallelism), the {@link Slo}, the
 * load axis and its range, and the algorithm's knobs ({@link BoundarySearch.Settings}). Only
 * {@link #run()} and {@link #slo()} are required.
 *
 * <pre>{@code
 * SearchOutcome out = SloSearch.of(SearchOptions.builder()
 *         .run(RunOptions.builder().addConfigFiles(Path.of("examples/configs/llamacpp.yaml"))
 *             .out(Path.of("infx-out/llamacpp-search")).build())
 *         .slo(Slo.parse("ttft.p99<=2000ms,tpot.p50<=50ms"))
 *         .lo(1).hi(32)
 *         .build())
 *     .run(SearchListener.NONE);
 * out.configurations().get(0).best();   // the largest concurrency meeting the SLO
 * }</pre>
 */
@Value.Immutable
@InfxStyle
public abstract class SearchOptions {

  /**
   * The run the probes belong to: every option of {@code infx run} that says what is expanded, where
   * it runs and where results go. Each configuration (a matrix row without its concurrency) is
   * searched once; its probes are points of this run directory. {@link RunOptions#repeat()} must be
   * 1 (the search repeats probes itself, {@link BoundarySearch.Settings#maxRepeats()}), and
   * {@link RunOptions#canary()} and {@link RunOptions#failFast()} do not apply.
   */
  public abstract RunOptions run();

  /** What every probe must meet. */
  public abstract Slo slo();

  /** What is searched: concurrency (default) or request rate. */
  @Value.Default
  public SearchAxis axis() {
    return SearchAxis.CONCURRENCY;
  }

  /**
   * The smallest load searched. Default: concurrency — the smallest {@code conc} of the
   * configuration's rows; request rate — required.
   */
  public abstract OptionalDouble lo();

  /**
   * The largest load searched. Default: concurrency — the largest {@code conc} of the
   * configuration's rows; request rate — required.
   */
  public abstract OptionalDouble hi();

  /** The search's resolution on the load axis. Default 1 (concurrency: every whole number). */
  @Value.Default
  public double step() {
    return 1;
  }

  /** The algorithm's knobs: strategy, probe budget (8), repeats (3), noise band (±5 %), … */
  @Value.Default
  public BoundarySearch.Settings settings() {
    return BoundarySearch.Settings.defaults();
  }

  @Value.Check
  protected void check() {
    if (run().repeat() != 1) {
      throw new IllegalArgumentException("a search repeats probes near the bound itself (settings.maxRepeats);"
          + " run.repeat must be 1, got " + run().repeat());
    }
    if (run().canary() || run().failFast()) {
      throw new IllegalArgumentException("canary and failFast are infx run options; a search has neither");
    }
    if (!(step() > 0) || Double.isInfinite(step())) {
      throw new IllegalArgumentException("step must be > 0, got " + step());
    }
    if (axis() == SearchAxis.CONCURRENCY) {
      if (step() != Math.rint(step())) {
        throw new IllegalArgumentException("a concurrency step is a whole number, got " + step());
      }
      for (OptionalDouble v : new OptionalDouble[] {lo(), hi()}) {
        if (v.isPresent() && (v.getAsDouble() < 1 || v.getAsDouble() != Math.rint(v.getAsDouble()))) {
          throw new IllegalArgumentException("a concurrency range holds whole numbers >= 1, got " + v.getAsDouble());
        }
      }
    } else if (lo().isEmpty() || hi().isEmpty()) {
      throw new IllegalArgumentException("a request-rate search needs its range (lo and hi, req/s)");
    }
    if (lo().isPresent() && hi().isPresent() && !(hi().getAsDouble() >= lo().getAsDouble())) {
      throw new IllegalArgumentException("the range's hi must be >= lo, got " + lo().getAsDouble() + ".."
          + hi().getAsDouble());
    }
    if (lo().isPresent() && !(lo().getAsDouble() > 0)) {
      throw new IllegalArgumentException("the range's lo must be > 0, got " + lo().getAsDouble());
    }
  }

  public static ImmutableSearchOptions.Builder builder() {
    return ImmutableSearchOptions.builder();
  }
}
