package io.infx.core.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an {@code Optional<Origin>} attribute (best declared {@code @Value.Auxiliary}) that the
 * binder fills with where the value was read, so later checks (e.g. at generation time) can still
 * name {@code file:line:column}. It is not itself an input key.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface KeepOrigin {

  /**
   * Wire name of a key of the same mapping whose value's origin is kept (left empty when the key is
   * absent); empty (the default): the origin of the mapping itself.
   */
  String value() default "";
}
