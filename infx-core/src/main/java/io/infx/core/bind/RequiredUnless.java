package io.infx.core.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An {@code Optional} attribute that is required unless the sibling key {@link #value()} is present
 * in the same mapping. When both are absent the binder reports the ordinary "Field required"
 * violation, in the same pass and at the same place as for a plain required attribute; an explicit
 * {@code null} is rejected as for a required attribute (it does not mean "absent").
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RequiredUnless {

  /** Wire name of the sibling key whose presence makes this attribute optional. */
  String value();
}
