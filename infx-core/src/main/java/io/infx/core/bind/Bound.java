package io.infx.core.bind;

import io.infx.core.ErrorKind;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of binding: the value when the input had no problem, and every violation found.
 *
 * @param value the bound value, present exactly when {@code violations} is empty
 * @param violations every problem, in document order
 */
public record Bound<T>(Optional<T> value, List<Violation> violations) {

  public Bound {
    violations = List.copyOf(violations);
    if (value.isPresent() != violations.isEmpty()) {
      throw new IllegalArgumentException("a bound value is present exactly when nothing is wrong");
    }
  }

  public boolean ok() {
    return violations.isEmpty();
  }

  /**
   * The value, or a {@link ValidationException} of {@code kind} listing every violation.
   */
  public T orThrow(ErrorKind kind) {
    if (!violations.isEmpty()) {
      throw new ValidationException(kind, violations);
    }
    return value.orElseThrow();
  }
}
