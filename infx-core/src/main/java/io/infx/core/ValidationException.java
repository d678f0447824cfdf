package io.infx.core;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Input broke one or more rules. Carries <em>all</em> violations found, in input order; the message
 * lists the first {@value #MAX_RENDERED} on their own lines and then counts the rest, so a huge
 * broken input (300k bad keys) gives a readable error instead of millions of lines.
 */
public class ValidationException extends InfxException {

  private static final long serialVersionUID = 1L;

  /** Violations listed in the message; the rest are counted ({@link #violations()} has all). */
  public static final int MAX_RENDERED = 100;

  private final transient List<Violation> violations;

  /**
   * @param kind classification, e.g. {@link ErrorKind#CONFIG_VALIDATION} or
   *     {@link ErrorKind#RUNNER_VALIDATION}
   * @param violations at least one violation
   */
  public ValidationException(ErrorKind kind, List<Violation> violations) {
    super(java.util.Objects.requireNonNull(kind, "kind"), render(java.util.Objects.requireNonNull(violations, "violations")));
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
    String lines = violations.stream().limit(MAX_RENDERED).map(Violation::render)
        .collect(Collectors.joining("\n"));
    int rest = violations.size() - MAX_RENDERED;
    if (rest > 0) {
      lines += "\n… and " + rest + " more violation" + (rest == 1 ? "" : "s") + " (the first "
          + MAX_RENDERED + " are shown; fix these and run again)";
    }
    return violations.size() == 1
        ? lines
        : violations.size() + " violations:\n" + lines;
  }
}
