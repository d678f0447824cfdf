package io.infx.core;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Input broke one or more rules. Carries <em>all</em> violations found, in input order; the message
 * lists each one on its own line.
 */
public class ValidationException extends InfxException {

  private static final long serialVersionUID = 1L;

  private final transient List<Violation> violations;

  /**
   * @param kind classification, e.g. {@code config-validation} or {@code runner-validation}
   * @param violations at least one violation
   */
  public ValidationException(String kind, List<Violation> violations) {
    super(kind, render(violations), 1, null);
    this.violations = List.copyOf(violations);
  }

  /** The violations, in the order they were found; never empty. */
  public List<Violation> violations() {
    return violations;
  }

  private static String render(List<Violation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a ValidationException needs at least one violation");
    }
    String lines = violations.stream().map(Violation::render).collect(Collectors.joining("\n"));
    return violations.size() == 1
        ? lines
        : violations.size() + " violations:\n" + lines;
  }
}
