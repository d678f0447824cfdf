package io.infx.core.bind;

import io.infx.core.Violation;
import io.infx.core.tree.ListNode;
import io.infx.core.tree.MapNode;
import io.infx.core.tree.Node;
import io.infx.core.tree.Pointers;
import io.infx.core.tree.ScalarKind;
import io.infx.core.tree.ScalarNode;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds a located {@link Node} tree to typed values (Immutables value types, records, enums,
 * strings, numbers, booleans, lists, maps, optionals) strictly, reporting <em>every</em> problem
 * at once:
 *
 * <ul>
 *   <li>unknown keys (with a did-you-mean hint, and the kebab-case spelling for snake_case keys);
 *   <li>missing required attributes ({@code Field required});
 *   <li>wrong types: no coercion at all, an integer attribute takes only an integer, a string only a
 *       string (not a number), a boolean only {@code true}/{@code false}/YAML 1.1 booleans;
 *   <li>values outside an enum ({@code Input should be 'a', 'b' or 'c'});
 *   <li>Bean Validation constraints of every object built ({@link Constraints}).
 * </ul>
 *
 * Messages start with the wording users of the reference (pydantic) know, e.g. "Extra inputs are
 * not permitted", "Field required", "Input should be a valid integer". Every violation carries the
 * JSON pointer and {@code file:line:column} of the offending value.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class Binder {

  /** Rule ids the binder reports; callers may substitute their own (e.g. spec rule numbers). */
  public record RuleIds(String unknownKey, String required, String type, String construction) {
    public static final RuleIds DEFAULT =
        new RuleIds("schema.unknown-key", "schema.required", "schema.type", "schema.value");
  }

  private static final Binder STRICT = new Binder(RuleIds.DEFAULT, true, false);
  private static final Object FAILED = new Object();
  private static final Map<Class<?>, EnumModel> ENUMS = new ConcurrentHashMap<>();

  private final RuleIds rules;
  private final boolean constraints;
  private final boolean hibernateOnly;

  private Binder(RuleIds rules, boolean constraints, boolean hibernateOnly) {
    this.rules = rules;
    this.constraints = constraints;
    this.hibernateOnly = hibernateOnly;
  }

  /** The strict binder with the default rule ids and Bean Validation on. */
  public static Binder strict() {
    return STRICT;
  }

  /** This binder reporting {@code ids} instead of the default rule ids. */
  public Binder withRuleIds(RuleIds ids) {
    return new Binder(ids, constraints, hibernateOnly);
  }

  /** This binder without Bean Validation (types and keys only). */
  public Binder withoutConstraints() {
    return new Binder(rules, false, hibernateOnly);
  }

  /**
   * This binder evaluating every constraint with Hibernate Validator (by default the common
   * built-in constraints and {@link SelfChecked} rules are evaluated directly, with identical
   * results; see {@link Constraints}).
   */
  public Binder withHibernateValidatorOnly() {
    return new Binder(rules, constraints, true);
  }

  /** Binds {@code node} to {@code type}. */
  public <T> Bound<T> bind(Node node, Class<T> type) {
    return bind(node, (Type) type);
  }

  /** Binds {@code node} to a generic type such as {@code List<Foo>} or {@code Map<String, Foo>}. */
  @SuppressWarnings("unchecked")
  public <T> Bound<T> bind(Node node, Type type) {
    List<Violation> violations = new ArrayList<>();
    Object v = value(node, type, violations);
    if (!violations.isEmpty()) {
      violations.sort(DOCUMENT_ORDER);
      return new Bound<>(Optional.empty(), violations);
    }
    if (v == FAILED) {
      throw new IllegalStateException("binding failed without a violation at " + node.pointer());
    }
    return new Bound<>(Optional.of((T) v), List.of());
  }

  private static final Comparator<Violation> DOCUMENT_ORDER = Comparator
      .comparing((Violation v) -> v.location().map(l -> l.source()).orElse(""))
      .thenComparingInt(v -> v.location().map(l -> l.line()).orElse(0))
      .thenComparingInt(v -> v.location().map(l -> l.column()).orElse(0));

  private Object value(Node node, Type type, List<Violation> out) {
    Class<?> raw = TypeModel.rawType(type);
    if (Node.class.isAssignableFrom(raw)) {
      if (raw.isInstance(node)) {
        return node;
      }
      return typeError(node, "Input should be a valid " + nodeWord(raw), out);
    }
    if (raw == Optional.class) {
      if (node.isNull()) {
        return Optional.empty();
      }
      Object v = value(node, arg(type, 0), out);
      return v == FAILED ? FAILED : Optional.of(v);
    }
    if (raw == OptionalInt.class) {
      Object v = node.isNull() ? null : value(node, int.class, out);
      return v == FAILED ? FAILED : v == null ? OptionalInt.empty() : OptionalInt.of((Integer) v);
    }
    if (raw == OptionalLong.class) {
      Object v = node.isNull() ? null : value(node, long.class, out);
      return v == FAILED ? FAILED : v == null ? OptionalLong.empty() : OptionalLong.of((Long) v);
    }
    if (raw == OptionalDouble.class) {
      Object v = node.isNull() ? null : value(node, double.class, out);
      return v == FAILED ? FAILED : v == null ? OptionalDouble.empty() : OptionalDouble.of((Double) v);
    }
    if (raw == String.class) {
      if (node instanceof ScalarNode s && s.kind() == ScalarKind.STRING) {
        return s.text();
      }
      return typeError(node, "Input should be a valid string", out);
    }
    if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class
        || raw == BigInteger.class) {
      if (node instanceof ScalarNode s && s.kind() == ScalarKind.INTEGER) {
        BigInteger bi = (BigInteger) s.value();
        if (raw == BigInteger.class) {
          return bi;
        }
        try {
          return raw == int.class || raw == Integer.class ? (Object) bi.intValueExact() : (Object) bi.longValueExact();
        } catch (ArithmeticException e) {
          return typeError(node, "Input should be a valid integer within "
              + (raw == int.class || raw == Integer.class ? "32" : "64") + "-bit range", out);
        }
      }
      return typeError(node, "Input should be a valid integer", out);
    }
    if (raw == boolean.class || raw == Boolean.class) {
      if (node instanceof ScalarNode s && s.kind() == ScalarKind.BOOLEAN) {
        return s.value();
      }
      return typeError(node, "Input should be a valid boolean", out);
    }
    if (raw == double.class || raw == Double.class || raw == BigDecimal.class) {
      if (node instanceof ScalarNode s && (s.kind() == ScalarKind.INTEGER || s.kind() == ScalarKind.FLOAT)) {
        Object v = s.value();
        if (raw == BigDecimal.class) {
          if (v instanceof BigInteger bi) {
            return new BigDecimal(bi);
          }
          if (v instanceof BigDecimal bd) {
            return bd;
          }
          return typeError(node, "Input should be a finite number", out);
        }
        return v instanceof BigInteger bi ? bi.doubleValue()
            : v instanceof BigDecimal bd ? bd.doubleValue() : (Double) v;
      }
      return typeError(node, "Input should be a valid number", out);
    }
    if (raw.isEnum()) {
      return enumValue(node, raw, out);
    }
    if (List.class.isAssignableFrom(raw) || Set.class.isAssignableFrom(raw)) {
      if (!(node instanceof ListNode list)) {
        return typeError(node, "Input should be a valid list", out);
      }
      Type element = arg(type, 0);
      List<Object> items = new ArrayList<>(list.size());
      boolean failed = false;
      for (Node item : list.items()) {
        Object v = value(item, element, out);
        failed |= v == FAILED;
        items.add(v);
      }
      if (failed) {
        return FAILED;
      }
      return Set.class.isAssignableFrom(raw) ? new java.util.LinkedHashSet<>(items) : items;
    }
    if (Map.class.isAssignableFrom(raw)) {
      if (!(node instanceof MapNode map)) {
        return typeError(node, "Input should be a valid dictionary", out);
      }
      Type valueType = arg(type, 1);
      Map<String, Object> values = new LinkedHashMap<>();
      boolean failed = false;
      for (MapNode.Entry e : map.entries()) {
        if (e.keyNode().kind() != ScalarKind.STRING) {
          out.add(Violation.builder()
              .ruleId(rules.type())
              .pointer(e.value().pointer())
              .location(e.keyNode().location())
              .message("Keys should be strings")
              .actual(e.keyNode().display())
              .build());
          failed = true;
          continue;
        }
        Object v = value(e.value(), valueType, out);
        failed |= v == FAILED;
        values.put(e.key(), v);
      }
      return failed ? FAILED : values;
    }
    Optional<TypeModel> model = TypeModel.of(raw);
    if (model.isPresent()) {
      if (!(node instanceof MapNode map)) {
        return typeError(node, "Input should be a valid dictionary", out);
      }
      return object(map, model.get(), out);
    }
    throw new IllegalArgumentException("the binder cannot bind " + type);
  }

  private Object object(MapNode map, TypeModel model, List<Violation> out) {
    Map<TypeModel.Attr, Object> values = new LinkedHashMap<>();
    List<String> keys = new ArrayList<>(map.size());
    boolean failed = false;
    for (MapNode.Entry e : map.entries()) {
      TypeModel.Attr a = e.keyNode().kind() == ScalarKind.STRING ? model.byWire.get(e.key()) : null;
      if (a == null) {
        unknown(e, model, map, out);
        continue;
      }
      keys.add(e.key());
      if (e.value().isNull() && a.acceptsNull) {
        continue;
      }
      Object v = value(e.value(), a.kind == TypeModel.SetterKind.OPTIONAL
          || a.kind == TypeModel.SetterKind.OPTIONAL_INT || a.kind == TypeModel.SetterKind.OPTIONAL_LONG
          || a.kind == TypeModel.SetterKind.OPTIONAL_DOUBLE ? a.valueType() : a.type, out);
      if (v == FAILED) {
        failed = true;
      } else {
        values.put(a, v);
      }
    }
    for (TypeModel.Attr a : model.attrs) {
      if ((a.required || (a.requiredUnless != null && !map.has(a.requiredUnless))) && !map.has(a.wire)) {
        out.add(Violation.builder()
            .ruleId(rules.required())
            .pointer(Pointers.child(map.pointer(), a.wire))
            .location(map.location())
            .message("Field required: '" + a.wire + "' is missing")
            .build());
        failed = true;
      }
    }
    if (failed) {
      return FAILED;
    }
    Object built;
    try {
      built = model.isRecord() ? construct(model, values, keys, map) : build(model, values, keys, map);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      out.add(Violation.builder()
          .ruleId(rules.construction())
          .pointer(map.pointer())
          .location(map.location())
          .message(cause.getMessage() == null ? cause.toString() : cause.getMessage())
          .build());
      return FAILED;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot construct " + model.type.getName(), e);
    }
    if (constraints) {
      // A value that breaks constraints is still a well-formed value: keep it, so the enclosing
      // value's own constraints are checked too and one pass reports everything.
      out.addAll(Constraints.check(built, map.pointer(), Optional.of(map), hibernateOnly));
    }
    return built;
  }

  private Object build(TypeModel model, Map<TypeModel.Attr, Object> values, List<String> keys, MapNode map)
      throws ReflectiveOperationException {
    Object builder = model.newBuilder();
    for (Map.Entry<TypeModel.Attr, Object> e : values.entrySet()) {
      TypeModel.Attr a = e.getKey();
      Object v = e.getValue();
      if (a.kind == TypeModel.SetterKind.OPTIONAL && v instanceof Optional<?> o) {
        if (o.isEmpty()) {
          continue;
        }
        v = o.get();
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL_INT) {
        if (v instanceof OptionalInt oi) {
          if (oi.isEmpty()) {
            continue;
          }
          v = oi.getAsInt();
        }
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL_LONG) {
        if (v instanceof OptionalLong ol) {
          if (ol.isEmpty()) {
            continue;
          }
          v = ol.getAsLong();
        }
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL_DOUBLE) {
        if (v instanceof OptionalDouble od) {
          if (od.isEmpty()) {
            continue;
          }
          v = od.getAsDouble();
        }
      }
      a.setter.invoke(builder, v);
    }
    if (model.keyOrderAttr != null) {
      model.keyOrderAttr.setter.invoke(builder, List.copyOf(keys));
    }
    for (TypeModel.Attr a : model.originAttrs) {
      Optional<Origin> o = origin(a, map);
      if (o.isPresent()) {
        a.setter.invoke(builder, o.get());
      }
    }
    return model.build(builder);
  }

  private Object construct(TypeModel model, Map<TypeModel.Attr, Object> values, List<String> keys, MapNode map)
      throws ReflectiveOperationException {
    Object[] args = new Object[model.attrs.size()];
    for (TypeModel.Attr a : model.attrs) {
      Object v = values.get(a);
      if (a.keyOrder) {
        v = List.copyOf(keys);
      } else if (a.origin) {
        v = origin(a, map);
      } else if (v == null) {
        v = switch (a.kind) {
          case OPTIONAL -> Optional.empty();
          case OPTIONAL_INT -> OptionalInt.empty();
          case OPTIONAL_LONG -> OptionalLong.empty();
          case OPTIONAL_DOUBLE -> OptionalDouble.empty();
          case ITERABLE -> List.of();
          case MAP -> Map.of();
          case PLAIN -> a.accessor.getReturnType() == boolean.class ? Boolean.FALSE
              : a.accessor.getReturnType() == int.class ? 0
              : a.accessor.getReturnType() == long.class ? 0L
              : a.accessor.getReturnType() == double.class ? 0.0 : null;
        };
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL && !(v instanceof Optional<?>)) {
        v = Optional.of(v);
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL_INT && v instanceof Integer i) {
        v = OptionalInt.of(i);
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL_LONG && v instanceof Long l) {
        v = OptionalLong.of(l);
      } else if (a.kind == TypeModel.SetterKind.OPTIONAL_DOUBLE && v instanceof Double d) {
        v = OptionalDouble.of(d);
      } else if (a.kind == TypeModel.SetterKind.ITERABLE && v instanceof List<?> l) {
        v = List.copyOf(l);
      } else if (a.kind == TypeModel.SetterKind.MAP && v instanceof Map<?, ?> m) {
        v = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(m));
      }
      args[a.index] = v;
    }
    return model.construct(args);
  }

  /** Where {@code a} points: the mapping itself, or the value of its {@link KeepOrigin#value()} key. */
  private static Optional<Origin> origin(TypeModel.Attr a, MapNode map) {
    if (a.originOf.isEmpty()) {
      return Optional.of(new Origin(map.pointer(), map.location()));
    }
    return map.get(a.originOf).map(n -> new Origin(n.pointer(), n.location()));
  }

    private void unknown(MapNode.Entry e, TypeModel model, MapNode map, List<Violation> out) {
    StringBuilder msg = new StringBuilder("Extra inputs are not permitted: unknown key '")
        .append(e.key()).append('\'');
    String kebab = e.key().replace('_', '-');
    if (!kebab.equals(e.key()) && map.has(kebab) && model.byWire.containsKey(kebab)) {
      msg.append(" (it repeats '").append(kebab).append("' in snake_case; keys are kebab-case, keep only '")
          .append(kebab).append("')");
    } else {
      Names.hint(e.key(), model.byWire.keySet()).ifPresent(h -> msg.append("; ").append(h));
    }
    out.add(Violation.builder()
        .ruleId(rules.unknownKey())
        .pointer(e.value().pointer())
        .location(e.keyNode().location())
        .message(msg.toString())
        .build());
  }

  private Object enumValue(Node node, Class<?> raw, List<Violation> out) {
    EnumModel m = ENUMS.computeIfAbsent(raw, EnumModel::new);
    if (node instanceof ScalarNode s && s.kind() == ScalarKind.STRING) {
      Object v = m.byWire.get(s.text());
      if (v != null) {
        return v;
      }
    }
    Rule literalRule = raw.getAnnotation(Rule.class);   // an enum may name its own literal rule
    out.add(Violation.builder()
        .ruleId(literalRule != null ? literalRule.value() : rules.type())
        .pointer(node.pointer())
        .location(node.location())
        .message(m.expectation)
        .actual(describe(node))
        .build());
    return FAILED;
  }

  private Object typeError(Node node, String message, List<Violation> out) {
    out.add(Violation.builder()
        .ruleId(rules.type())
        .pointer(node.pointer())
        .location(node.location())
        .message(message)
        .actual(describe(node))
        .build());
    return FAILED;
  }

  private static String describe(Node node) {
    if (node instanceof ScalarNode s) {
      return s.kind() == ScalarKind.NULL ? "null" : s.display() + " (" + s.typeName() + ")";
    }
    return "a " + node.typeName();
  }

  private static String nodeWord(Class<?> raw) {
    return raw == MapNode.class ? "dictionary" : raw == ListNode.class ? "list" : "value";
  }

  private static Type arg(Type type, int i) {
    if (type instanceof ParameterizedType p) {
      Type t = p.getActualTypeArguments()[i];
      if (t instanceof java.lang.reflect.WildcardType w) {
        return w.getUpperBounds()[0];
      }
      return t;
    }
    return Object.class;
  }

  /** Wire values of an enum: {@link Wire} on the constant, else its name in lower kebab-case. */
  private static final class EnumModel {
    final Map<String, Object> byWire = new LinkedHashMap<>();
    final String expectation;

    EnumModel(Class<?> type) {
      for (Object c : type.getEnumConstants()) {
        String name = ((Enum<?>) c).name();
        String wire;
        try {
          Wire w = type.getField(name).getAnnotation(Wire.class);
          wire = w != null ? w.value() : name.toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        } catch (NoSuchFieldException e) {
          wire = name.toLowerCase(java.util.Locale.ROOT);
        }
        byWire.put(wire, c);
      }
      List<String> quoted = new ArrayList<>();
      for (String w : byWire.keySet()) {
        quoted.add("'" + w + "'");
      }
      String list = quoted.size() == 1 ? quoted.get(0)
          : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
      expectation = "Input should be " + list;
    }
  }

  /** The wire value of an enum constant ({@link Wire} or lower kebab-case name). */
  public static String wireValue(Enum<?> constant) {
    EnumModel m = ENUMS.computeIfAbsent(constant.getDeclaringClass(), EnumModel::new);
    for (Map.Entry<String, Object> e : m.byWire.entrySet()) {
      if (e.getValue() == constant) {
        return e.getKey();
      }
    }
    throw new IllegalStateException("no wire value for " + constant);
  }

}
