package io.infx.core.bind;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Class-level Bean Validation constraint that runs {@link SelfChecking#check}; each failure becomes
 * its own constraint violation carrying its rule id (see {@link Constraints}).
 */
@Documented
@Constraint(validatedBy = SelfCheckedValidator.class)
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface SelfChecked {
  String message() default "cross-field rule broken";

  Class<?>[] groups() default {};

  Class<? extends Payload>[] payload() default {};
}
