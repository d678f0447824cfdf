package io.infx.core.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code List<String>} attribute (best declared {@code @Value.Auxiliary}) that the binder
 * fills with the keys the input mapping held, in document order. It tells which attributes were
 * written explicitly (even at their default) and lets output reproduce the author's key order. It is
 * not itself an input key.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface KeyOrder {}
