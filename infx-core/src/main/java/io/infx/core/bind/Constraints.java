package io.infx.core.bind;

import io.infx.core.Location;
import io.infx.core.Violation;
import io.infx.core.tree.Node;
import io.infx.core.tree.Pointers;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Path;
import jakarta.validation.TraversableResolver;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.lang.annotation.ElementType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.hibernate.validator.HibernateValidator;
import org.hibernate.validator.messageinterpolation.ParameterMessageInterpolator;
import org.hibernate.validator.spi.properties.ConstrainableExecutable;
import org.hibernate.validator.spi.properties.GetterPropertySelectionStrategy;
import org.jspecify.annotations.Nullable;

/**
 * Bean Validation (Hibernate Validator) for infx value types.
 *
 * <p>Immutables accessors are not JavaBean getters ({@code tp()}, not {@code getTp()}), so the
 * validator is configured with a property selection strategy that treats every public no-argument
 * accessor as a property; constraints are written on the abstract accessors. Values are validated
 * one object at a time (no cascading): the binder checks each object right after building it, and
 * {@link #validateGraph} walks a graph built in code the same way, so every violation gets the JSON
 * pointer — and, for parsed input, the {@code file:line:column} — of the value it concerns.
 *
 * <p>Messages are interpolated without the expression language (fast start-up); the rule id of a
 * violation is its {@link SelfChecking} rule id, else the constraint's {@code rule()} attribute when
 * it has one, else the accessor's {@link Rule}, else {@code schema.constraint}.
 *
 * <p>Start-up: building Hibernate Validator's metadata and running it over thousands of small
 * objects costs several hundred milliseconds of a cold command-line JVM. Types whose constraints
 * are all common built-ins with literal messages ({@code @Positive}, {@code @Min}, {@code @Size},
 * {@code @Pattern}, {@code @DecimalMax}, ... and {@link SelfChecked}) are therefore checked
 * directly with the same semantics and results; every other type, and everything when asked
 * ({@link Binder#withHibernateValidatorOnly()}, {@code -Dinfx.validation=hibernate}), goes
 * through Hibernate Validator. Tests pin that both paths report identical violations.
 */
public final class Constraints {

  private static volatile Validator validator;

  private Constraints() {}

  /** The shared validator, built on first use. */
  public static Validator validator() {
    Validator v = validator;
    if (v == null) {
      synchronized (Constraints.class) {
        v = validator;
        if (v == null) {
          // Hibernate Validator logs through JBoss Logging, which falls back to java.util.logging
          // (INFO on stderr) unless told to use SLF4J, the logging API every infx module uses.
          if (System.getProperty("org.jboss.logging.provider") == null) {
            System.setProperty("org.jboss.logging.provider", "slf4j");
          }
          v = Validation.byProvider(HibernateValidator.class)
              .configure()
              .ignoreXmlConfiguration()
              .messageInterpolator(new ParameterMessageInterpolator())
              .traversableResolver(new AlwaysTraversable())
              .getterPropertySelectionStrategy(new AccessorStrategy())
              .buildValidatorFactory()
              .getValidator();
          validator = v;
        }
      }
    }
    return v;
  }

  /**
   * Violations of {@code value}'s own constraints (not those of nested values).
   *
   * @param pointer the value's JSON pointer
   * @param node the node it was read from, when it was read (gives locations)
   */
  public static List<Violation> check(Object value, String pointer, Optional<Node> node) {
    return check(value, pointer, node, false);
  }

  /**
   * As {@link #check(Object, String, Optional)}; with {@code hibernateOnly} every constraint is
   * evaluated by Hibernate Validator, never by the built-in fast path (same results, slower start).
   */
  public static List<Violation> check(Object value, String pointer, Optional<Node> node, boolean hibernateOnly) {
    java.util.Objects.requireNonNull(value, "value");
    java.util.Objects.requireNonNull(pointer, "pointer");
    java.util.Objects.requireNonNull(node, "node");
    Class<?> modelClass = modelType(value.getClass());
    Optional<List<io.infx.core.ImmutableViolation.Builder>> fast = hibernateOnly ? Optional.empty()
        : FastConstraints.check(value, modelClass);
    if (fast.isPresent()) {
      if (fast.get().isEmpty()) {
        return List.of();
      }
      List<Violation> out = new ArrayList<>(fast.get().size());
      for (io.infx.core.ImmutableViolation.Builder b : fast.get()) {
        Violation partial = b.build();
        String relative = partial.pointer();
        node.ifPresent(n -> b.location(Pointers.resolveNearest(n, relative).location()));
        out.add(b.pointer(pointer + relative).build());
      }
      out.sort(Comparator.comparing(Violation::pointer).thenComparing(Violation::message));
      return out;
    }
    return hibernate(value, pointer, node);
  }

