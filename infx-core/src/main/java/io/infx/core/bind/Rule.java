package io.infx.core.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The rule id reported for Bean Validation constraints on this accessor (e.g. {@code V13.positive}),
 * so every violation names the rule it broke. On an enum type: the rule id of a value outside the
 * enum (e.g. {@code V15.spec-decoding}); without it such a value is a type error. Class-level
 * constraints carry their id in a {@code rule()} attribute of the constraint annotation instead.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Rule {
  String value();
}
