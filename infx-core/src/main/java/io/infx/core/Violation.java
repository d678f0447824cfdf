package io.infx.core;

import java.util.Optional;
import org.immutables.value.Value;

/**
 * One broken rule in a user's input. A {@link ValidationException} carries every violation found in
 * one pass, so users fix all of them at once.
 *
 * <p>Rendered as {@code file:line:column: [rule-id] /json/pointer: message (expected X, actual Y)}.
 */
@Value.Immutable
@InfxStyle
public abstract class Violation {

  /** Stable rule id, e.g. {@code master.tp.power-of-two} or {@code yaml.duplicate-key}. */
  public abstract String ruleId();

  /** RFC 6901 JSON pointer to the offending value ({@code ""} for the whole document). */
  @Value.Default
  public String pointer() {
    return "";
  }

  /** Where the offending value is in the input, when the input came from a file. */
  public abstract Optional<Location> location();

  /** What the rule expects, in words or as a literal. */
  public abstract Optional<String> expected();

  /** What the input holds. */
  public abstract Optional<String> actual();

  /** Human-readable description of the problem. */
  public abstract String message();

  public static ImmutableViolation.Builder builder() {
    return ImmutableViolation.builder();
  }

  /** A violation with only a rule id and a message. */
  public static Violation of(String ruleId, String message) {
    return builder().ruleId(ruleId).message(message).build();
  }

  /** One line: location, rule id, pointer, message, expected/actual. */
  public String render() {
    StringBuilder sb = new StringBuilder();
    location().ifPresent(l -> sb.append(l).append(": "));
    sb.append('[').append(ruleId()).append("] ");
    if (!pointer().isEmpty()) {
      sb.append(pointer()).append(": ");
    }
    sb.append(message());
    if (expected().isPresent() || actual().isPresent()) {
      sb.append(" (");
      expected().ifPresent(e -> sb.append("expected ").append(e));
      if (expected().isPresent() && actual().isPresent()) {
        sb.append(", ");
      }
      actual().ifPresent(a -> sb.append("actual ").append(a));
      sb.append(')');
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return render();
  }
}
