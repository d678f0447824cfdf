package io.infx.core.bind;

import io.infx.core.Violation;
import jakarta.validation.Constraint;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedParameterizedType;
import java.lang.reflect.AnnotatedType;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluates the common built-in Bean Validation constraints ({@code @Positive},
 * {@code @PositiveOrZero}, {@code @Min}, {@code @Max}, {@code @DecimalMin}, {@code @DecimalMax},
 * {@code @Size}, {@code @Pattern}, {@code @NotEmpty}, {@code @NotBlank}) and {@link SelfChecked}
 * directly, with their specified semantics, when every constraint of a type is one of these and
 * carries a literal message. Types using any other constraint are validated by Hibernate
 * Validator. Start-up matters for a command line: this path avoids building Hibernate Validator's
 * metadata for the hot value types, which costs a few hundred milliseconds in a cold JVM.
 * {@code -Dinfx.validation=hibernate} sends everything through Hibernate Validator.
 */
final class FastConstraints {

  private static final Set<Class<? extends Annotation>> SIMPLE = Set.of(Positive.class, PositiveOrZero.class,
      Min.class, Max.class, DecimalMin.class, DecimalMax.class, Size.class, Pattern.class, NotEmpty.class,
      NotBlank.class);
  private static final Map<Class<?>, Optional<Plan>> PLANS = new ConcurrentHashMap<>();

  private FastConstraints() {}

  private record Check(TypeModel.Attr attr, Annotation constraint, boolean element, String rule,
      java.util.regex.Pattern regex) {}

  /** What to check on one type; absent when the type needs Hibernate Validator. */
  private record Plan(List<Check> checks, boolean selfChecked) {}

  /** Violations of {@code value}'s own constraints, or empty when it must go to Hibernate Validator. */
  static Optional<List<io.infx.core.ImmutableViolation.Builder>> check(Object value, Class<?> modelType) {
    Optional<Plan> plan = PLANS.computeIfAbsent(modelType, FastConstraints::plan);
    if (plan.isEmpty()) {
      return Optional.empty();
    }
    List<io.infx.core.ImmutableViolation.Builder> out = new ArrayList<>();
    for (Check c : plan.get().checks()) {
      Object v;
      try {
        v = c.attr().accessor.invoke(value);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read " + c.attr().javaName, e);
      }
      if (v instanceof Optional<?> o) {
        v = o.orElse(null);
      }
      if (c.element()) {
        if (v instanceof List<?> list) {
          for (int i = 0; i < list.size(); i++) {
            if (!valid(c, list.get(i))) {
              out.add(violation(c, "/" + c.attr().wire + "/" + i, list.get(i)));
            }
          }
        } else if (v != null && !(v instanceof Collection<?>) && !valid(c, v)) {
          out.add(violation(c, "/" + c.attr().wire, v));
        }
      } else if (!valid(c, v)) {
        out.add(violation(c, "/" + c.attr().wire, v));
      }
    }
    if (plan.get().selfChecked() && value instanceof SelfChecking sc) {
      sc.check(new SelfChecking.Checks() {
        @Override
        public void fail(String ruleId, String message) {
          fail(ruleId, "", message);
        }

        @Override
        public void fail(String ruleId, String relativePointer, String message) {
          out.add(io.infx.core.Violation.builder().ruleId(ruleId)
              .pointer(relativePointer.isEmpty() ? "" : "/" + relativePointer).message(message));
        }
      });
    }
    return Optional.of(out);
  }

  private static io.infx.core.ImmutableViolation.Builder violation(Check c, String relative, Object invalid) {
    io.infx.core.ImmutableViolation.Builder b = io.infx.core.Violation.builder().ruleId(c.rule()).pointer(relative)
        .message(message(c.constraint()));
    if (invalid != null && !(invalid instanceof Iterable<?>) && !(invalid instanceof Map<?, ?>)
        && TypeModel.of(invalid.getClass()).isEmpty()) {
      b.actual(invalid instanceof String s ? "'" + s + "'" : String.valueOf(invalid));
    }
    return b;
  }

  private static Optional<Plan> plan(Class<?> type) {
    if (System.getProperty("infx.validation", "").equals("hibernate")) {
      return Optional.empty();
    }
    Optional<TypeModel> model = TypeModel.of(type);
    if (model.isEmpty()) {
      return Optional.empty();
    }
    boolean selfChecked = false;
    for (Annotation a : type.getAnnotations()) {
      if (a instanceof SelfChecked) {
        selfChecked = true;
      } else if (isConstraint(a)) {
        return Optional.empty();
      }
    }
    List<Check> checks = new ArrayList<>();
    for (TypeModel.Attr attr : model.get().attrs) {
      Rule rule = attr.accessor.getAnnotation(Rule.class);
      String ruleId = rule == null ? "schema.constraint" : rule.value();
      for (Method m : declarations(type, attr.accessor.getName())) {
        for (Annotation a : m.getAnnotations()) {
          if (isConstraint(a)) {
            if (!simple(a)) {
              return Optional.empty();
            }
            checks.add(new Check(attr, a, false, ruleId, regex(a)));
          }
        }
        AnnotatedType rt = m.getAnnotatedReturnType();
        if (rt instanceof AnnotatedParameterizedType p) {
          for (AnnotatedType arg : p.getAnnotatedActualTypeArguments()) {
            for (Annotation a : arg.getAnnotations()) {
              if (isConstraint(a)) {
                if (!simple(a)) {
                  return Optional.empty();
                }
                checks.add(new Check(attr, a, true, ruleId, regex(a)));
              }
            }
            if (arg instanceof AnnotatedParameterizedType nested && hasConstraints(nested)) {
              return Optional.empty();
            }
          }
        }
      }
    }
    return Optional.of(new Plan(List.copyOf(checks), selfChecked));
  }

