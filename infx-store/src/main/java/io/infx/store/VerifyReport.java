package io.infx.store;

import java.util.List;

/**
 * The result of {@code infx db verify}: deterministic lines (no timestamps, no timings, no ids) so
 * two stores can be compared line by line, and the threshold checks that failed.
 *
 * @param lines the report, one fact per line, in a fixed order
 * @param failures the threshold violations (empty when the store passes)
 */
public record VerifyReport(List<String> lines, List<String> failures) {

  public VerifyReport {
    lines = List.copyOf(lines);
    failures = List.copyOf(failures);
  }

  public boolean passed() {
    return failures.isEmpty();
  }
}