  /** Validates with Hibernate Validator (every constraint type, message interpolation). */
  static List<Violation> hibernate(Object value, String pointer, Optional<Node> node) {
    Set<ConstraintViolation<Object>> found = validator().validate(value);
    if (found.isEmpty()) {
      return List.of();
    }
    Optional<TypeModel> model = TypeModel.of(modelType(value.getClass()));
    List<Violation> out = new ArrayList<>(found.size());
    for (ConstraintViolation<Object> cv : found) {
      String javaProperty = null;
      StringBuilder relative = new StringBuilder();
      for (Path.Node pn : cv.getPropertyPath()) {
        if (pn.getName() != null && pn.getName().startsWith("<")) {
          if (pn.getIndex() != null) {
            relative.append('/').append(pn.getIndex());
          } else if (pn.getKey() != null) {
            relative.append('/').append(pn.getKey());
          }
          continue;
        }
        if (pn.getName() == null) {
          continue;
        }
        String name = pn.getName();
        if (javaProperty == null) {
          javaProperty = name;
          if (model.isPresent()) {
            name = model.get().attrs.stream()
                .filter(a -> a.javaName.equals(pn.getName()))
                .map(a -> a.wire)
                .findFirst()
                .orElse(name);
          }
        }
        relative.append('/').append(name);
      }
      String full = pointer + relative;
      Optional<Location> where = node.map(n -> Pointers.resolveNearest(n, relative.toString()).location());
      io.infx.core.ImmutableViolation.Builder b = Violation.builder()
          .ruleId(ruleId(cv, model, javaProperty))
          .pointer(full)
          .message(cv.getMessage());
      where.ifPresent(b::location);
      Object invalid = cv.getInvalidValue();
      boolean selfChecked = cv.getConstraintDescriptor().getAnnotation() instanceof SelfChecked;
      if (!selfChecked && invalid != null && javaProperty != null && !(invalid instanceof Iterable<?>)
          && TypeModel.of(invalid.getClass()).isEmpty()) {
        b.actual(invalid instanceof String s ? "'" + s + "'" : String.valueOf(invalid));
      }
      out.add(b.build());
    }
    out.sort(Comparator.comparing(Violation::pointer).thenComparing(Violation::message));
    return out;
  }

  /**
   * Checks {@code root} and every infx value nested in it (attributes, list elements, map values),
   * each with its own JSON pointer; for values built in code rather than read from a file.
   */
  public static List<Violation> validateGraph(@Nullable Object root) {
    return validateGraph(root, false);
  }

  /** As {@link #validateGraph(Object)}, optionally with Hibernate Validator for every constraint. */
  public static List<Violation> validateGraph(@Nullable Object root, boolean hibernateOnly) {
    List<Violation> out = new ArrayList<>();
    walk(root, "", out, hibernateOnly);
    return out;
  }

  private static void walk(Object value, String pointer, List<Violation> out, boolean hibernateOnly) {
    if (value == null) {
      return;
    }
    if (value instanceof Optional<?> o) {
      o.ifPresent(v -> walk(v, pointer, out, hibernateOnly));
      return;
    }
    if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        walk(list.get(i), Pointers.child(pointer, i), out, hibernateOnly);
      }
      return;
    }
    if (value instanceof java.util.Map<?, ?> map) {
      for (var e : map.entrySet()) {
        walk(e.getValue(), Pointers.child(pointer, String.valueOf(e.getKey())), out, hibernateOnly);
      }
      return;
    }
    Optional<TypeModel> model = TypeModel.of(modelType(value.getClass()));
    if (model.isEmpty()) {
      return;
    }
    out.addAll(check(value, pointer, Optional.empty(), hibernateOnly));
    for (TypeModel.Attr a : model.get().attrs) {
      if (a.keyOrder || a.origin) {
        continue;
      }
      try {
        walk(a.accessor.invoke(value), Pointers.child(pointer, a.wire), out, hibernateOnly);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException("cannot read " + a.javaName + " of " + value.getClass(), e);
      }
    }
  }

  /** The hand-written abstract type behind a generated {@code Immutable*} class. */
  static Class<?> modelType(Class<?> runtime) {
    if (runtime.getSimpleName().startsWith("Immutable")) {
      Class<?> sup = runtime.getSuperclass();
      if (sup != null && sup != Object.class) {
        return sup;
      }
      for (Class<?> i : runtime.getInterfaces()) {
        return i;
      }
    }
    return runtime;
  }

  private static String ruleId(ConstraintViolation<?> cv, Optional<TypeModel> model, String javaProperty) {
    try {
      Object dynamic = cv.unwrap(org.hibernate.validator.engine.HibernateConstraintViolation.class)
          .getDynamicPayload(String.class);
      if (dynamic instanceof String s) {
        return s;
      }
    } catch (jakarta.validation.ValidationException e) {
      // not a Hibernate Validator violation
    }
    Object rule = cv.getConstraintDescriptor().getAttributes().get("rule");
    if (rule instanceof String s && !s.isEmpty()) {
      return s;
    }
    if (model.isPresent() && javaProperty != null) {
      for (TypeModel.Attr a : model.get().attrs) {
        if (a.javaName.equals(javaProperty)) {
          Rule r = a.accessor.getAnnotation(Rule.class);
          if (r != null) {
            return r.value();
          }
        }
      }
    }
    if (model.isPresent() && javaProperty == null) {
      Rule r = model.get().type.getAnnotation(Rule.class);
      if (r != null) {
        return r.value();
      }
    }
    return "schema.constraint";
  }

  /** Treats public no-argument accessors ({@code tp()}) as properties. */
  private static final class AccessorStrategy implements GetterPropertySelectionStrategy {
    private static final Set<String> EXCLUDED = Set.of("hashCode", "toString", "getClass", "clone",
        "builder", "notify", "notifyAll", "wait");

    @Override
    public Optional<String> getProperty(ConstrainableExecutable executable) {
      if (executable.getParameterTypes().length != 0 || executable.getReturnType() == void.class
          || EXCLUDED.contains(executable.getName())) {
        return Optional.empty();
      }
      return Optional.of(executable.getName());
    }

    @Override
    public List<String> getGetterMethodNameCandidates(String propertyName) {
      return List.of(propertyName);
    }
  }

  private static final class AlwaysTraversable implements TraversableResolver {
    @Override
    public boolean isReachable(Object bean, Path.Node node, Class<?> root, Path path, ElementType type) {
      return true;
    }

    @Override
    public boolean isCascadable(Object bean, Path.Node node, Class<?> root, Path path, ElementType type) {
      return true;
    }
  }
}
