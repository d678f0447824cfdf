package io.infx.report;

import java.util.Objects;

/**
 * A point that produced no result (failed launch, failed client run, rejected row), listed in the
 * report so that a missing curve point is explained rather than silently absent.
 *
 * @param point which point, e.g. its RESULT_FILENAME or source file
 * @param message what went wrong, as shown to a user
 */
public record ReportProblem(String point, String message) {
  public ReportProblem {
    Objects.requireNonNull(point, "point");
    Objects.requireNonNull(message, "message");
  }
}
