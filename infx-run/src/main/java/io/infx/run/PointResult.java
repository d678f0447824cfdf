package io.infx.run;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link PointLauncher} produced for one point.
 *
 * @param aggregate {@code agg_<RESULT_FILENAME>.json} in the point's workspace, when the point succeeded
 * @param failure what went wrong, as shown to a user, when it did not
 */
public record PointResult(Optional<Path> aggregate, Optional<String> failure) {

  public PointResult {
    Objects.requireNonNull(aggregate, "aggregate");
    Objects.requireNonNull(failure, "failure");
    if (aggregate.isPresent() == failure.isPresent()) {
      throw new IllegalArgumentException("a point result has either an aggregate or a failure");
    }
  }

  public static PointResult succeeded(Path aggregate) {
    return new PointResult(Optional.of(aggregate), Optional.empty());
  }

  public static PointResult failed(String message) {
    return new PointResult(Optional.empty(), Optional.of(message));
  }

  public boolean ok() {
    return aggregate.isPresent();
  }
}
