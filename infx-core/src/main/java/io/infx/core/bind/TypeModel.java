package io.infx.core.bind;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the binder knows about a value type: its attributes with wire names, types, whether they are
 * required, and how to construct an instance. Two shapes are supported: Immutables abstract value
 * types (constructed through the generated {@code Immutable*} builder; an accessor is an attribute
 * when the builder has a setter of the same name) and Java records (canonical constructor).
 */
final class TypeModel {

  enum SetterKind { PLAIN, OPTIONAL, OPTIONAL_INT, OPTIONAL_LONG, OPTIONAL_DOUBLE, ITERABLE, MAP }

  static final class Attr {
    final String javaName;
    final String wire;
    final Type type;
    final Method accessor;
    final boolean required;
    final boolean acceptsNull;
    final boolean keyOrder;
    final boolean origin;
    /** {@link KeepOrigin#value()}: the key whose origin is kept, empty for the mapping's own. */
    final String originOf;
    /** {@link RequiredUnless#value()}, or null. */
    final String requiredUnless;
    Method setter;
    SetterKind kind;
    int index; // record component index

    Attr(String javaName, String wire, Type type, Method accessor, boolean required,
        boolean acceptsNull, boolean keyOrder, boolean origin, String originOf, String requiredUnless) {
      this.javaName = javaName;
      this.wire = wire;
      this.type = type;
      this.accessor = accessor;
      this.required = required;
      this.acceptsNull = acceptsNull;
      this.keyOrder = keyOrder;
      this.origin = origin;
      this.originOf = originOf;
      this.requiredUnless = requiredUnless;
    }

    /** The element type for Optional, the declared type otherwise. */
    Type valueType() {
      if (kind == SetterKind.OPTIONAL && type instanceof ParameterizedType p) {
        return p.getActualTypeArguments()[0];
      }
      if (kind == SetterKind.OPTIONAL_INT) {
        return int.class;
      }
      if (kind == SetterKind.OPTIONAL_LONG) {
        return long.class;
      }
      if (kind == SetterKind.OPTIONAL_DOUBLE) {
        return double.class;
      }
      return type;
    }
  }

  private static final Map<Class<?>, TypeModel> CACHE = new ConcurrentHashMap<>();

  final Class<?> type;
  final List<Attr> attrs;
  final Map<String, Attr> byWire;
  final Attr keyOrderAttr;
  /** Attributes the binder fills with origins ({@link KeepOrigin}). */
  final List<Attr> originAttrs;
  private final Method builderFactory;
  private final Method build;
  private final java.lang.reflect.Constructor<?> recordConstructor;

  private TypeModel(Class<?> type, List<Attr> attrs, Method builderFactory, Method build,
      java.lang.reflect.Constructor<?> recordConstructor) {
    this.type = type;
    this.attrs = attrs;
    Map<String, Attr> index = new LinkedHashMap<>();
    Attr ko = null;
    List<Attr> or = new ArrayList<>();
    for (Attr a : attrs) {
      if (a.keyOrder) {
        ko = a;
      } else if (a.origin) {
        or.add(a);
      } else {
        index.put(a.wire, a);
      }
    }
    this.byWire = Collections.unmodifiableMap(index);
    this.keyOrderAttr = ko;
    this.originAttrs = List.copyOf(or);
    this.builderFactory = builderFactory;
    this.build = build;
    this.recordConstructor = recordConstructor;
  }

  /** The model of {@code type}, or empty when it is neither an Immutables type nor a record. */
  static Optional<TypeModel> of(Class<?> type) {
    TypeModel m = CACHE.get(type);
    if (m != null) {
      return Optional.of(m);
    }
    m = create(type);
    if (m == null) {
      return Optional.empty();
    }
    TypeModel prev = CACHE.putIfAbsent(type, m);
    return Optional.of(prev == null ? m : prev);
  }

  boolean isRecord() {
    return recordConstructor != null;
  }

  Object newBuilder() throws ReflectiveOperationException {
    return builderFactory.invoke(null);
  }

  Object build(Object builder) throws ReflectiveOperationException {
    return build.invoke(builder);
  }

  Object construct(Object[] args) throws ReflectiveOperationException {
    return recordConstructor.newInstance(args);
  }

