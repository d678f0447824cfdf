package io.infx.testing;

import io.infx.core.Location;
import io.infx.core.Violation;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * The violations of one rule inside a validation error ({@link ValidationExceptionAssert#hasViolation});
 * {@link #at} checks that one of them sits at a given {@code file:line:column}.
 */
public final class ViolationAssert extends AbstractAssert<ViolationAssert, List<Violation>> {

  private final ValidationExceptionAssert owner;
  private final String ruleId;

  ViolationAssert(ValidationExceptionAssert owner, String ruleId, List<Violation> violations) {
    super(violations, ViolationAssert.class);
    this.owner = owner;
    this.ruleId = ruleId;
  }

  /**
   * One violation of the rule is located at {@code file:line:column} (1-based, as rendered).
   *
   * @return the assertion on the whole error, to chain further rules
   */
  public ValidationExceptionAssert at(String file, int line, int column) {
    Location expected = new Location(file, line, column);
    List<String> differences = new ArrayList<>();
    for (Violation v : actual) {
      if (v.location().isEmpty()) {
        differences.add("  " + v.render() + "  (no location)");
        continue;
      }
      Location l = v.location().get();
      if (l.equals(expected)) {
        return owner;
      }
      differences.add("  " + v.render() + "  (" + whatDiffers(expected, l) + ")");
    }
    failWithMessage("%nExpecting a violation of rule \"%s\" at:%n  %s%nbut the violations of that rule were:%n%s",
        ruleId, expected, String.join("\n", differences));
    return owner;
  }

  /** One violation of the rule has a message containing {@code text}. */
  public ViolationAssert withMessageContaining(String text) {
    if (actual.stream().noneMatch(v -> v.message().contains(text))) {
      failWithMessage("%nExpecting a violation of rule \"%s\" with a message containing:%n  \"%s\"%nbut the messages were:%n%s",
          ruleId, text, ValidationExceptionAssert.list(actual));
    }
    return this;
  }

  private static String whatDiffers(Location expected, Location actual) {
    List<String> parts = new ArrayList<>();
    if (!expected.source().equals(actual.source())) {
      parts.add("file differs");
    }
    if (expected.line() != actual.line()) {
      parts.add("line differs");
    }
    if (expected.column() != actual.column()) {
      parts.add("column differs");
    }
    return String.join(", ", parts);
  }
}
