package io.infx.core.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An explicit {@code null} in the input means "absent" for this attribute. {@code Optional}
 * attributes always accept null; other attributes reject it unless annotated.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AcceptsNull {}