  private static TypeModel create(Class<?> type) {
    if (type.isRecord()) {
      return record(type);
    }
    if (!Modifier.isAbstract(type.getModifiers()) || type.isPrimitive() || type.isArray()) {
      return null;
    }
    Class<?> impl;
    try {
      String name = type.getPackageName() + ".Immutable" + type.getSimpleName();
      impl = Class.forName(name, true, type.getClassLoader());
    } catch (ClassNotFoundException e) {
      return null;
    }
    try {
      Method factory = impl.getMethod("builder");
      Class<?> builderType = factory.getReturnType();
      Method build = builderType.getMethod("build");
      Map<String, List<Method>> setters = new LinkedHashMap<>();
      for (Method m : builderType.getMethods()) {
        if (m.getParameterCount() == 1 && !Modifier.isStatic(m.getModifiers())) {
          setters.computeIfAbsent(m.getName(), k -> new ArrayList<>()).add(m);
        }
      }
      List<Attr> attrs = new ArrayList<>();
      for (Method m : accessors(type)) {
        List<Method> candidates = setters.get(m.getName());
        if (candidates == null) {
          continue;
        }
        Attr a = attr(m.getName(), m, m.getGenericReturnType(), Modifier.isAbstract(m.getModifiers()));
        if (!pickSetter(a, candidates)) {
          continue;
        }
        attrs.add(a);
      }
      return new TypeModel(type, List.copyOf(attrs), factory, build, null);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static TypeModel record(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    Class<?>[] raw = new Class<?>[components.length];
    List<Attr> attrs = new ArrayList<>();
    for (int i = 0; i < components.length; i++) {
      RecordComponent c = components[i];
      raw[i] = c.getType();
      Attr a = attr(c.getName(), c.getAccessor(), c.getGenericType(), true);
      a.kind = kindOf(c.getType());
      a.index = i;
      attrs.add(a);
    }
    try {
      java.lang.reflect.Constructor<?> ctor = type.getDeclaredConstructor(raw);
      ctor.setAccessible(true);
      return new TypeModel(type, List.copyOf(attrs), null, null, ctor);
    } catch (NoSuchMethodException e) {
      return null;
    }
  }

  private static Attr attr(String javaName, Method accessor, Type type, boolean abstractish) {
    Wire wire = accessor.getAnnotation(Wire.class);
    boolean keyOrder = accessor.isAnnotationPresent(KeyOrder.class);
    KeepOrigin keepOrigin = accessor.getAnnotation(KeepOrigin.class);
    boolean origin = keepOrigin != null;
    RequiredUnless unless = accessor.getAnnotation(RequiredUnless.class);
    Class<?> raw = rawType(type);
    boolean collection = Collection.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw);
    boolean optional = raw == Optional.class || raw == OptionalInt.class || raw == OptionalLong.class
        || raw == OptionalDouble.class;
    boolean required = !keyOrder && !origin
        && ((abstractish && !collection && !optional) || accessor.isAnnotationPresent(Required.class));
    // a conditionally required attribute rejects null like a required one
    boolean acceptsNull = (optional && unless == null) || accessor.isAnnotationPresent(AcceptsNull.class);
    return new Attr(javaName, wire != null ? wire.value() : Names.kebab(javaName), type, accessor,
        required, acceptsNull, keyOrder, origin, origin ? keepOrigin.value() : "",
        unless != null ? unless.value() : null);
  }

  private static boolean pickSetter(Attr a, List<Method> candidates) {
    Class<?> raw = rawType(a.type);
    SetterKind kind = kindOf(raw);
    for (Method m : candidates) {
      Class<?> p = m.getParameterTypes()[0];
      boolean fits = switch (kind) {
        case OPTIONAL -> p != Optional.class;
        case OPTIONAL_INT -> p == int.class;
        case OPTIONAL_LONG -> p == long.class;
        case OPTIONAL_DOUBLE -> p == double.class;
        case ITERABLE -> p == Iterable.class;
        case MAP -> Map.class.isAssignableFrom(p);
        case PLAIN -> p == raw || (p.isAssignableFrom(raw) && !p.equals(Object.class));
      };
      if (fits) {
        a.setter = m;
        a.kind = kind;
        return true;
      }
    }
    return false;
  }

  private static SetterKind kindOf(Class<?> raw) {
    if (raw == Optional.class) {
      return SetterKind.OPTIONAL;
    }
    if (raw == OptionalInt.class) {
      return SetterKind.OPTIONAL_INT;
    }
    if (raw == OptionalLong.class) {
      return SetterKind.OPTIONAL_LONG;
    }
    if (raw == OptionalDouble.class) {
      return SetterKind.OPTIONAL_DOUBLE;
    }
    if (Collection.class.isAssignableFrom(raw)) {
      return SetterKind.ITERABLE;
    }
    if (Map.class.isAssignableFrom(raw)) {
      return SetterKind.MAP;
    }
    return SetterKind.PLAIN;
  }

  /** Public no-argument accessors of {@code type}, declared order where the JVM keeps it. */
  private static List<Method> accessors(Class<?> type) {
    Map<String, Method> out = new LinkedHashMap<>();
    for (Method m : type.getMethods()) {
      if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers())
          || m.getReturnType() == void.class || m.getDeclaringClass() == Object.class) {
        continue;
      }
      Method prev = out.get(m.getName());
      // keep the most specific declaration (it carries the annotations written on the value type)
      if (prev == null || prev.getDeclaringClass().isAssignableFrom(m.getDeclaringClass())) {
        out.put(m.getName(), m);
      }
    }
    return new ArrayList<>(out.values());
  }

  static Class<?> rawType(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    if (t instanceof java.lang.reflect.WildcardType w) {
      return rawType(w.getUpperBounds()[0]);
    }
    return Object.class;
  }
}