  private static boolean hasConstraints(AnnotatedParameterizedType p) {
    for (AnnotatedType arg : p.getAnnotatedActualTypeArguments()) {
      for (Annotation a : arg.getAnnotations()) {
        if (isConstraint(a)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The accessor named {@code name} as declared on {@code type} and every supertype. */
  private static List<Method> declarations(Class<?> type, String name) {
    List<Method> out = new ArrayList<>();
    collect(type, name, out, new java.util.HashSet<>());
    return out;
  }

  private static void collect(Class<?> c, String name, List<Method> out, Set<Class<?>> seen) {
    if (c == null || c == Object.class || !seen.add(c)) {
      return;
    }
    try {
      out.add(c.getDeclaredMethod(name));
    } catch (NoSuchMethodException e) {
      // not declared here
    }
    collect(c.getSuperclass(), name, out, seen);
    for (Class<?> i : c.getInterfaces()) {
      collect(i, name, out, seen);
    }
  }

  private static boolean isConstraint(Annotation a) {
    return a.annotationType().isAnnotationPresent(Constraint.class);
  }

  private static boolean simple(Annotation a) {
    if (!SIMPLE.contains(a.annotationType())) {
      return false;
    }
    if (literal(rawMessage(a)) == null) {
      return false; // needs interpolation
    }
    try {
      Class<?>[] groups = (Class<?>[]) a.annotationType().getMethod("groups").invoke(a);
      return groups.length == 0;
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }

  private static String message(Annotation a) {
    return literal(rawMessage(a));
  }

  private static String rawMessage(Annotation a) {
    try {
      return (String) a.annotationType().getMethod("message").invoke(a);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The text of a message template without parameters ({@code \{ \} \$ \\} unescaped), else null. */
  private static String literal(String template) {
    StringBuilder sb = new StringBuilder(template.length());
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '\\' && i + 1 < template.length() && "{}$\\".indexOf(template.charAt(i + 1)) >= 0) {
        sb.append(template.charAt(++i));
      } else if (c == '{' || c == '}') {
        return null;
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** The constraint's specified semantics; null is valid for all of them but the Not* ones. */
  private static java.util.regex.Pattern regex(Annotation a) {
    if (!(a instanceof Pattern p)) {
      return null;
    }
    int flags = 0;
    for (Pattern.Flag f : p.flags()) {
      flags |= f.getValue();
    }
    return java.util.regex.Pattern.compile(p.regexp(), flags);
  }

  private static boolean valid(Check c, Object v) {
    Annotation a = c.constraint();
    if (a instanceof NotEmpty) {
      return v != null && size(v) > 0;
    }
    if (a instanceof NotBlank) {
      return v != null && !v.toString().isBlank();
    }
    if (v == null) {
      return true;
    }
    if (a instanceof Positive) {
      return decimal(v).signum() > 0;
    }
    if (a instanceof PositiveOrZero) {
      return decimal(v).signum() >= 0;
    }
    if (a instanceof Min min) {
      return decimal(v).compareTo(BigDecimal.valueOf(min.value())) >= 0;
    }
    if (a instanceof Max max) {
      return decimal(v).compareTo(BigDecimal.valueOf(max.value())) <= 0;
    }
    if (a instanceof DecimalMin min) {
      int cmp = decimal(v).compareTo(new BigDecimal(min.value()));
      return min.inclusive() ? cmp >= 0 : cmp > 0;
    }
    if (a instanceof DecimalMax max) {
      int cmp = decimal(v).compareTo(new BigDecimal(max.value()));
      return max.inclusive() ? cmp <= 0 : cmp < 0;
    }
    if (a instanceof Size size) {
      int n = size(v);
      return n >= size.min() && n <= size.max();
    }
    if (a instanceof Pattern) {
      return c.regex().matcher(v.toString()).matches();
    }
    throw new IllegalStateException("unsupported constraint " + a);
  }

  private static BigDecimal decimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (v instanceof Double || v instanceof Float) {
      return new BigDecimal(v.toString());
    }
    return BigDecimal.valueOf(((Number) v).longValue());
  }

  private static int size(Object v) {
    if (v instanceof CharSequence s) {
      return s.length();
    }
    if (v instanceof Collection<?> c) {
      return c.size();
    }
    if (v instanceof Map<?, ?> m) {
      return m.size();
    }
    throw new IllegalStateException("no size for " + v.getClass());
  }
}
