package io.infx.testing;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.util.List;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a {@link ValidationException}'s violations; see {@link InfxAssertions}. */
public final class ValidationExceptionAssert extends AbstractAssert<ValidationExceptionAssert, ValidationException> {

  ValidationExceptionAssert(ValidationException actual) {
    super(actual, ValidationExceptionAssert.class);
  }

  /** The error's kind is {@code kind} (e.g. {@link ErrorKind#CONFIG_VALIDATION}). */
  public ValidationExceptionAssert hasKind(ErrorKind kind) {
    isNotNull();
    if (kind != actual.kind()) {
      failWithMessage("%nExpecting validation error of kind:%n  %s (%s)%nbut it was of kind:%n  %s (%s)%nwith violations:%n%s",
          kind, kind.wireName(), actual.kind(), actual.kind().wireName(), list(actual.violations()));
    }
    return this;
  }

  /**
   * The error's kind has the wire name {@code wireName} (as printed and serialized, e.g.
   * {@code "config-validation"}).
   *
   * @throws IllegalArgumentException when no {@link ErrorKind} has that wire name (a typo in the test)
   */
  public ValidationExceptionAssert hasKind(String wireName) {
    return hasKind(ErrorKind.fromWireName(wireName).orElseThrow(
        () -> new IllegalArgumentException("no error kind is named '" + wireName + "' (see docs/errors.md)")));
  }

  /** The error carries exactly {@code count} violations. */
  public ValidationExceptionAssert hasViolationCount(int count) {
    isNotNull();
    if (actual.violations().size() != count) {
      failWithMessage("%nExpecting validation error to have %d violation(s) but it had %d:%n%s",
          count, actual.violations().size(), list(actual.violations()));
    }
    return this;
  }

  /**
   * At least one violation has rule id {@code ruleId}; continue with {@link ViolationAssert#at} to
   * check where.
   */
  public ViolationAssert hasViolation(String ruleId) {
    isNotNull();
    List<Violation> matching = actual.violations().stream().filter(v -> v.ruleId().equals(ruleId)).toList();
    if (matching.isEmpty()) {
      failWithMessage("%nExpecting validation error to have a violation of rule:%n  \"%s\"%nbut its rules were:%n  %s%nviolations:%n%s",
          ruleId, actual.violations().stream().map(Violation::ruleId).distinct().toList(), list(actual.violations()));
    }
    return new ViolationAssert(this, ruleId, matching);
  }

  /** No violation has rule id {@code ruleId}. */
  public ValidationExceptionAssert hasNoViolation(String ruleId) {
    isNotNull();
    List<Violation> matching = actual.violations().stream().filter(v -> v.ruleId().equals(ruleId)).toList();
    if (!matching.isEmpty()) {
      failWithMessage("%nExpecting validation error to have no violation of rule:%n  \"%s\"%nbut it had:%n%s",
          ruleId, list(matching));
    }
    return this;
  }

  static String list(List<Violation> violations) {
    return violations.stream().map(v -> "  " + v.render()).collect(Collectors.joining("\n"));
  }
}
