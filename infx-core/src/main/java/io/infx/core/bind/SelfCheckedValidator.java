package io.infx.core.bind;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import org.hibernate.validator.constraintvalidation.HibernateConstraintValidatorContext;

/** Runs {@link SelfChecking#check} and reports each failure with its rule id as dynamic payload. */
public final class SelfCheckedValidator implements ConstraintValidator<SelfChecked, SelfChecking> {

  @Override
  public boolean isValid(SelfChecking value, ConstraintValidatorContext context) {
    if (value == null) {
      return true;
    }
    boolean[] ok = {true};
    value.check(new SelfChecking.Checks() {
      @Override
      public void fail(String ruleId, String message) {
        fail(ruleId, "", message);
      }

      @Override
      public void fail(String ruleId, String relativePointer, String message) {
        if (ok[0]) {
          context.disableDefaultConstraintViolation();
          ok[0] = false;
        }
        HibernateConstraintValidatorContext hv = context.unwrap(HibernateConstraintValidatorContext.class);
        hv.withDynamicPayload(ruleId);
        var builder = hv.buildConstraintViolationWithTemplate(escape(message));
        if (relativePointer.isEmpty()) {
          builder.addConstraintViolation();
          return;
        }
        String[] parts = relativePointer.split("/");
        var node = builder.addPropertyNode(parts[0]);
        for (int i = 1; i < parts.length; i++) {
          node = node.addPropertyNode(parts[i]);
        }
        node.addConstraintViolation();
      }
    });
    return ok[0];
  }

  /** Message templates interpolate {@code {...}} and {@code $}; our messages are literal. */
  static String escape(String message) {
    StringBuilder sb = new StringBuilder(message.length() + 8);
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      if (c == '{' || c == '}' || c == '\\' || c == '$') {
        sb.append('\\');
      }
      sb.append(c);
    }
    return sb.toString();
  }
}
